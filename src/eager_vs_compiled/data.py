"""Our records as data, for a notebook or a dashboard: the public API of the site's numbers.

The names in `__all__` are public and stay (tests/test_data_api.py fails if one goes); the rest of the
package may change. The numbers are the pages' own: the pages call `speedup_interval` (intervals.py) and
`noise_floor` from here, and `change` and `compare` apply the rule of the releases page (stats.ratio_change,
with what two whole runs of a machine differ by: terms.py).

A store is a folder laid out as <machine>/torch-<release>/<workload>.json: the committed
`measurements/` (the default; $EVC_MEASUREMENTS overrides it), the site's data/ folder, or a machine's
zip unpacked. Every record is checked as it loads (its schema version, every field, the figures
recomputed from its samples): a RecordError names the file and the field. Standard library only;
pandas only for `frame`, when it is installed.
"""

from __future__ import annotations

import csv
import errno
import io
import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from . import stats, store, terms
from .intervals import (Speedup, eager_processes, first_bootstrap_speedup, median_distribution,  # noqa: F401
                        mode_result, one_process, speedup, speedup_distribution, speedup_interval)  # (the API's names)
from .records import SCHEMA_VERSION, ModeResult, Record, RecordError
from .records import load as _load_path

__all__ = [
    "SCHEMA_VERSION", "Record", "ModeResult", "RecordError",
    "machines", "releases", "workloads", "load", "load_file", "records",
    "Speedup", "speedup", "speedup_interval", "noise_floor", "Change", "compare", "change",
    "FIELDS", "rows", "frame", "to_csv",
]

Root = str | os.PathLike | None
# The columns of `rows`, and of the CSV files the site offers beside each table.
FIELDS = ["workload", "machine", "torch", "mode", "status", "median_s", "iqr_s", "n", "noisy", "speedup",
          "speedup_low", "speedup_high", "processes", "compile_cold_s", "compile_warm_s", "compile_mega_s",
          "peak_memory_bytes", "memory_kind", "max_rel_err", "date"]


def _root(root: Root) -> Path:
    return Path(root) if root is not None else store.default_root()


# --- what a store holds ----------------------------------------------------------------------------
def machines(*, root: Root = None) -> list[str]:
    """The machines (slugs) with records in the store, sorted."""
    folder = _root(root)
    return [slug for slug in store.machines(folder) if store.releases(folder, slug)]


def releases(slug: str, *, root: Root = None) -> list[str]:
    """The torch releases a machine has records of, oldest first ('2.14.1', '2.15.0')."""
    return store.releases(_root(root), slug)


def workloads(slug: str, release: str, *, root: Root = None) -> list[str]:
    """The workloads a machine has records of for one torch release, sorted."""
    return store.workload_names(_root(root), slug, release)


def load(slug: str, workload: str, release: str | None = None, *, root: Root = None) -> Record:
    """One record: a machine's measurement of a workload with a torch release (default: the newest
    release that has one). A dataclass of plain values; `dataclasses.asdict` gives its JSON."""
    folder = _root(root)
    have = [rel for rel in releases(slug, root=folder) if store.path_for(folder, slug, workload, rel).is_file()]
    chosen = release if release is not None else (have[-1] if have else None)
    if chosen is None or chosen not in have:
        where = store.path_for(folder, slug, workload, chosen or "<release>")
        said = f"torch {chosen}" if chosen else "any torch release"
        raise FileNotFoundError(errno.ENOENT, f"no record of {workload!r} on {slug!r} for {said} "
                                              f"(releases with one: {', '.join(have) or 'none'})", str(where))
    return _load_path(store.path_for(folder, slug, workload, chosen))


def load_file(path: str | os.PathLike) -> Record:
    """One record from its JSON file, e.g. a download from a benchmark page
    (data/<machine>/torch-<release>/<workload>.json)."""
    return _load_path(path)


def records(*, slug: str | None = None, release: str | None = None, root: Root = None) -> list[Record]:
    """Every record of the store, or of one machine, or of one torch release (or both), sorted by
    machine, release and workload. One unreadable file raises: nothing is skipped silently."""
    folder = _root(root)
    out = []
    for s in [slug] if slug is not None else machines(root=folder):
        for rel in [release] if release is not None else releases(s, root=folder):
            out += [load(s, w, rel, root=folder) for w in workloads(s, rel, root=folder)]
    return out


# --- two records compared: machines or releases ------------------------------------------------------
def noise_floor(recs: Iterable[Record]) -> float:
    """The margin a comparison must clear beyond its interval, as a fraction: 0 when every record
    timed each mode in several processes (the interval then already holds how much processes differ).
    For records with a mode timed in one process only (harness 2), how much a time moves between
    processes with nothing changed: the largest relative difference between the eager medians timed
    beside each mode of one such record, never below the harness's noisy threshold (IQR/median)."""
    legacy = [rec for rec in recs if one_process(rec)]
    if not legacy:
        return 0.0
    spread = 0.0
    for rec in legacy:
        medians = [r.eager_median_s for r in rec.results if r.eager_samples_s]
        if len(medians) >= 2:
            spread = max(spread, max(medians) / min(medians) - 1)
    return max(spread, stats.NOISY_IQR_FRACTION)


class Change(NamedTuple):
    workload: str
    mode: str
    metric: str  # a key of METRICS: "median_s" (seconds per call), "speedup", "compile_cold_s", ...
    old: float
    new: float
    ratio: float  # new / old
    low: float  # the 95% interval of the ratio
    high: float
    beyond_noise: bool  # the interval lies wholly outside ±floor
    verdict: str  # "faster"/"slower" (time), "bigger speedup"/"smaller speedup", ... or "within the noise"


# metric -> (its value, its distribution from the processes or None where it is one measurement per
# run, whether lower is better, the words for better and worse): the releases page's figures.
METRICS = {
    "median_s": (lambda r: r.median_s, median_distribution, True, ("faster", "slower")),
    "speedup": (lambda r: r.speedup if eager_processes(r) else None, speedup_distribution, False,
                ("bigger speedup", "smaller speedup")),
    "compile_cold_s": (lambda r: r.compile_cold_s, None, True, ("faster compile", "slower compile")),
    "compile_warm_s": (lambda r: r.compile_warm_s, None, True, ("faster compile", "slower compile")),
    "peak_memory_bytes": (lambda r: float(r.peak_memory_bytes) if r.peak_memory_bytes else None, None, True,
                          ("less memory", "more memory")),
}


def _key(rec: Record, mode: str) -> tuple:
    """The seed of a record's distributions, as the releases page draws them."""
    return rec.machine.get("slug"), store.release(rec.versions.get("torch", "")), rec.workload, mode


def run_term(rec: Record, mode: str, metric: str) -> float:
    """What a whole rerun of `rec` adds to a figure of one of its modes (terms.py: its machine's
    calibration of its harness; 0 where there is none): a speedup whose record carries its term (run_sd)
    already holds it."""
    r = rec.result(mode)
    if r is None or (metric == "speedup" and r.run_sd is not None):
        return 0.0
    return terms.spreads(rec).of(metric, rec.workload, mode)


def rerun_distribution(rec: Record, mode: str, metric: str, key: tuple) -> list[float] | None:
    """One record's distribution of a figure with one (median_s, speedup: METRICS), as a rerun on its
    machine should find it: from its processes, times what a whole rerun adds (run_term; a speedup whose
    record carries its term: that one, as data.speedup shows it); None where the figure has none."""
    dist = METRICS[metric][1]
    got = dist(mode_result(rec, mode), key) if dist is not None else None
    return stats.with_run_term(list(got), run_term(rec, mode, metric), stats.seeded_rng(*key, "rerun")) if got else None


def change(old: Record, new: Record, mode: str, metric: str, floor: float) -> Change | None:
    """One figure of one mode in two records (two runs: releases or machines): new/old with its 95 %
    interval, from each side's processes where the figure has a distribution, times what two whole runs
    differ by (run_term, in quadrature), a change only when the interval lies wholly outside ±floor. A
    figure measured once per run on machines without a calibration: beyond the harness's noisy threshold.
    None where either side lacks the figure."""
    value, dist, lower_is_better, words = METRICS[metric]
    a, b = old.result(mode), new.result(mode)
    if any(r is None or r.status != "ok" or r.median_s is None or value(r) is None for r in (a, b)):
        return None
    if dist is not None:  # each side as a rerun of it should find it, drawn on its own
        ratios = [n / o for o, n in zip(rerun_distribution(old, mode, metric, _key(old, mode) + ("old",)),
                                        rerun_distribution(new, mode, metric, _key(new, mode) + ("new",)))]
    elif sd := math.hypot(run_term(old, mode, metric), run_term(new, mode, metric)):  # once a run
        ratios = stats.with_run_term([value(b) / value(a)] * stats.BOOTSTRAP_RESAMPLES, sd,
                                     stats.seeded_rng(*_key(new, mode), metric, "run"))
    else:
        ratios = None
    here = floor if ratios is not None else max(floor, stats.NOISY_IQR_FRACTION)
    ratio, low, high, beyond = stats.ratio_change(value(a), value(b), ratios, here)
    verdict = (words[0] if (ratio < 1) == lower_is_better else words[1]) if beyond else "within the noise"
    return Change(old.workload, mode, metric, value(a), value(b), ratio, low, high, beyond, verdict)


def compare(old: Record, new: Record, *, floor: float | None = None) -> list[Change]:
    """`new` against `old` (two machines, or two releases of one machine), for each mode both
    finished: every figure of METRICS both have (`change`), each a change only when its interval lies
    wholly outside ±floor (default: `noise_floor` of the two records)."""
    same = ("sizes", "dtype", "step")
    if old.workload != new.workload or any(old.spec.get(k) != new.spec.get(k) for k in same):
        raise ValueError(f"not the same measurement: {old.workload} {[old.spec.get(k) for k in same]} "
                         f"and {new.workload} {[new.spec.get(k) for k in same]}")
    floor = noise_floor([old, new]) if floor is None else floor
    found = (change(old, new, r.mode, metric, floor) for r in old.results for metric in METRICS)
    return [c for c in found if c is not None]


# --- rows for a table, a DataFrame, a CSV -------------------------------------------------------------
def rows(recs: Record | Iterable[Record]) -> list[dict]:
    """One dict per mode of each record, with the columns of the site's CSV downloads (FIELDS). A mode
    that is not ok has no speedup and no interval: a wrong answer's speed is not a result."""
    out = []
    for rec in [recs] if isinstance(recs, Record) else recs:
        for r in rec.results:
            good = r.status == "ok"
            ci = speedup_interval(r) if good else None
            out.append({"workload": rec.workload, "machine": rec.machine.get("slug"),
                        "torch": rec.versions.get("torch"), "mode": r.mode, "status": r.status,
                        "median_s": r.median_s, "iqr_s": r.iqr_s, "n": r.n, "noisy": r.noisy,
                        "speedup": r.speedup if good else None,
                        "speedup_low": ci[0] if ci else None, "speedup_high": ci[1] if ci else None,
                        "processes": len(r.process_samples()),
                        "compile_cold_s": r.compile_cold_s, "compile_warm_s": r.compile_warm_s,
                        "compile_mega_s": r.compile_mega_s, "peak_memory_bytes": r.peak_memory_bytes,
                        "memory_kind": r.memory_kind, "max_rel_err": r.max_rel_err, "date": rec.date})
    return out


def frame(recs: Record | Iterable[Record]):
    """`rows` as a pandas DataFrame. pandas is not a dependency of this package: install it to use this."""
    try:
        import pandas
    except ImportError as err:
        raise ImportError("eager_vs_compiled.data.frame needs pandas (pip install pandas); "
                          "data.rows gives the same rows as dicts") from err
    return pandas.DataFrame(rows(recs), columns=FIELDS)


def to_csv(recs: Record | Iterable[Record]) -> str:
    """`rows` as CSV text, the format of the site's downloads (empty cells for missing values)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows(recs))
    return out.getvalue()
