"""What one eager op costs: fixed per-call overhead vs kernel time that grows with the data."""
import time

import torch
from torch.profiler import ProfilerActivity, profile
from torch.utils.benchmark import Timer

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_num_threads(1)  # one thread: the op's own cost, not how busy the other cores are


def best_s(stmt, **env):
    """Fastest of the timed blocks (Timer synchronises CUDA for us)."""
    t = Timer(stmt, globals=env, num_threads=1)
    return min(t.blocked_autorange(min_run_time=0.3).times)


results = {}
for n in (16, 4_000_000):
    x, y = torch.randn(n, device=DEVICE), torch.randn(n, device=DEVICE)
    results[n] = best_s("x + y", x=x, y=y)
    torch.testing.assert_close(x + y, torch.add(x, y))
tiny, large = results[16], results[4_000_000]
kernel = large - tiny  # the part of the large call that the tiny call does not have
moved = 3 * 4_000_000 * 4  # read x, read y, write z (float32)
print(f"z = x + y, {DEVICE}, 1 thread (fastest block of torch.utils.benchmark.Timer)")
print(f"  16 elements:        {tiny * 1e6:8.2f} µs per call -> {1 / tiny:,.0f} ops/s")
print(f"  4,000,000 elements: {large * 1e6:8.2f} µs per call -> {1 / large:,.0f} ops/s")
print(f"  per-call overhead ~ tiny call:  {tiny * 1e6:8.2f} µs")
print(f"  data-dependent part (large - tiny): {kernel * 1e6:8.2f} µs "
      f"= {moved / kernel / 1e9:.1f} GB/s of memory traffic")
print(f"  overhead share of the large call: {tiny / large:.1%}")

# Where the tiny call's time goes: the profiler times the ATen op (dispatcher + TensorIterator +
# allocation + kernel); the rest of the wall time is Python and argument parsing.
x, y = torch.randn(16, device=DEVICE), torch.randn(16, device=DEVICE)
calls = 2000
with profile(activities=[ProfilerActivity.CPU]) as prof:
    t0 = time.perf_counter()
    for _ in range(calls):
        x + y
    wall_us = (time.perf_counter() - t0) / calls * 1e6  # per call, profiled like the ATen time
add = next(e for e in prof.key_averages() if e.key == "aten::add")
aten_us = add.cpu_time_total / add.count  # microseconds per call, inside aten::add
print(f"profiled: {wall_us:.2f} µs per call, of which {aten_us:.2f} µs inside aten::add "
      f"({aten_us / wall_us:.0%}); the rest is Python, argument parsing and the profiler itself")
assert add.count == calls
assert large > tiny  # more data takes longer; the 16-element call is nearly all overhead
