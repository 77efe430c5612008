"""Summary statistics of timing samples (standard library only)."""

from __future__ import annotations

import math
import statistics

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


def summarize(samples: list[float]) -> dict:
    return {"median_s": median(samples), "iqr_s": iqr(samples), "n": len(samples),
            "noisy": is_noisy(samples)}


def breakeven_iterations(compile_s: float | None, eager_s: float, compiled_s: float) -> float | None:
    """Calls after which compiling has paid for itself; None when compiled is not faster."""
    if compile_s is None or compiled_s >= eager_s:
        return None
    return max(compile_s, 0.0) / (eager_s - compiled_s)
