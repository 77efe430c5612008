"""Memory traffic: bytes an unfused pointwise chain moves vs the fused loop, from the sizes, then timed."""
import torch
import torch.fx
from torch.utils import benchmark


def chain(x):  # cheap pointwise ops: their speed is set by memory traffic, not arithmetic
    y = x * 2.0 + 1.0
    y = torch.relu(y) * x
    return torch.abs(y - 0.5)


device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.randn(8_000_000, device=device)
per_tensor = x.numel() * x.element_size()  # every tensor in this chain has the shape and dtype of x

# Unfused (eager): each op reads its tensor inputs from memory and writes its result back.
graph = torch.fx.symbolic_trace(chain).graph
ops = [n for n in graph.nodes if n.op in ("call_function", "call_method")]
reads = sum(sum(isinstance(a, torch.fx.Node) for a in n.args) for n in ops)
writes = len(ops)
eager_bytes = (reads + writes) * per_tensor
# Fused (one loop): read x once, write the result once; intermediates stay in registers.
fused_bytes = 2 * per_tensor
print(f"{len(ops)} ops on {x.numel():,} float32 elements ({per_tensor / 1e6:.0f} MB per tensor)")
print(f"unfused: {reads} tensor reads + {writes} writes = {eager_bytes / 1e6:.0f} MB moved per call")
print(f"fused:   1 tensor read + 1 write = {fused_bytes / 1e6:.0f} MB moved per call")

compiled = torch.compile(chain)
torch.testing.assert_close(compiled(x), chain(x))
assert eager_bytes > fused_bytes

threads = torch.get_num_threads()
for name, fn, moved in (("eager", chain, eager_bytes), ("compiled", compiled, fused_bytes)):
    m = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x}, num_threads=threads).blocked_autorange(
        min_run_time=1.0)
    noisy = "  noisy — rerun on an idle machine" if m.iqr > 0.10 * m.median else ""  # IQR/median > 10 %
    print(f"{name:>8}: median {m.median * 1e3:.2f} ms per call, IQR {m.iqr * 1e3:.2f} ms,"
          f" {moved / m.median / 1e9:.1f} GB/s (the bytes it moves / median time; {threads} threads,"
          f" {device}){noisy}")
