"""Our records as data, for a notebook or a dashboard: the public API of the site's numbers.

The names in `__all__` are public and stay (tests/test_data_api.py fails if one goes); the rest of the
package may change. The numbers are the pages' own: the pages call `speedup_interval` and
`noise_floor` from here, and `compare` applies the rule of the releases page (`stats.ratio_change`).

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
import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from . import draws, stats, store
from .records import SCHEMA_VERSION, ModeResult, Record, RecordError
from .records import load as _load_path

__all__ = [
    "SCHEMA_VERSION", "Record", "ModeResult", "RecordError",
    "machines", "releases", "workloads", "load", "load_file", "records",
    "Speedup", "speedup", "speedup_interval", "noise_floor", "Change", "compare",
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


# --- speedups and their intervals, as every page shows them -----------------------------------------
class Speedup(NamedTuple):
    point: float  # eager's time per call / this mode's (each the median of its processes' medians)
    low: float  # the 95% interval (stats.speedup_draws: t over paired processes, else a bootstrap)
    high: float


def _tuples(processes: list[list[float]]) -> tuple:
    return tuple(tuple(p) for p in processes)


def eager_processes(result: ModeResult) -> list[list[float]]:
    """The eager samples a mode's speedup divides, per process: eager timed beside it (interleaved,
    harness 2), else the record's eager, timed in processes of its own."""
    r = result
    return r.eager_process_samples() or (r.baseline.process_samples() if r.baseline is not None else [])


def median_distribution(result: ModeResult, key: tuple) -> tuple[float, ...]:
    """Bootstrap distribution of a mode's time per call: processes, then the samples of each (a
    single process: its samples only, all a record of harness 2 holds)."""
    procs = result.process_samples()
    if len(procs) > 1:
        return draws.process_median_dist(_tuples(procs), key)
    return draws.median_dist(tuple(result.samples_s), key)


def speedup_distribution(result: ModeResult, key: tuple) -> tuple[float, ...] | None:
    """Distribution of a mode's speedup over eager, None without samples on both sides. Modes timed
    apart: a bootstrap, each side's processes drawn on their own, then each drawn process's samples.
    Eager timed beside the mode (interleaved) in several processes: Student's t over the processes' log
    ratios (stats.paired_speedups); in one process (harness 2): a bootstrap of its pairs. Several
    processes: with the run-to-run term the record carries (ModeResult.run_sd, reruns.py)."""
    mode, eager = result.process_samples(), eager_processes(result)
    if not mode or not eager:
        return None
    if len(mode) == 1 and len(eager) == 1:
        return draws.speedup_dist(tuple(eager[0]), tuple(mode[0]), key)
    run_sd = result.run_sd or 0.0  # the machine's run-to-run term, where the record carries it
    if result.paired_processes():
        return draws.paired_speedup_dist(_tuples(eager), _tuples(mode), key, run_sd)
    return draws.process_speedup_dist(_tuples(eager), _tuples(mode), key, run_sd)


def speedup_interval(result: ModeResult) -> tuple[float, float] | None:
    """The 95% interval of a compiled mode's speedup (speedup_distribution, seeded by the samples
    themselves: every page and every rebuild gets the same), widened to hold the point where the
    median of the processes' ratios lies outside the interval of their mean. The pages' one
    implementation (pages/provenance.py imports it)."""
    r = result
    if r.mode == "eager" or not r.samples_s:
        return None
    key = (r.mode, tuple(r.samples_s), tuple(s for p in eager_processes(r) for s in p))
    dist = speedup_distribution(r, key)
    if not dist:
        return None
    return stats.interval_holding(r.speedup, dist) if r.speedup is not None else stats.percentile_interval(dist)


def one_process(rec: Record) -> bool:
    """Whether a mode of the record was timed in one process only (harness 2, or a mode whose later
    processes failed): its interval cannot see how much processes differ."""
    return rec.processes_per_mode < 2


def _result(record: Record, mode: str) -> ModeResult:
    found = record.result(mode)
    if found is None:
        raise KeyError(f"{record.workload} on {record.machine.get('slug')} has no mode {mode!r}; "
                       f"its modes: {', '.join(r.mode for r in record.results)}")
    return found


def speedup(record: Record, mode: str) -> Speedup | None:
    """A compiled mode's speedup over eager with its 95% interval, the numbers of its benchmark table;
    None for eager and for a mode that did not finish or did not match eager."""
    r = _result(record, mode)
    ci = speedup_interval(r) if r.status == "ok" and r.speedup is not None else None
    return Speedup(r.speedup, *ci) if ci else None


def first_bootstrap_speedup(record: Record, mode: str) -> Speedup | None:
    """`speedup` with the interval harness 5 drew first for a mode timed beside eager in several
    processes (stats.boot_paired_speedups: processes, then pairs), for the methodology page's comparison
    of both intervals on the same calibration runs; `speedup` itself for any other mode."""
    got, r = speedup(record, mode), _result(record, mode)
    paired = r.paired_processes()
    if got is None or paired is None or len(paired[0]) < 2:
        return got
    dist = draws.boot_paired_dist(_tuples(paired[0]), _tuples(paired[1]), ("first", mode, tuple(r.samples_s)))
    return Speedup(got.point, *stats.percentile_interval(dist))


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
    metric: str  # "median_s" (seconds per call, lower is better) or "speedup" (higher is better)
    old: float
    new: float
    ratio: float  # new / old
    low: float  # the 95% interval of the ratio
    high: float
    beyond_noise: bool  # the interval lies wholly outside ±floor
    verdict: str  # "faster"/"slower" (time), "bigger speedup"/"smaller speedup", or "within the noise"


# metric -> (its value, its bootstrap distribution, whether lower is better, the words for better and
# worse): the releases page's "Eager time per call" (here for every mode) and "Speedup over eager".
_METRICS = {
    "median_s": (lambda r: r.median_s, median_distribution, True, ("faster", "slower")),
    "speedup": (lambda r: r.speedup if eager_processes(r) else None, speedup_distribution, False,
                ("bigger speedup", "smaller speedup")),
}


def _key(rec: Record, mode: str) -> tuple:
    """The seed of a record's distributions, as the releases page draws them."""
    return rec.machine.get("slug"), store.release(rec.versions.get("torch", "")), rec.workload, mode


def _change(old: Record, new: Record, mode: str, metric: str, floor: float) -> Change | None:
    value, dist, lower_is_better, words = _METRICS[metric]
    a, b = old.result(mode), new.result(mode)
    if any(r is None or r.status != "ok" or r.median_s is None or value(r) is None for r in (a, b)):
        return None
    ratios = [n / o for o, n in zip(dist(a, _key(old, mode)), dist(b, _key(new, mode)))]
    ratio, low, high, beyond = stats.ratio_change(value(a), value(b), ratios, floor)
    verdict = (words[0] if (ratio < 1) == lower_is_better else words[1]) if beyond else "within the noise"
    return Change(old.workload, mode, metric, value(a), value(b), ratio, low, high, beyond, verdict)


def compare(old: Record, new: Record, *, floor: float | None = None) -> list[Change]:
    """`new` against `old` (two machines, or two releases of one machine), for each mode both
    finished: the time per call and the speedup, each a change only when its interval lies wholly
    outside ±floor (default: `noise_floor` of the two records)."""
    same = ("sizes", "dtype", "step")
    if old.workload != new.workload or any(old.spec.get(k) != new.spec.get(k) for k in same):
        raise ValueError(f"not the same measurement: {old.workload} {[old.spec.get(k) for k in same]} "
                         f"and {new.workload} {[new.spec.get(k) for k in same]}")
    floor = noise_floor([old, new]) if floor is None else floor
    found = (_change(old, new, r.mode, metric, floor) for r in old.results for metric in _METRICS)
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
