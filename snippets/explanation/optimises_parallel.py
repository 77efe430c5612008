"""Parallelisation: the OpenMP pragmas in Inductor's generated C++, and eager vs compiled on 1 and N threads."""
import os
import re

import torch
from torch._inductor.utils import run_and_get_code
from torch.utils import benchmark


def chain(x):
    return torch.tanh(torch.sin(x) * x + 1.0)


x = torch.randn(4_000_000)  # the C++ backend is a CPU story: on a GPU, Triton kernels use the GPU's own parallelism
n = torch.get_num_threads()
print(f"torch.get_num_threads() = {n} (os.cpu_count() here: {os.cpu_count()})")

for threads in sorted({1, n}):
    torch.set_num_threads(threads)
    compiled = torch.compile(chain)
    out, codes = run_and_get_code(compiled, x)  # resets Dynamo, compiles for this thread count
    torch.testing.assert_close(out, chain(x))
    pragmas = sorted(set(re.findall(r"#pragma omp [^\n]*", "\n".join(codes))))
    print(f"\ncompiled with {threads} thread(s): generated C++ has {'; '.join(pragmas) or 'no OpenMP pragma'}")
    if threads > 1:
        assert any("parallel" in p for p in pragmas), pragmas
    for name, fn in (("eager", chain), ("compiled", compiled)):
        m = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x}, num_threads=threads).blocked_autorange(
            min_run_time=0.5)
        noisy = "  noisy — rerun on an idle machine" if m.iqr > 0.10 * m.median else ""  # IQR/median > 10 %
        print(f"  {name:>8} on {threads} thread(s): median {m.median * 1e3:.2f} ms per call, "
              f"IQR {m.iqr * 1e3:.2f} ms{noisy}")
