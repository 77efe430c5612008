"""One record's figures with their intervals, as every page and the public API (data.py) show them: a
mode's time per call and its speedup over eager, drawn from its processes (and their samples), with the
run-to-run term the record carries. Standard library and the records layer only."""

from __future__ import annotations

from typing import NamedTuple

from . import draws, stats
from .records import ModeResult, Record


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
    processes: with the run-to-run term the record carries (ModeResult.run_sd, terms.py), and set to the
    machine's usual speed where it carries a host fit (ModeResult.host, hosts.py)."""
    mode, eager = result.process_samples(), eager_processes(result)
    if not mode or not eager:
        return None
    if len(mode) == 1 and len(eager) == 1:
        return draws.speedup_dist(tuple(eager[0]), tuple(mode[0]), key)
    run_sd = result.run_sd or 0.0  # the machine's run-to-run term, where the record carries it
    if result.paired_processes():
        return draws.paired_speedup_dist(_tuples(eager), _tuples(mode), key, run_sd, result.host_fit())
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


def mode_result(record: Record, mode: str) -> ModeResult:
    found = record.result(mode)
    if found is None:
        raise KeyError(f"{record.workload} on {record.machine.get('slug')} has no mode {mode!r}; "
                       f"its modes: {', '.join(r.mode for r in record.results)}")
    return found


def speedup(record: Record, mode: str) -> Speedup | None:
    """A compiled mode's speedup over eager with its 95% interval, the numbers of its benchmark table;
    None for eager and for a mode that did not finish or did not match eager."""
    r = mode_result(record, mode)
    ci = speedup_interval(r) if r.status == "ok" and r.speedup is not None else None
    return Speedup(r.speedup, *ci) if ci else None


def first_bootstrap_speedup(record: Record, mode: str) -> Speedup | None:
    """`speedup` with the interval harness 5 drew first for a mode timed beside eager in several
    processes (stats.boot_paired_speedups: processes, then pairs), for the methodology page's comparison
    of both intervals on the same calibration runs; `speedup` itself for any other mode."""
    got, r = speedup(record, mode), mode_result(record, mode)
    paired = r.paired_processes()
    if got is None or paired is None or len(paired[0]) < 2:
        return got
    dist = draws.boot_paired_dist(_tuples(paired[0]), _tuples(paired[1]), ("first", mode, tuple(r.samples_s)))
    return Speedup(got.point, *stats.percentile_interval(dist))
