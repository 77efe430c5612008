"""Python overhead: a function of many ops on a tiny tensor, time per call eager vs compiled."""
import torch
from torch.utils import benchmark


def many_small_ops(x):  # 60 ops on 16 numbers: the arithmetic is nothing, the per-op dispatch is all
    for _ in range(20):
        x = torch.sin(x) * 0.9 + 0.1
    return x


device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.randn(16, device=device)
compiled = torch.compile(many_small_ops)
torch.testing.assert_close(compiled(x), many_small_ops(x))

# One compiled call: Dynamo's guard check, then one call into the generated code.
# One eager call: the Python interpreter runs the loop and dispatches every op separately.
with torch.profiler.profile() as prof:
    many_small_ops(x)
eager_ops = sum(1 for e in prof.events() if e.cpu_parent is None and e.name.startswith("aten::"))
assert eager_ops == 60, eager_ops

threads = torch.get_num_threads()
med = {}
for name, fn in (("eager", many_small_ops), ("compiled", compiled)):
    m = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x}, num_threads=threads).blocked_autorange(
        min_run_time=1.0)
    med[name] = m.median
    noisy = "  noisy — rerun on an idle machine" if m.iqr > 0.10 * m.median else ""  # IQR/median > 10 %
    print(f"{name:>8}: median {m.median * 1e6:.1f} µs per call, IQR {m.iqr * 1e6:.1f} µs{noisy}")
print(f"eager: {eager_ops} dispatched ops per call, {med['eager'] / eager_ops * 1e6:.2f} µs per op"
      f" ({x.numel()} elements, {device})")
