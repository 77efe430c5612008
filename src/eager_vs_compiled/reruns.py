"""What a rerun adds to a speedup: the machine's term (terms.py) found for this run, written into the
modes `measure` times, and judged on the calibration sessions it was not fitted to.

The term itself, and how the calibration measures it, is terms.py's. `measure` writes the term of each
workload and mode into the mode it times (ModeResult.run_sd); the interval adds it in quadrature
(stats.paired_speedups) and the stop rule aims at the interval with it. Each calibration session's runs
drawn again with the terms of the other sessions (`judged`) show how well the terms hold out of sample;
`keep_session` keeps a session beside the next. The records layer and the machine's facts only.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

from . import experiments, hosts, machine, records, store
from .terms import (NONE, PRIOR_RUNS, SESSION, Term, components, estimate, merged, roots,  # noqa: F401 (callers' names)
                    sessions)


def pooled(release_dir: Path) -> tuple[Term, dict[str, list[records.Record]]]:
    """The term of every session of a machine's release (sessions), and their runs merged per workload."""
    found = sessions(release_dir)
    runs = merged(found)
    term = estimate(runs, str(found[0][0]) if found else None)
    return (term._replace(sessions=len(found)) if term.groups else NONE), runs


def _with_term(rec: records.Record, term: Term, own: bool) -> records.Record:
    """A copy of a record whose compiled modes carry `term` (each one's own, or the machine's: own=False)
    and its host fit (hosts.py), as `measure` would have written them."""
    return dataclasses.replace(rec, results=[r if r.mode == "eager" else dataclasses.replace(
        r, run_sd=term.of(rec.workload, r.mode) if own else term.sd,
        host=hosts.as_field(term.host(rec.workload, r.mode))) for r in rec.results]).finish()


def judged(release_dir: Path, own: bool = True) -> list[tuple[Path, list[experiments.Row]]]:
    """Each calibration session of a machine's release (sessions), its runs' intervals drawn again with the
    term of the other sessions alone (out of sample: not fitted to the runs they are judged on), each
    workload mode's own or the machine's pooled one; the rows of the rerun table. Only the intervals
    change: the processes are those the stop rule gave under the term of their day."""
    found, out = sessions(release_dir), []
    for i, (folder, runs) in enumerate(found):
        if (term := estimate(merged(found[:i] + found[i + 1:]))).groups:
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
    fits = ", ".join(f"{m} {h.slope:+.2f} ±{h.se:.2f}" for m in modes if (h := term.host(workload, m)) is not None)
    return (f"intervals add the run-to-run term {each or f'±{term.sd:.2%}'} (from {term.source} and the sessions "
            f"kept beside it: {term.sessions} session(s), {term.groups} workload modes)"
            + (f"; each process's speedup set to the machine's usual speed (hosts.py; slope on its eager time: "
               f"{fits})" if fits else ""))
