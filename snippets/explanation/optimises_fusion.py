"""Operator fusion: a chain of pointwise ops runs as one generated loop instead of one kernel per op."""
import re

import torch
from torch._inductor.utils import run_and_get_code
from torch.utils import benchmark


def chain(x):  # seven pointwise operations; eager runs each one as its own kernel
    y = x * 2.0 + 1.0
    y = torch.sin(y) * x
    y = torch.relu(y) - 0.5
    return torch.tanh(y)


device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.randn(4_000_000, device=device)

# Eager: the top-level ATen operators the profiler records for one call (one kernel each).
with torch.profiler.profile() as prof:
    chain(x)
eager_ops = [e.name for e in prof.events() if e.cpu_parent is None and e.name.startswith("aten::")]
print(f"eager: {len(eager_ops)} operator calls: {', '.join(eager_ops)}")

# Compiled: read the code Inductor generated and count the kernels it defines.
compiled = torch.compile(chain)
out, codes = run_and_get_code(compiled, x)
code = "\n".join(codes)
kernels = sorted(set(re.findall(r"\b(cpp_fused_\w+|triton_\w+_fused_\w+)\s*=", code)))
print(f"compiled: {len(kernels)} generated kernel(s): {', '.join(kernels)}")
torch.testing.assert_close(out, chain(x))
assert len(kernels) == 1 and len(eager_ops) == 7, (kernels, eager_ops)

threads = torch.get_num_threads()
for name, fn in (("eager", chain), ("compiled", compiled)):
    t = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x}, num_threads=threads)
    m = t.blocked_autorange(min_run_time=1.0)
    noisy = "  noisy — rerun on an idle machine" if m.iqr > 0.10 * m.median else ""  # IQR/median > 10 %
    print(f"{name:>8}: median {m.median * 1e3:.2f} ms per call, IQR {m.iqr * 1e3:.2f} ms"
          f" ({x.numel():,} float32 elements, {threads} threads, {device}){noisy}")
