"""Symptom: the first call of a compiled model takes seconds; later calls take milliseconds."""
# expects: ^first call: \d+\.\d+ s, later calls: \d+\.\d+ ms \(median of 20\)
import os
import statistics
import tempfile
import time

cache = tempfile.TemporaryDirectory()  # an empty compile cache: an honestly cold start
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache.name
os.environ.pop("TRITON_CACHE_DIR", None)  # on a GPU, Triton's cache then lives inside it too

import torch
from torch import nn
from torch._dynamo.utils import compile_times

device = "cuda" if torch.cuda.is_available() else "cpu"


def timed(fn, x):
    t0 = time.perf_counter()
    out = fn(x)
    if device == "cuda":
        torch.cuda.synchronize()
    return out, time.perf_counter() - t0


torch.manual_seed(0)
layers = [m for _ in range(4) for m in (nn.Linear(256, 256), nn.GELU())]
model = nn.Sequential(*layers).to(device).eval()
x = torch.randn(32, 256, device=device)
compiled = torch.compile(model)

with torch.no_grad():
    out, first = timed(compiled, x)  # traces, generates and compiles code, then runs it
    later_calls = [timed(compiled, x)[1] for _ in range(20)]
    q1, later, q3 = statistics.quantiles(later_calls, n=4, method="inclusive")  # later = the median
    torch.testing.assert_close(out, model(x))

noisy = "  noisy — rerun on an idle machine" if q3 - q1 > 0.10 * later else ""  # IQR/median > 10 %
print(f"first call: {first:.2f} s, later calls: {later * 1e3:.2f} ms (median of 20), "
      f"IQR {(q3 - q1) * 1e3:.2f} ms; the first call is one run{noisy}")
print(f"the first call took {first / later:,.0f} times as long as a later one")
names, values = compile_times(repr="csv", aggregate=True)
spent = dict(zip(names, map(float, values)))
print("where the first call went, from torch._dynamo.utils.compile_times() (nested):")
for name, what in (("_compile.compile_inner", "all of torch.compile's work on this frame"),
                   ("bytecode_tracing", "Dynamo traces the Python bytecode into a graph"),
                   ("compile_fx_inner", "Inductor lowers the graph and generates kernels"),
                   ("compile_file", "the C++ compiler builds the generated CPU code")):
    if name in spent:
        print(f"  {name:<24} {spent[name]:6.2f} s  {what}")
# What makes the first call slow, checked without asserting a speed: it ran the whole compiler.
assert "compile_fx_inner" in spent, "the first call did not compile: the symptom is gone in this torch"
