"""What one eager op costs: fixed per-call overhead vs kernel time that grows with the data."""
import statistics
import time

import torch
from torch.profiler import ProfilerActivity, profile
from torch.utils.benchmark import Timer

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_num_threads(1)  # one thread: the op's own cost, not how busy the other cores are


def spread(median, iqr, unit="µs"):
    """Median and IQR of repeated timings (µs), flagged when IQR/median is above 10 %."""
    noisy = "  noisy — rerun on an idle machine" if iqr > 0.10 * median else ""
    return f"median {median:.2f} {unit}, IQR {iqr:.2f} {unit}{noisy}"


results = {}
for n in (16, 4_000_000):
    x, y = torch.randn(n, device=DEVICE), torch.randn(n, device=DEVICE)
    timer = Timer("x + y", globals={"x": x, "y": y}, num_threads=1)  # Timer synchronises CUDA for us
    results[n] = timer.blocked_autorange(min_run_time=0.3)
    torch.testing.assert_close(x + y, torch.add(x, y))
tiny, large = (min(results[n].times) for n in (16, 4_000_000))
blocks = {n: spread(m.median * 1e6, m.iqr * 1e6) for n, m in results.items()}
kernel = large - tiny  # the part of the large call that the tiny call does not have
moved = 3 * 4_000_000 * 4  # read x, read y, write z (float32)
print(f"z = x + y, {DEVICE}, 1 thread (fastest block of torch.utils.benchmark.Timer)")
print(f"  16 elements:        {tiny * 1e6:8.2f} µs per call -> {1 / tiny:,.0f} ops/s")
print(f"      all its blocks: {blocks[16]}")
print(f"  4,000,000 elements: {large * 1e6:8.2f} µs per call -> {1 / large:,.0f} ops/s")
print(f"      all its blocks: {blocks[4_000_000]}")
print(f"  per-call overhead ~ tiny call:  {tiny * 1e6:8.2f} µs")
print(f"  data-dependent part (large - tiny): {kernel * 1e6:8.2f} µs "
      f"= {moved / kernel / 1e9:.1f} GB/s of memory traffic")
print(f"  overhead share of the large call: {tiny / large:.1%}")

# Where the tiny call's time goes: the profiler times the ATen op (dispatcher + TensorIterator +
# allocation + kernel); the rest of the wall time is Python and argument parsing.
x, y = torch.randn(16, device=DEVICE), torch.randn(16, device=DEVICE)
calls, chunks = 2000, 10
with profile(activities=[ProfilerActivity.CPU]) as prof:
    walls = []  # µs per call in each chunk of calls, profiled like the ATen time
    for _ in range(chunks):
        t0 = time.perf_counter()
        for _ in range(calls // chunks):
            x + y
        walls.append((time.perf_counter() - t0) / (calls // chunks) * 1e6)
wall_us = statistics.mean(walls)  # over all calls, as the profiler averages aten::add
q1, median_us, q3 = statistics.quantiles(walls, n=4, method="inclusive")
add = next(e for e in prof.key_averages() if e.key == "aten::add")
aten_us = add.cpu_time_total / add.count  # microseconds per call, inside aten::add (all calls)
print(f"profiled: {wall_us:.2f} µs per call (mean of {calls}), of which {aten_us:.2f} µs inside aten::add "
      f"({aten_us / wall_us:.0%}); the rest is Python, argument parsing and the profiler itself")
print(f"  wall time per call, {chunks} chunks of {calls // chunks} calls: {spread(median_us, q3 - q1)}")
assert add.count == calls
assert large > tiny  # more data takes longer; the 16-element call is nearly all overhead
