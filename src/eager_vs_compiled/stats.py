"""Summary statistics of timing samples (standard library only)."""

from __future__ import annotations

import hashlib
import math
import random
import statistics
from typing import NamedTuple

NOISY_IQR_FRACTION = 0.10  # pyperf warns at a spread of 10 %; we flag IQR/median above it


def median(samples: list[float]) -> float:
    if not samples:
        raise ValueError("no samples")
    return statistics.median(samples)


def iqr(samples: list[float]) -> float:
    """Inter-quartile range; 0 for fewer than two samples."""
    if len(samples) < 2:
        return 0.0
    q1, _, q3 = statistics.quantiles(samples, n=4, method="inclusive")
    return q3 - q1


def is_noisy(samples: list[float]) -> bool:
    m = median(samples)
    return m > 0 and iqr(samples) / m > NOISY_IQR_FRACTION


def median_rel_error(samples: list[float]) -> float:
    """Approximate relative standard error of the median (1.2533·σ/√n / median)."""
    if len(samples) < 3:
        return math.inf
    m = median(samples)
    return 1.2533 * statistics.stdev(samples) / math.sqrt(len(samples)) / m if m > 0 else math.inf


def compile_seconds(first_call_s: float, steady_s: float) -> float:
    """Compile time as gpt-fast counts it: the first call minus a steady-state call (never negative).
    The one formula for cold, warm and Mega-Cache compile times."""
    return max(first_call_s - steady_s, 0.0)


def breakeven_iterations(compile_s: float | None, eager_s: float, compiled_s: float) -> float | None:
    """Calls after which compiling has paid for itself; None when compiled is not faster."""
    if compile_s is None or compiled_s >= eager_s:
        return None
    return max(compile_s, 0.0) / (eager_s - compiled_s)


# --- Intervals: percentile bootstrap, seeded so that a rebuild prints the same interval ------------
BOOTSTRAP_RESAMPLES = 2000
CONFIDENCE = 0.95


def seeded_rng(*key) -> random.Random:
    """A generator seeded from `key` (e.g. workload, mode, release): same data, same interval."""
    return random.Random(hashlib.sha256(repr(key).encode()).hexdigest())


def _draw(rng: random.Random, k: int) -> list[int]:
    """k indices below k, the very ones `[rng.randrange(k) for _ in range(k)]` gives (CPython draws
    k.bit_length() random bits, rejecting values >= k), in a quarter of the time."""
    bits, getrandbits, out = k.bit_length(), rng.getrandbits, []
    for _ in range(k):
        r = getrandbits(bits)
        while r >= k:
            r = getrandbits(bits)
        out.append(r)
    return out


def boot_medians(samples: list[float], rng: random.Random, n: int = BOOTSTRAP_RESAMPLES) -> list[float]:
    """Bootstrap distribution of the median of `samples`."""
    k = len(samples)
    return [statistics.median([samples[i] for i in _draw(rng, k)]) for _ in range(n)]


def boot_speedups(eager: list[float], compiled: list[float], rng: random.Random,
                  n: int = BOOTSTRAP_RESAMPLES) -> list[float]:
    """Bootstrap distribution of median(eager) / median(compiled). Series taken interleaved (sample i of
    each back to back) are resampled in pairs, so drift cancels as in the measurement; series of unequal
    length are resampled independently."""
    if len(eager) == len(compiled):
        k, out = len(eager), []
        for _ in range(n):
            idx = _draw(rng, k)
            out.append(statistics.median([eager[i] for i in idx]) / statistics.median([compiled[i] for i in idx]))
        return out
    return [e / c for e, c in zip(boot_medians(eager, rng, n), boot_medians(compiled, rng, n))]


# --- Two levels: processes, then the samples of each (Kalibera & Jones, ISMM 2013) -------------------
def process_point(processes: list[list[float]]) -> float:
    """A mode's time from several processes: the median of the processes' medians."""
    return median([median(p) for p in processes])


def boot_process_medians(processes: list[list[float]], rng: random.Random, n: int = BOOTSTRAP_RESAMPLES) -> list[float]:
    """Hierarchical bootstrap of `process_point`: draw the processes with replacement, then the samples
    of each drawn process with replacement, and take the median of their medians. On machines whose
    processes differ more than their iterations, the first level carries most of the width."""
    if not processes or not all(processes):
        raise ValueError("every process needs samples")
    k, out = len(processes), []
    for _ in range(n):
        meds = []
        for i in _draw(rng, k):
            p = processes[i]
            meds.append(statistics.median([p[j] for j in _draw(rng, len(p))]))
        out.append(statistics.median(meds))
    return out


def boot_process_speedups(eager: list[list[float]], mode: list[list[float]], rng: random.Random,
                          n: int = BOOTSTRAP_RESAMPLES, run_sd: float = 0.0) -> list[float]:
    """Bootstrap distribution of process_point(eager) / process_point(mode), each side's processes drawn
    on their own (they ran apart), times a log-normal factor of sd `run_sd` (see paired_speedups)."""
    out = [e / c for e, c in zip(boot_process_medians(eager, rng, n), boot_process_medians(mode, rng, n))]
    return with_run_term(out, run_sd, rng)


def with_run_term(draws: list[float], sd: float, rng: random.Random) -> list[float]:
    """Each of `draws` times a log-normal factor of sd `sd`, a run-to-run term (terms.py): the factors
    in quantile order, the draws in random order, so they pair at random; shuffled again by `rng`.
    `draws` as they are where sd is 0."""
    if sd <= 0:
        return draws
    z = statistics.NormalDist()
    out = [o * math.exp(sd * z.inv_cdf((i + 0.5) / len(draws))) for i, o in enumerate(draws)]
    rng.shuffle(out)
    return out


def paired_point(eager: list[list[float]], mode: list[list[float]], host: Host | None = None) -> float:
    """The speedup of a mode timed beside eager in each of its processes: the median over the processes
    of each one's eager median / mode median (with `host`: log_ratios). A slow window that slows both in
    one process cancels in its ratio, where a median of all medians on each side would mix processes."""
    if len(eager) != len(mode) or not eager:
        raise ValueError(f"paired processes needed: {len(eager)} eager series, {len(mode)} of the mode")
    if host:
        return median([math.exp(x) for x in log_ratios(eager, mode, host)])
    return median([median(e) / median(c) for e, c in zip(eager, mode)])


def _check_paired(eager: list[list[float]], mode: list[list[float]]) -> None:
    if len(eager) != len(mode) or not eager or any(len(e) != len(c) or not e for e, c in zip(eager, mode)):
        raise ValueError("paired processes need equal, non-empty series of eager and the mode")


def t_quantile(u: float, df: int) -> float:
    """Student's t quantile at probability u: exact for 1 and 2 degrees of freedom, above it the
    Cornish-Fisher series (four terms; at u = 0.975 within 0.1 % of the printed tables)."""
    if not 0 < u < 1 or df < 1:
        raise ValueError(f"t quantile needs 0 < u < 1 and df >= 1, not u={u}, df={df}")
    if df == 1:
        return math.tan(math.pi * (u - 0.5))
    if df == 2:
        return (2 * u - 1) / math.sqrt(2 * u * (1 - u))
    z, v = statistics.NormalDist().inv_cdf(u), df
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3)
            + (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / (92160 * v ** 4))


def ratio_interval(a: list[float], b: list[float], level: float = CONFIDENCE) -> tuple[float, float, float]:
    """(ratio, low, high) of a over b, two sets of per-process times measured in different processes:
    the ratio of their geometric means, with Welch's t interval over the logs (each side its own
    variance; Welch-Satterthwaite degrees of freedom). Needs two processes on each side."""
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"a ratio interval needs two processes on each side, not {len(a)} and {len(b)}")
    la, lb = [math.log(x) for x in a], [math.log(x) for x in b]
    centre = statistics.fmean(la) - statistics.fmean(lb)
    va, vb = statistics.variance(la) / len(la), statistics.variance(lb) / len(lb)
    if va + vb == 0:
        return (math.exp(centre),) * 3
    df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1))
    half = t_quantile((1 + level) / 2, max(1, round(df))) * math.sqrt(va + vb)
    return math.exp(centre), math.exp(centre - half), math.exp(centre + half)


# The share of a mode's processes left out at each end of their log ratios before their mean is taken.
TRIM = 0.10


class Host(NamedTuple):
    """How a workload mode's paired log speedup moves with its process's log eager time (hosts.py)."""
    slope: float  # d log(speedup) / d log(eager time per call), over the calibration's processes
    se: float  # its standard error
    ref_s: float  # the calibration's median eager time per call: the machine's usual speed


def log_ratios(eager: list[list[float]], mode: list[list[float]], host: Host | None = None) -> list[float]:
    """Each process's log(eager median / mode median), for a mode timed beside eager in its processes;
    with `host`, set to the machine's usual speed: minus slope * log(its eager median / ref_s)."""
    _check_paired(eager, mode)
    return [math.log(median(e) / median(c)) - (host.slope * math.log(median(e) / host.ref_s) if host else 0.0)
            for e, c in zip(eager, mode)]


def host_variance(eager: list[list[float]], host: Host | None) -> float:
    """What the slope's error adds to the squared error of the adjusted mean log ratio (0 without host)."""
    return (host.se * statistics.fmean(math.log(median(e) / host.ref_s) for e in eager)) ** 2 if host else 0.0


def trimmed_location(logs: list[float], trim: float = TRIM) -> tuple[float, float, int]:
    """(centre, squared standard error, degrees of freedom) of k log ratios: Yuen's trimmed mean, the
    mean with the floor(trim * k) lowest and highest left out, its error from the Winsorized variance,
    (k - 1) s_w^2 / (h (h - 1)) for the h kept, with t at h - 1 (Tukey & McLaughlin 1963; Yuen 1974).
    Below 1 / trim processes nothing is left out: the plain mean and s^2 / k. Above, one process far off
    the others (a slow window, an unlucky layout) moves the interval about as little as it moves the
    median the pages show, where in s^2 its distance counts squared: the calibration's MLP ran 14
    processes at 0.95-1.01x and one at 1.12x."""
    k = len(logs)
    g, xs = int(trim * k), sorted(logs)
    h = k - 2 * g
    wins = [xs[g]] * g + xs[g:k - g] + [xs[k - g - 1]] * g
    return statistics.fmean(xs[g:k - g]), statistics.variance(wins) * (k - 1) / (h * (h - 1)), h - 1


def paired_speedups(eager: list[list[float]], mode: list[list[float]], rng: random.Random,
                    n: int = BOOTSTRAP_RESAMPLES, run_sd: float = 0.0, host: Host | None = None) -> list[float]:
    """The distribution of a paired speedup from its processes: each process's log ratio (log_ratios, its
    own sampling noise inside it) one observation; their trimmed mean has Student's t law (trimmed_location),
    returned as n evenly spaced quantiles, exp'd, shuffled by `rng`. A bootstrap of three to ten processes
    hardly reaches beyond their extremes (the methodology page's calibration measured both). `run_sd`, the
    machine's run-to-run term (terms.py), adds to the scale in quadrature, as the slope's error (host)."""
    logs = log_ratios(eager, mode, host)
    if len(logs) == 1:
        return [math.exp(logs[0])] * n
    centre, var, df = trimmed_location(logs)
    scale = math.sqrt(var + host_variance(eager, host) + run_sd ** 2)
    out = [math.exp(centre + scale * t_quantile((i + 0.5) / n, df)) for i in range(n)]
    rng.shuffle(out)
    return out


def boot_paired_speedups(eager: list[list[float]], mode: list[list[float]], rng: random.Random,
                         n: int = BOOTSTRAP_RESAMPLES) -> list[float]:
    """The interval harness 5 drew first (the methodology page compares both): a two-level bootstrap of
    `paired_point`, the processes with replacement, then each drawn process's pairs with replacement."""
    _check_paired(eager, mode)
    k, out = len(eager), []
    for _ in range(n):
        ratios = []
        for i in _draw(rng, k):
            e, c = eager[i], mode[i]
            idx = _draw(rng, len(e))
            ratios.append(statistics.median([e[j] for j in idx]) / statistics.median([c[j] for j in idx]))
        out.append(statistics.median(ratios))
    return out


def speedup_point(eager: list[list[float]], mode: list[list[float]], paired: bool, host: Host | None = None) -> float:
    """paired_point (with `host`), or each side's process_point divided (timed apart)."""
    return paired_point(eager, mode, host) if paired else process_point(eager) / process_point(mode)


def speedup_draws(eager: list[list[float]], mode: list[list[float]], paired: bool, rng: random.Random,
                  n: int = BOOTSTRAP_RESAMPLES, run_sd: float = 0.0, host: Host | None = None) -> list[float]:
    """The speedup's distribution from processes: paired (eager timed beside the mode in each process:
    Student's t over the processes' log ratios, with `host`) or apart (each side's processes bootstrapped
    on their own), with the run-to-run term `run_sd`."""
    return (paired_speedups(eager, mode, rng, n, run_sd, host) if paired
            else boot_process_speedups(eager, mode, rng, n, run_sd))


def relative_half_width(point: float, low: float, high: float) -> float:
    """Half an interval's width as a fraction of its point: the one measure of how narrow an interval
    is (the harness's stop rule, the calibration's table)."""
    return (high - low) / 2 / point


def percentile_interval(dist: list[float], level: float = CONFIDENCE) -> tuple[float, float]:
    """The central `level` share of a bootstrap distribution."""
    ordered = sorted(dist)
    lo = ordered[int((1 - level) / 2 * (len(ordered) - 1))]
    hi = ordered[int((1 + level) / 2 * (len(ordered) - 1))]
    return lo, hi


def interval_holding(point: float, dist: list[float], level: float = CONFIDENCE) -> tuple[float, float]:
    """percentile_interval, widened where needed to hold the point (a paired speedup's point is the median
    of its processes' ratios, its interval centred on their mean: they can part when processes are few)."""
    lo, hi = percentile_interval(dist, level)
    return min(lo, point), max(hi, point)


def ratio_change(old: float, new: float, dist: list[float] | None, floor: float) -> tuple[float, float, float, bool]:
    """(new/old, its 95% interval, whether it is a change beyond the noise): the releases page's rule.
    `dist` is the bootstrap distribution of new/old, when the samples give one (else the interval is
    the ratio alone); the change counts only when the interval lies wholly outside ±floor, the band
    from 1/(1 + floor) to 1 + floor."""
    ratio = new / old
    lo, hi = percentile_interval(dist) if dist else (ratio, ratio)
    return ratio, lo, hi, not (lo <= 1 + floor and hi >= 1 / (1 + floor))
