"""How one measurement process times a call: calibrated blocks of calls, eager and compiled
interleaved sample by sample, a stop rule instead of a fixed count, and the check against
torch.utils.benchmark.Timer. Standard library + torch (imported lazily)."""

from __future__ import annotations

import contextlib
import gc
import math
import time

from . import stats


# Timing budget per profile: keep sampling until the median is known to ~1 % or time runs out.
MEDIAN_PRECISION = 0.01  # sampling stops once the median is known to about this fraction
TIMING = {
    # budget_s: per fn timed in one process (the rounds of processes carry most of the precision)
    "cpu": {"min_sample_s": 0.02, "n_min": 7, "n_max": 41, "budget_s": 1.0, "timeout_s": 600},
    "gpu": {"min_sample_s": 0.01, "n_min": 10, "n_max": 100, "budget_s": 2.0, "timeout_s": 600},
}


# ----------------------------------------------------------------------------- child process
def timer(fn, inputs, sync, number: int) -> float:
    sync()
    t0 = time.perf_counter()
    for _ in range(number):
        fn(*inputs)
    sync()  # without it a CUDA timing measures only the kernel launches
    return (time.perf_counter() - t0) / number


def calls_per_sample(fn, inputs, sync, min_sample_s: float) -> int:
    """Calls per sample so that one sample lasts about `min_sample_s`: the cost per call is
    estimated from a block of at least a tenth of that (one call is too short to time well)."""
    number = 1
    while True:
        per_call = timer(fn, inputs, sync, number)
        if per_call * number >= min_sample_s / 10 or number >= 10**6:
            return max(1, math.ceil(min_sample_s / max(per_call, 1e-9)))
        number *= 10


def first_call(compiled, inputs, sync):
    """The first call of a compiled fn traces and compiles it: (its output, seconds it took)."""
    t0 = time.perf_counter()
    out = compiled(*inputs)
    sync()
    return out, time.perf_counter() - t0


def interleaved_samples(fns, inputs, sync, cfg: dict, budget_s: float) -> list[list[float]]:
    """Time each fn in turn, sample after sample, until every median is known to ~1 % (or the
    budget or n_max ends it, but never before n_min): drift then hits all fns alike."""
    for fn in fns:
        timer(fn, inputs, sync, 1)  # warm-up, not kept (the calibration call below is a second)
    numbers = [calls_per_sample(fn, inputs, sync, cfg["min_sample_s"]) for fn in fns]
    series: list[list[float]] = [[] for _ in fns]
    t_end = time.perf_counter() + budget_s
    with no_gc():
        while len(series[0]) < cfg["n_min"] or (
                time.perf_counter() < t_end and len(series[0]) < cfg["n_max"]
                and max(stats.median_rel_error(s) for s in series) > MEDIAN_PRECISION):
            for fn, number, samples in zip(fns, numbers, series):
                samples.append(timer(fn, inputs, sync, number))
    return series


@contextlib.contextmanager
def no_gc(collect: bool = True):
    """As timeit (and so torch.utils.benchmark) does: no collector pauses inside a sample.

    The optional full collection first frees garbage; it can also hand freed memory back to the
    OS, so the next allocations fault pages in again: not right before every short round."""
    if collect:
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def timer_agreement(built, sync, threads: int, number: int) -> tuple[float, float]:
    """(harness median, Timer median) of the same call, in short alternating rounds so that the
    drift of a shared machine hits both: each round takes the harness's samples for ~50 ms, then
    one `torch.utils.benchmark.Timer.blocked_autorange(min_run_time=0.05)`; who goes first
    alternates. At least 5 rounds, then until ~3 s have passed or 15 rounds."""
    from torch.utils.benchmark import Timer

    reference = Timer(stmt="call(*inputs)", globals={"call": built.call, "inputs": built.inputs}, num_threads=threads)
    ours, theirs = [], []

    def harness_round():
        timer(built.call, built.inputs, sync, number)  # one sample discarded, as Timer's block-size estimate runs first
        samples, t_end = [], time.perf_counter() + 0.05
        with no_gc(collect=False):
            while not samples or time.perf_counter() < t_end:
                samples.append(timer(built.call, built.inputs, sync, number))
        ours.append(stats.median(samples))

    def timer_round():
        theirs.append(reference.blocked_autorange(min_run_time=0.05).median)

    gc.collect()
    t_end = time.perf_counter() + 3.0
    for i in range(15):
        if i >= 5 and time.perf_counter() > t_end:
            break
        for step in ((harness_round, timer_round) if i % 2 == 0 else (timer_round, harness_round)):
            step()
    return stats.median(ours), stats.median(theirs)
