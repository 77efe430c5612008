"""Compile one small model in each mode: what each mode changes, its compile time and speed."""
import time

import torch
from torch import nn
from torch._inductor import metrics
from torch.utils import benchmark

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Linear(1024, 256), nn.LayerNorm(256))
model = model.to(device).eval()
x = torch.randn(64, 256, device=device)

# Every mode this torch knows; the ones that add CUDA graphs only on a GPU.
all_modes = torch._inductor.list_mode_options()
modes = [m for m, o in all_modes.items() if device == "cuda" or not o.get("triton.cudagraphs")]


def steady(fn):
    """Time per call, all threads, after the compile: Timer's blocks (it synchronises CUDA)."""
    timer = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x}, num_threads=torch.get_num_threads())
    return timer.blocked_autorange(min_run_time=1.0)


def changes(options):
    """The Inductor options a mode sets: those it turns on, then those it turns off."""
    on = [k for k, v in options.items() if v is True]
    off = [k for k, v in options.items() if v is False]
    return "; ".join(s for s in (", ".join(on), off and "off: " + ", ".join(off)) if s) or "(none)"


with torch.no_grad():
    expected = model(x)
    torch.compile(lambda t: t + 1)(x)  # pay the compiler's one-time start-up before measuring
    rows = [("eager", "", 0.0, 0, 0.0, steady(model))]
    for mode in modes:
        torch._dynamo.reset()  # forget earlier compiles: each mode starts from scratch
        compiled = torch.compile(model, mode=mode)
        metrics.reset()  # count the kernels Inductor generates for this mode
        with torch._inductor.utils.fresh_cache():  # empty on-disk and in-memory caches: a cold compile
            t0 = time.perf_counter()
            out = compiled(x)  # first call = compile
            if device == "cuda":
                torch.cuda.synchronize()
            first = time.perf_counter() - t0
        torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)  # same answer as eager
        diff = (out - expected).abs().max().item()
        kernels = metrics.generated_kernel_count
        rows.append((mode, changes(all_modes[mode]), first, kernels, diff, steady(compiled)))

print(f"device {device}, {torch.get_num_threads()} threads, batch {x.shape[0]}")
print("first call: one run (a cold compile); per call: median and IQR of Timer's blocks")
print(f"{'mode':<28} {'first call':>10} {'per call':>10} {'IQR':>8} {'kernels':>7} {'max |diff|':>10}"
      "  options it sets")
for mode, options, first, kernels, diff, m in rows:
    first_s, kernels_s, diff_s = (f"{first:.1f} s", kernels, f"{diff:.1e}") if first else ("-", "-", "-")
    noisy = "  noisy — rerun on an idle machine" if m.iqr > 0.10 * m.median else ""  # IQR/median > 10 %
    print(f"{mode:<28} {first_s:>10} {m.median * 1e6:>7.0f} µs {m.iqr * 1e6:>5.0f} µs {kernels_s:>7} "
          f"{diff_s:>10}  {options}{noisy}")
generated = {row[0]: row[3] for row in rows}
assert len(rows) == len(modes) + 1
# lite runs every op as its eager (ATen) kernel: Inductor generates none; default fuses into its own.
assert generated["lite"] == 0 and generated["default"] >= 1
