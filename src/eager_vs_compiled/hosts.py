"""How a workload's speedup moves with the host's speed, from the machine's calibration, and the speedup
set to the machine's usual speed: a regression adjustment of each process's log ratio.

A process timed in a slow stretch of the host is slow on both sides of its ratio, but the two sides need
not slow alike: on the reference machine (Intel Xeon, 2 cores; its calibration, 2026-12-06/07), the tiny
op's compiled call slows about one and a half times as much as eager's, so its speedup falls when the host
is slow, and a run that meets a slow stretch reports a lower speedup than one that does not. The run's
interval, drawn from the spread of its processes' ratios, does not see the shift they share; it is
run-to-run variance, which the run-to-run term would have to carry (terms.py). But each process shows how
fast its host ran: its eager time per call. Over the calibration's processes, the least-squares slope of
the log ratio on the log eager time measures the effect; each process's log ratio is then set to what it
would have been at the calibration's median eager time (the machine's usual speed): minus slope x
log(its eager median / that median). The points of a rerun in a slower stretch move back toward those of
the others, and the term left to the runs shrinks with them (terms.estimate fits the slopes first and
measures what is left). The slope's own error adds to each interval (stats.host_variance).

The standard variance reduction with a covariate (regression adjustment, ANCOVA): the mode is the same in
every process of a run, so what moves eager's time from one process to the next is the host. Only what
the calibration timed, with enough processes, gets a slope; every other workload and every machine
without a calibration keeps its processes' ratios as they are. `measure` writes the slope into the mode it
times (ModeResult.host); a record without it (any record measured before) is read as it was measured.
Standard library and the records layer only.
"""

from __future__ import annotations

import math
import statistics

from . import records, stats

MIN_PROCESSES = 20  # a slope fitted on fewer processes than this is not used


def _paired(rec: records.Record, mode: str) -> tuple[list[list[float]], list[list[float]]] | None:
    r = rec.result(mode)
    if r is None or r.status != "ok" or mode == "eager":
        return None
    paired = r.paired_processes()
    return paired if paired is not None and len(paired[0]) >= 2 else None


def ols(xs: list[float], ys: list[float]) -> tuple[float, float] | None:
    """(slope, its standard error) of the least-squares line of ys on xs; None where xs do not vary."""
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx <= 0 or len(xs) < 3:
        return None
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    rss = sum((y - my - slope * (x - mx)) ** 2 for x, y in zip(xs, ys))
    return slope, math.sqrt(rss / (len(xs) - 2) / sxx)


def fit(by_workload: dict[str, list[records.Record]]) -> tuple[tuple[str, str, stats.Host], ...]:
    """(workload, mode, its Host) of each compiled mode of calibration runs (terms.load_runs) timed beside
    eager in MIN_PROCESSES processes or more: every process of every run pooled, x its log eager median,
    y its log ratio; ref_s, the median eager median."""
    out = []
    for name, recs in by_workload.items():
        for mode in [r.mode for r in recs[0].results if r.mode != "eager"]:
            eager_meds, ratios = [], []
            for rec in recs:
                if (paired := _paired(rec, mode)) is not None:
                    eager_meds += [statistics.median(e) for e in paired[0]]
                    ratios += stats.log_ratios(*paired)
            got = ols([math.log(e) for e in eager_meds], ratios) if len(ratios) >= MIN_PROCESSES else None
            if got is not None:
                out.append((name, mode, stats.Host(got[0], got[1], statistics.median(eager_meds))))
    return tuple(out)


def as_field(host: stats.Host | None) -> dict | None:
    """A Host as a record stores it (ModeResult.host)."""
    return None if host is None else {"slope": host.slope, "se": host.se, "ref_s": host.ref_s}
