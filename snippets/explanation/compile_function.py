"""Compile a plain Python function and check it against eager."""
import time

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1_000_000


def gelu_ish(x):
    # Eight pointwise ops (four muls, two adds, a pow, a tanh): eager runs eight kernels, each
    # writing a full-size intermediate; inductor fuses them into one loop.
    return 0.5 * x * (1 + torch.tanh(0.79788456 * (x + 0.044715 * x**3)))


x = torch.randn(N, device=DEVICE)
compiled = torch.compile(gelu_ish)  # nothing is compiled yet: compilation is lazy

t0 = time.perf_counter()
out = compiled(x)  # the first call traces, compiles and runs
if DEVICE == "cuda":
    torch.cuda.synchronize()
print(f"first call (includes compilation): {time.perf_counter() - t0:.2f} s")

t0 = time.perf_counter()
out = compiled(x)  # later calls with the same shapes and dtypes reuse the compiled code
if DEVICE == "cuda":
    torch.cuda.synchronize()
print(f"second call: {(time.perf_counter() - t0) * 1e3:.2f} ms")

expected = gelu_ish(x)
print("max abs difference vs eager:", (out - expected).abs().max().item())
torch.testing.assert_close(out, expected)
