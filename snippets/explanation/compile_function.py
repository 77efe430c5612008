"""Compile a plain Python function and check it against eager."""
import time

import torch
from torch.utils.benchmark import Timer

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
print(f"first call (includes compilation): {time.perf_counter() - t0:.2f} s (one run)")

# Later calls with the same shapes and dtypes reuse the compiled code: time many of them
# (Timer synchronises CUDA; its default is one thread, so give it torch's).
m = Timer("compiled(x)", globals={"compiled": compiled, "x": x},
          num_threads=torch.get_num_threads()).blocked_autorange(min_run_time=0.5)
noisy = "  noisy — rerun on an idle machine" if m.iqr > 0.10 * m.median else ""  # IQR/median > 10 %
print(f"second and later calls: median {m.median * 1e3:.2f} ms, IQR {m.iqr * 1e3:.2f} ms "
      f"({len(m.times)} blocks){noisy}")

expected = gelu_ish(x)
print("max abs difference vs eager:", (out - expected).abs().max().item())
torch.testing.assert_close(out, expected)
