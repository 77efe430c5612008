"""What whole runs of one machine differ by, read from its calibration: the run-to-run terms.

A run's interval sees how much its processes differ. A whole rerun differs a little more: a slower
stretch of the host, another placement of the machine's memory, whatever lasts longer than one round
of processes (Kalibera & Jones, ISMM 2013: each level that varies, here run, process and iteration,
needs its own repetitions). Only rerunning shows it, so it is measured once per machine by the
calibration (calibrate.py: K runs of the same workloads). For each workload and mode, the variance
between the runs of a figure's mean log (B) minus the variance their processes predict for it (W, the
mean over the runs of s^2 / k) is what no process of one run could see. Pooled over the workloads and
modes, each weighted by its runs - 1 and floored at zero, its square root is the machine's term.
Workloads differ in it (the reference machine's 24 runs: the tiny op's B - W about fifty times the
transformer block's), so each calibrated workload and mode gets a term of its own: its B - W and the
pool's, weighted by its runs - 1 and PRIOR_RUNS (a shrinkage toward the pool: a few runs of one
workload say little, many say much); a workload the calibration did not time gets the pool's.

A speedup's term is what is left once each process is set to the machine's usual speed by its workload
mode's host fit (hosts.py: estimate fits them first); a record without a fit is compared with the term of
the runs as measured (as_measured).

The figures with a term: the speedup (`measure` writes its term into each mode it times, ModeResult.run_sd;
the interval adds it in quadrature, stats.paired_speedups; the stop rule aims at it: reruns.py), and,
for two runs compared (two torch releases, two machines: data.compare, the releases page), the time
per call, the cold and warm compile and the peak memory (`spreads`). A compile time or a peak memory is
one measurement per run (W = 0): its term is the plain spread of the runs.

The runs of every calibration session of a harness count, the newest (`calibration/`) and those
`calibrate` kept beside it (`calibration-<date>/`), pooled as one set: a reader reruns in another hour,
so what a later session differs by belongs in the term too. A harness with no such session uses the
sessions kept under its name (`calibration-harness<N>*`), measured before the next harness. Standard
library and the records layer only: the pages and the public API read them without the measuring code.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from . import hosts, paths, records, stats, store

CALIBRATION = "calibration"
SESSION = f"{CALIBRATION}-"  # an earlier session, kept as calibration-<date of its first run>
# How many runs of its own a workload mode's B - W must have to weigh as much as the pool's: sixteen
# sessions of four. Before the host fits it was two sessions (8): the Xeon's tiny op moved between runs some
# fifty times as much as its transformer block, and its own term had to carry it. With the fits (hosts.py)
# what is left differs far less between workload modes, while each one's B from its 24 runs is itself
# uncertain by about 30 % (sqrt(2 / 23)). tools/replay_calibration.py replays the Done-when check of issue
# 41 on every committed session (each judged with the terms and fits of the others, the stop rule run again
# on its processes in order, ten draws of the processes beyond them); sessions passing of six, on average,
# Xeon with the fits / as measured, then AMD the same, 2026-12-07: at 8, 3.5 / 2.0, 4.6 / 5.0; at 24,
# 4.1 / 2.7, 4.2 / 5.0; at 64, 4.1 / 3.0, 5.0 / 4.8; the pool's alone, 4.4 / 3.0, 4.6 / 5.2.
PRIOR_RUNS = 64


class Term(NamedTuple):
    sd: float  # the run-to-run sd of a figure's log, pooled; 0.0 when nothing was found
    groups: int  # the workload/mode pairs pooled
    runs: int  # the most runs of one of them
    source: str | None  # the calibration folder it comes from; None: no calibration of the machine
    sessions: int = 1  # calibration sessions pooled
    own: tuple[tuple[str, str, float], ...] = ()  # (workload, mode, its term) of each calibrated one
    hosts: tuple[tuple[str, str, stats.Host], ...] = ()  # a speedup's: each one's host fit (hosts.py)

    def of(self, workload: str, mode: str) -> float:
        """The term of one workload and mode: its own where the calibration timed it, else the pool's."""
        return next((sd for w, m, sd in self.own if (w, m) == (workload, mode)), self.sd)

    def host(self, workload: str, mode: str) -> stats.Host | None:
        """The host fit of one workload and mode (hosts.py); None where the calibration gave it none."""
        return next((h for w, m, h in self.hosts if (w, m) == (workload, mode)), None)


NONE = Term(0.0, 0, 0, None, 0)
Stat = Callable[[records.Record, str], "tuple[float, float] | None"]  # one run's (mean log, its variance)


def load_runs(path: Path) -> dict[str, list[records.Record]]:
    """workload -> its records, in run order (run-1, run-2, ...)."""
    found: dict[str, list[records.Record]] = {}
    runs = sorted((p for p in Path(path).glob("run-*") if p.is_dir()), key=lambda p: int(p.name.split("-")[1]))
    for run_dir in runs:
        for f in sorted(run_dir.glob("*.json")):
            found.setdefault(f.stem, []).append(records.load(f))
    return found


def _mean_log(procs: list[list[float]]) -> tuple[float, float] | None:
    logs = [math.log(statistics.median(p)) for p in procs if p]
    return (statistics.fmean(logs), statistics.variance(logs) / len(logs)) if len(logs) >= 2 else None


def speedup_stat(rec: records.Record, mode: str, host: stats.Host | None = None) -> tuple[float, float] | None:
    """(mean log speedup, its variance from the processes) of one run of a compiled mode; None with fewer
    than two processes on a side. Eager timed beside the mode: the processes' log ratios, as the interval
    takes them (stats.trimmed_location; with `host`, set to the usual speed); apart: the difference of
    each side's mean log time."""
    r = rec.result(mode)
    if r is None or r.status != "ok" or mode == "eager":
        return None
    paired = r.paired_processes()
    if paired is not None and len(paired[0]) >= 2:
        centre, var, _ = stats.trimmed_location(stats.log_ratios(*paired, host))
        return centre, var + stats.host_variance(paired[0], host)
    if paired is not None:
        return None
    eager = r.eager_process_samples() or (r.baseline.process_samples() if r.baseline is not None else [])
    a, b = _mean_log(eager), _mean_log(r.process_samples())
    return None if a is None or b is None else (a[0] - b[0], a[1] + b[1])


def time_stat(rec: records.Record, mode: str) -> tuple[float, float] | None:
    """(mean log time per call over the processes, its variance from them) of one run of a mode."""
    r = rec.result(mode)
    return _mean_log(r.process_samples()) if r is not None and r.status == "ok" else None


def once_stat(field: str) -> Stat:
    """The stat of a figure measured once per run (a compile time, the peak memory): its log, W = 0."""
    def stat(rec: records.Record, mode: str) -> tuple[float, float] | None:
        r = rec.result(mode)
        v = getattr(r, field, None) if r is not None and r.status == "ok" else None
        return (math.log(v), 0.0) if v else None
    return stat


def components(by_workload: dict[str, list[records.Record]], stat: Stat = speedup_stat) -> list[tuple[str, str, int, float, float]]:
    """(workload, mode, runs, B, W) of every workload and mode with two runs or more (see the module)."""
    out = []
    for name, recs in by_workload.items():
        for mode in [r.mode for r in recs[0].results]:
            got = [s for rec in recs if (s := stat(rec, mode)) is not None]
            if len(got) >= 2:
                out.append((name, mode, len(got), statistics.variance([m for m, _ in got]),
                            statistics.fmean([v for _, v in got])))
    return out


def adjusted(fits: tuple[tuple[str, str, stats.Host], ...]) -> Stat:
    """speedup_stat with each workload mode's host fit (hosts.fit): its runs set to the usual speed."""
    found = {(w, m): h for w, m, h in fits}
    return lambda rec, mode: speedup_stat(rec, mode, found.get((rec.workload, mode)))


def estimate(by_workload: dict[str, list[records.Record]], source: str | None = None, stat: Stat = speedup_stat) -> Term:
    """The pooled run-to-run term of calibration runs (load_runs) for the figure `stat` reads; a speedup's
    what is left once each run is set to the usual speed (hosts.py), with the host fits it was set by."""
    fits = hosts.fit(by_workload) if stat is speedup_stat else ()
    parts = components(by_workload, adjusted(fits) if fits else stat)
    if not parts:
        return NONE
    excess = max(0.0, sum((k - 1) * (b - w) for _, _, k, b, w in parts) / sum(k - 1 for _, _, k, _, _ in parts))
    own = tuple((name, mode, math.sqrt(max(0.0, ((k - 1) * (b - w) + PRIOR_RUNS * excess) / (k - 1 + PRIOR_RUNS))))
                for name, mode, k, b, w in parts)
    return Term(math.sqrt(excess), len(parts), max(k for _, _, k, _, _ in parts), source, own=own, hosts=fits)


def _harness(runs: dict[str, list[records.Record]]) -> int:
    return max((rec.harness_version for recs in runs.values() for rec in recs), default=0)


def sessions(release_dir: Path, harness: int | None = None) -> list[tuple[Path, dict[str, list[records.Record]]]]:
    """(folder, its runs) of each calibration session of a machine's release, newest first (`calibration/`,
    then the sessions kept beside it, by date), those measured with `harness` only (default: the newest
    one's). A harness with no such session: the sessions kept under its name (calibration-harness<N>*)."""
    folders = [Path(release_dir) / CALIBRATION, *sorted(Path(release_dir).glob(f"{SESSION}20*"), reverse=True)]
    found = [(f, runs) for f in folders if f.is_dir() and (runs := load_runs(f))]
    want = harness if harness is not None else (_harness(found[0][1]) if found else None)
    dated = [(f, runs) for f, runs in found if _harness(runs) == want]
    if dated or harness is None:
        return dated
    kept = sorted(Path(release_dir).glob(f"{SESSION}harness{harness}*"))
    return [(f, runs) for f in kept if f.is_dir() and (runs := load_runs(f)) and _harness(runs) == harness]


def merged(found: list[tuple[Path, dict[str, list[records.Record]]]]) -> dict[str, list[records.Record]]:
    """The runs of several sessions, merged per workload."""
    out: dict[str, list[records.Record]] = {}
    for _, runs in found:
        for name, recs in runs.items():
            out.setdefault(name, []).extend(recs)
    return out


def roots() -> list[Path]:
    """Where a machine's calibration is looked for, in turn: the measurement store (a rebuilder's own
    calibration, or `--out`), the project's committed store, and the one of the checkout this package
    runs from."""
    found = [paths.measurements(), paths.root() / paths.DEFAULTS["EVC_MEASUREMENTS"],
             Path(__file__).resolve().parents[2] / paths.DEFAULTS["EVC_MEASUREMENTS"]]
    out: list[Path] = []
    for p in found:
        if p.resolve() not in [q.resolve() for q in out]:
            out.append(p)
    return out


class Spreads(NamedTuple):
    """What two runs of a machine's harness differ by, per figure (each a Term; NONE: no calibration)."""
    speedup: Term
    time: Term  # the time per call
    cold: Term  # the cold compile
    warm: Term  # the warm compile
    memory: Term  # the peak memory

    def of(self, metric: str, workload: str, mode: str) -> float:
        """The term of a figure named as data.compare names it (median_s, speedup, compile_cold_s, ...)."""
        return getattr(self, FIGURES[metric]).of(workload, mode)


FIGURES = {"median_s": "time", "speedup": "speedup", "compile_cold_s": "cold", "compile_warm_s": "warm",
           "peak_memory_bytes": "memory"}


def as_measured(rec: records.Record, mode: str) -> tuple[float, float] | None:
    """speedup_stat without host fits: the term of a speedup whose record carries none (data.run_term reads
    it only for records without their own run_sd, all measured before the fits)."""
    return speedup_stat(rec, mode)


STATS: dict[str, Stat] = {"speedup": as_measured, "time": time_stat, "cold": once_stat("compile_cold_s"),
                          "warm": once_stat("compile_warm_s"), "memory": once_stat("peak_memory_bytes")}
NO_SPREADS = Spreads(NONE, NONE, NONE, NONE, NONE)


@functools.lru_cache(maxsize=None)
def _spreads(slug: str, release: str, harness: int, where: tuple[Path, ...]) -> Spreads:
    # the same release first, in every root; then the machine's other releases, newest first
    others = sorted({r for root in where for r in store.releases(root, slug)} - {release},
                    key=store.release_key, reverse=True)
    for rel in [release, *others]:
        for root in where:
            found = sessions(store.release_dir(root, slug, rel), harness)
            if found:
                runs, source = merged(found), str(found[0][0])
                got = (estimate(runs, source, STATS[f]) for f in Spreads._fields)
                return Spreads(*(t._replace(sessions=len(found)) if t.groups else NONE for t in got))
    return NO_SPREADS


def spreads(rec: records.Record, where: tuple[Path, ...] | None = None) -> Spreads:
    """The terms of the machine, torch release and harness that measured `rec` (its own release's
    calibration first, else the machine's newest with that harness); NO_SPREADS where there is none."""
    slug = rec.machine.get("slug")
    if not slug:
        return NO_SPREADS
    return _spreads(slug, store.release(rec.versions.get("torch", "")), rec.harness_version,
                    tuple(where) if where is not None else tuple(roots()))
