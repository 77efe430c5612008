"""Compile one small model in each mode: what each mode turns on, its compile time and speed."""
import time

import torch
from torch import nn
from torch.utils import benchmark

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Linear(1024, 256), nn.LayerNorm(256))
model = model.to(device).eval()
x = torch.randn(64, 256, device=device)

# reduce-overhead and max-autotune add CUDA graphs: only meaningful on a GPU.
modes = ["default", "max-autotune-no-cudagraphs"]
if device == "cuda":
    modes += ["reduce-overhead", "max-autotune"]


def steady(fn):
    """Median time per call, all threads, after the compile (Timer synchronises CUDA)."""
    timer = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x}, num_threads=torch.get_num_threads())
    return timer.blocked_autorange(min_run_time=1.0).median


with torch.no_grad():
    expected = model(x)
    torch.compile(lambda t: t + 1)(x)  # pay the compiler's one-time start-up before measuring
    rows = [("eager", "", 0.0, steady(model))]
    for mode in modes:
        torch._dynamo.reset()  # forget earlier compiles: each mode starts from scratch
        compiled = torch.compile(model, mode=mode)
        with torch._inductor.utils.fresh_cache():  # empty on-disk and in-memory caches: a cold compile
            t0 = time.perf_counter()
            out = compiled(x)  # first call = compile
            if device == "cuda":
                torch.cuda.synchronize()
            first = time.perf_counter() - t0
        torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)  # same answer as eager
        options = ", ".join(k for k, v in torch._inductor.list_mode_options(mode).items() if v)
        rows.append((mode, options or "(none)", first, steady(compiled)))

print(f"device {device}, {torch.get_num_threads()} threads, batch {x.shape[0]}")
print(f"{'mode':<28} {'first call':>10} {'per call':>10}  options it turns on")
for mode, options, first, per_call in rows:
    first_s = f"{first:.1f} s" if first else "-"
    print(f"{mode:<28} {first_s:>10} {per_call * 1e6:>7.0f} µs  {options}")
assert len(rows) == len(modes) + 1
