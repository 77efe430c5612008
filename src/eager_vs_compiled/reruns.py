"""What a rerun adds: a machine's run-to-run term, read from its calibration.

A run's interval sees how much its processes differ. A whole rerun differs a little more: a slower
stretch of the host, another placement of the machine's memory, whatever lasts longer than one round
of processes (Kalibera & Jones, ISMM 2013: each level that varies, here run, process and iteration,
needs its own repetitions). Only rerunning shows it, so it is measured once per machine by the
calibration (calibrate.py: K runs of the same workloads). For each workload and mode, the variance
between the runs of their mean log speedup (B) minus the variance their processes predict for it (W,
the mean over the runs of s^2 / k) is what no process of one run could see. Pooled over the workloads
and modes, each weighted by its runs - 1, and floored at zero, its square root is the machine's term.
Workloads differ in it (the reference machine's 24 runs: the tiny op's B - W about fifty times the
transformer block's), so each calibrated workload and mode gets a term of its own: its B - W and the
pool's, weighted by its runs - 1 and PRIOR_RUNS (a shrinkage toward the pool: a few runs of one
workload say little, many say much); a workload the calibration did not time gets the pool's. The runs
of every calibration session of the machine's harness count, the newest (`calibration/`) and those
`calibrate` kept beside it (`calibration-<date>/`), pooled as one set: a reader reruns in another
hour, so what a later session differs by belongs in the term too. `measure`
writes the term of each workload and mode into the mode it times (ModeResult.run_sd); the interval adds it in
quadrature (stats.paired_speedups) and the stop rule aims at the interval with it. Standard library,
the records layer and the machine's facts only.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import statistics
from pathlib import Path
from typing import NamedTuple

from . import data, experiments, machine, paths, records, stats, store


class Term(NamedTuple):
    sd: float  # the run-to-run sd of a log speedup, pooled; 0.0 when nothing was found
    groups: int  # the workload/mode pairs pooled
    runs: int  # the most runs of one of them
    source: str | None  # the calibration folder it comes from; None: no calibration of the machine
    sessions: int = 1  # calibration sessions pooled
    own: tuple[tuple[str, str, float], ...] = ()  # (workload, mode, its term) of each calibrated one

    def of(self, workload: str, mode: str) -> float:
        """The term of one workload and mode: its own where the calibration timed it, else the pool's."""
        return next((sd for w, m, sd in self.own if (w, m) == (workload, mode)), self.sd)


NONE = Term(0.0, 0, 0, None, 0)
# How many runs of its own a workload mode's B - W must have to weigh as much as the pool's: two
# sessions of four. Each session judged with the terms of the others (judged; the methodology page shows
# it): on the reference machine, intervals padded 21 of 120 with the own terms at 4, 22 at 8, 27 at 16,
# 45 with the pool's; runs inside another's interval 337-338 of 360 with the own terms, 335 with the
# pool's. The AMD machine's six sessions (2026-12-07), whose workloads differ less: 53 of 120 padded and
# 347 of 360 inside with the own terms at 8, 54 and 347 with the pool's.
PRIOR_RUNS = 8
SESSION = f"{experiments.CALIBRATION}-"  # an earlier session, kept as calibration-<date of its first run>


def _run_stats(rec: records.Record, mode: str) -> tuple[float, float] | None:
    """(mean log speedup, its variance from the processes) of one run of a mode; None with fewer than
    two processes on a side. Eager timed beside the mode: the processes' log ratios, as the interval
    takes them (stats.trimmed_location); apart: the difference of each side's mean log time."""
    r = rec.result(mode)
    if r is None or r.status != "ok":
        return None
    paired = r.paired_processes()
    if paired is not None:
        if len(paired[0]) < 2:
            return None
        centre, var, _ = stats.trimmed_location(stats.log_ratios(*paired))
        return centre, var
    eager, mine = data.eager_processes(r), r.process_samples()
    if len(eager) < 2 or len(mine) < 2:
        return None
    le, lm = ([math.log(statistics.median(p)) for p in side] for side in (eager, mine))
    return (statistics.fmean(le) - statistics.fmean(lm),
            statistics.variance(le) / len(le) + statistics.variance(lm) / len(lm))


def components(by_workload: dict[str, list[records.Record]]) -> list[tuple[str, str, int, float, float]]:
    """(workload, mode, runs, B, W) of every workload and mode with two runs or more (see the module)."""
    out = []
    for name, recs in by_workload.items():
        for mode in [r.mode for r in recs[0].results if r.mode != "eager"]:
            got = [s for rec in recs if (s := _run_stats(rec, mode)) is not None]
            if len(got) >= 2:
                out.append((name, mode, len(got), statistics.variance([m for m, _ in got]),
                            statistics.fmean([v for _, v in got])))
    return out


def estimate(by_workload: dict[str, list[records.Record]], source: str | None = None) -> Term:
    """The pooled run-to-run term of calibration runs (experiments.load_runs)."""
    parts = components(by_workload)
    if not parts:
        return NONE
    excess = max(0.0, sum((k - 1) * (b - w) for _, _, k, b, w in parts) / sum(k - 1 for _, _, k, _, _ in parts))
    own = tuple((name, mode, math.sqrt(max(0.0, ((k - 1) * (b - w) + PRIOR_RUNS * excess) / (k - 1 + PRIOR_RUNS))))
                for name, mode, k, b, w in parts)
    return Term(math.sqrt(excess), len(parts), max(k for _, _, k, _, _ in parts), source, own=own)


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


def _harness(runs: dict[str, list[records.Record]]) -> int:
    return max((rec.harness_version for recs in runs.values() for rec in recs), default=0)


def sessions(release_dir: Path) -> list[tuple[Path, dict[str, list[records.Record]]]]:
    """(folder, its runs) of each calibration session of a machine's release, newest first (`calibration/`,
    then the sessions kept beside it, by date), those measured with the newest one's harness only."""
    folders = [Path(release_dir) / experiments.CALIBRATION,
               *sorted(Path(release_dir).glob(f"{SESSION}20*"), reverse=True)]
    found = [(f, runs) for f in folders if f.is_dir() and (runs := experiments.load_runs(f))]
    return [(f, runs) for f, runs in found if _harness(runs) == _harness(found[0][1])]


def pooled(release_dir: Path) -> tuple[Term, dict[str, list[records.Record]]]:
    """The term of every session of a machine's release (sessions), and their runs merged per workload."""
    found, merged = sessions(release_dir), {}
    for _, runs in found:
        for name, recs in runs.items():
            merged.setdefault(name, []).extend(recs)
    term = estimate(merged, str(found[0][0]) if found else None)
    return (term._replace(sessions=len(found)) if term.groups else NONE), merged


def _with_term(rec: records.Record, term: Term, own: bool) -> records.Record:
    """A copy of a record whose compiled modes carry `term`: each one's own, or the machine's (own=False)."""
    return dataclasses.replace(rec, results=[dataclasses.replace(r, run_sd=None if r.mode == "eager" else (
        term.of(rec.workload, r.mode) if own else term.sd)) for r in rec.results]).finish()


def judged(release_dir: Path, own: bool = True) -> list[tuple[Path, list[experiments.Row]]]:
    """Each calibration session of a machine's release (sessions), its runs' intervals drawn again with the
    term of the other sessions alone (out of sample: not fitted to the runs they are judged on), each
    workload mode's own or the machine's pooled one; the rows of the rerun table. Only the intervals
    change: the processes are those the stop rule gave under the term of their day."""
    found, out = sessions(release_dir), []
    for i, (folder, runs) in enumerate(found):
        others: dict[str, list[records.Record]] = {}
        for _, theirs in found[:i] + found[i + 1:]:
            for name, recs in theirs.items():
                others.setdefault(name, []).extend(recs)
        if (term := estimate(others)).groups:
            redrawn = {name: [_with_term(r, term, own) for r in recs] for name, recs in runs.items()}
            out.append((folder, experiments.rows(redrawn)))
    return out


def keep_session(folder: Path) -> Path | None:
    """Before a new session: move the calibration in `folder` aside, named by the date of its first run,
    so that its runs still count (and show). None when there is nothing to keep."""
    dates = sorted(rec.date for recs in experiments.load_runs(folder).values() for rec in recs)
    if not dates:
        return None
    stamp = dates[0][:16].replace(":", "").replace("T", "-")  # 2026-12-06T22:20 -> 2026-12-06-2220
    dest, i = folder.with_name(SESSION + stamp), 1
    while dest.exists():
        dest, i = folder.with_name(f"{SESSION}{stamp}-{i}"), i + 1
    folder.rename(dest)
    return dest


@functools.lru_cache(maxsize=None)
def _for_machine(slug: str, release: str, where: tuple[Path, ...]) -> Term:
    # the same release first, in every root; then the machine's other releases, newest first
    others = sorted({r for root in where for r in store.releases(root, slug)} - {release},
                    key=store.release_key, reverse=True)
    for rel in [release, *others]:
        for root in where:
            term, _ = pooled(store.release_dir(root, slug, rel))
            if term.groups:
                return term
    return NONE


def for_machine(slug: str, release: str) -> Term:
    """The term of a machine (slug) and torch release, from the first calibration found (roots); NONE
    where the machine has none. A calibration record that cannot be read raises RecordError."""
    return _for_machine(slug, release, tuple(roots()))


def here() -> Term:
    """The term of the machine this runs on, for its installed torch release."""
    return for_machine(machine.describe()["slug"], store.release(machine.versions()["torch"]))


def describe(term: Term, workload: str | None = None, modes: tuple[str, ...] | list[str] = ()) -> str:
    """What a run's intervals hold, for the progress lines: the term of each of the workload's `modes`."""
    if term.source is None:
        return ("no calibration of this machine found: intervals see this run's processes only "
                "(`python -m eager_vs_compiled calibrate` measures the run-to-run term)")
    own, pooled = {m for w, m, _ in term.own if w == workload}, "the machine's"
    each = ", ".join(f"{m} ±{term.of(workload, m):.2%} ({'its own' if m in own else pooled})"
                     for m in modes if m != "eager")
    return (f"intervals add the run-to-run term {each or f'±{term.sd:.2%}'} (from {term.source} and the sessions "
            f"kept beside it: {term.sessions} session(s), {term.groups} workload modes)")
