"""Measure a workload: each mode in a fresh subprocess, correctness before timing.

Method (see docs/benchmarks/methodology.md):
- rounds of fresh processes, every compiled mode once per round, in an order that turns: processes
  differ more than the calls inside one, so each mode is timed in several, and a slow window falls
  on all modes; at least ROUNDS_MIN rounds, more while an interval (with the machine's run-to-run
  term, reruns.py) is wide and the budget allows; several workloads' rounds interleaved (schedule.py);
- each compiled mode timed beside eager in its processes, sample after sample, and its speedup the
  median of the per-process ratios: on a shared machine a slow window slows both sides of a ratio
  and cancels (`calibrate` checks the intervals; the methodology page shows what interleaving moves);
  the modes of an inference engine timed alone instead, eager in processes that import no engine;
- a compiled mode's first process starts from an empty inductor cache: its first call minus a
  steady call is the *cold* compile time; the second, on the now populated cache, gives the *warm*
  compile time; later ones start from the same cache (an engine: from its saved artifact);
- every process compares the compiled output with eager's before it times anything;
- a mode that fails, hangs or runs out of memory becomes a result with a status, not a crash.
Standard library + torch + torchvision only."""

from __future__ import annotations

import logging
import os
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Generator, Iterator

from . import engines, freshness, hosts, machine, recipes, records, reruns, schedule, store, workloads
from .rounds import BESIDE, HARNESS_VERSION, PROTOCOLS, ROUNDS_MIN, RUN_AIM_S, _Mode, _rounds  # noqa: F401 (read here by tests and CLI)
from .timing import TIMING
from .records import ModeResult, Record

log = logging.getLogger("eager_vs_compiled")
Progress = Callable[[str], None]


# Rough seconds to measure a compiled mode (all its rounds) when no record says: what fits in a budget.
ESTIMATE_S = {"overhead": 35, "pointwise": 30, "mlp-transformer": 60, "resnet": 150, "vit": 150, "engines": 90}

def estimate_s(w: workloads.Workload, mode: str, previous: Record | None = None) -> float:
    old = previous.result(mode) if previous else None
    if old is not None and old.wall_s and previous.harness_version == HARNESS_VERSION:
        return old.wall_s
    base = ESTIMATE_S[w.family] * (2 if w.step == "training" else 1)
    return base * (3 if mode.startswith("max-autotune") else 1) * (0.5 if mode == "eager" else 1)


def _child_args(w: workloads.Workload, profile: str, device: str | None, mode: str) -> dict:
    """What a measurement child needs to rebuild the workload (a reader's model: its factory)."""
    args = {"workload": w.name, "profile": profile, "device": device, "mode": mode}
    if w.family == workloads.USER_FAMILY:
        args["model"], args["input_shape"] = w.sizes[profile]["model"], w.sizes[profile].get("input_shape")
    return args


def _finish(result: ModeResult, items: int, wall_s: float | None = None) -> ModeResult:
    result.wall_s = wall_s
    return result.finish(items)


def measure_mode(w: workloads.Workload, profile: str, mode: str, timeout: float | None = None,
                 progress: Progress | None = None, device: str | None = None) -> ModeResult:
    """One mode alone: one round (a compiled mode: its cold process; eager: one process)."""
    limit, t0 = timeout or TIMING[profile]["timeout_s"], time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="evc-mode-") as folder:
        m = _Mode(w, _child_args(w, profile, device, mode), folder, "alone")
        m.run(0, limit)
    return _finish(m.result, w.items_per_call(profile), time.perf_counter() - t0)


def default_protocol(modes) -> str:
    """How a workload's modes are timed: each compiled mode beside eager in every one of its processes
    (`interleaved`: a slow window of a shared machine slows both sides of the ratio, and it cancels),
    but alone when a mode is an inference engine, so that eager comes from processes importing none
    (and eager alone, when it is the only mode)."""
    return "alone" if any(engines.of(m) for m in modes) or set(modes) <= {"eager"} else "interleaved"


def planned_steps(w: workloads.Workload, modes) -> int:
    """Progress steps (processes) measuring `modes` takes at least: ROUNDS_MIN rounds of every mode (of
    eager too, when it has processes of its own), and one Mega-Cache process (more rounds may follow)."""
    modes = set(modes) | {"eager"}
    timed = modes - ({"eager"} if default_protocol(modes) == "interleaved" else set())
    return ROUNDS_MIN * len(timed) + sum(w.megacache and m == "default" for m in modes)


def _skip(w: workloads.Workload, mode: str, deadline: float | None, previous: Record | None,
          device: str | None = None, profile: str = "cpu") -> str | None:
    """Why `mode` is not measured now (a missing package, a recipe this machine cannot run, the
    time budget), or None."""
    if w.unavailable():
        return w.unavailable()
    why = recipes.unsupported(recipes.parse(mode), w.step, workloads.device_type(profile, device))
    if why:
        return why
    left = None if deadline is None else deadline - time.monotonic()
    if left is not None and estimate_s(w, mode, previous) > left:
        return f"time budget: {max(left, 0):.0f} s left, about {estimate_s(w, mode, previous):.0f} s needed"
    return None


def _eager_beside(state: list[_Mode], results: dict[str, ModeResult]) -> ModeResult:
    """Eager's row in the interleaved protocol: eager as timed in the processes of the first mode that
    ran, or skipped, saying why (the first mode skipped: the budget, a missing package)."""
    beside = next((m.eager_beside for m in state if m.eager_beside is not None and m.result.status == "ok"), None)
    why = next((r.message for r in results.values() if r.status == "skipped"), "")
    return beside or ModeResult("eager", "skipped", message="no compiled mode ran to time it beside"
                                + (f" ({why})" if why else ""))


def measure_workload(name: str, *args, **kwargs) -> Record:
    """A workload's record: workload_steps (same arguments) run to its end."""
    return schedule.drain(workload_steps(name, *args, **kwargs))


def workload_steps(name: str, profile: str | None = None, modes: list[str] | None = None,
                   timeout: float | None = None, progress: Progress | None = None,
                   deadline: float | None = None, device: str | None = None,
                   previous: Record | None = None, protocol: str | None = None,
                   rounds: int | None = None, aim: float | None = None) -> Generator[None, None, Record]:
    """Measure a workload's modes in rounds of fresh processes (see _rounds): with the `interleaved`
    protocol eager is timed beside each compiled mode in each of its processes; with `alone` every
    mode, eager included, in processes of its own (default: default_protocol). `rounds` fixes their
    number (default: adaptive). With a `deadline` (time.monotonic()), a mode whose estimated cost no longer
    fits is skipped; one that overruns it times out; rounds beyond the minimum end before an `aim` (the
    run's, shared by its workloads). A generator: it pauses after each round, returns the record."""
    w = workloads.get(name)
    profile = profile or workloads.default_profile()
    modes = list(modes or w.modes[profile])
    modes = modes if "eager" in modes else ["eager", *modes]
    protocol = protocol or default_protocol(modes)
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, not {protocol!r}")
    say = progress or (lambda msg: None)
    items = w.items_per_call(profile)
    results: dict[str, ModeResult] = {}
    limit = timeout or TIMING[profile]["timeout_s"]
    todo = []
    for mode in modes:
        if mode == "eager" and protocol in BESIDE and not w.unavailable():
            continue  # timed beside each compiled mode
        why = _skip(w, mode, deadline, previous, device, profile)
        if why:
            results[mode] = ModeResult(mode=mode, status="skipped", message=why)
            say(f"{name} · {mode}: skipped ({why})")
        else:
            todo.append(mode)
    say(f"{name}: {reruns.describe(term := reruns.here(), name, todo)}")
    with tempfile.TemporaryDirectory(prefix="evc-measure-") as folder:
        state = {m: _Mode(w, _child_args(w, profile, device, m), os.path.join(folder, str(i)), protocol,
                          term.of(name, m) if term.source else None, hosts.as_field(term.host(name, m)))
                 for i, m in enumerate(todo)}
        if state:
            yield from _rounds(w, state, profile, limit, say, deadline, rounds, aim)
        for m in state.values():
            if m.artifacts:
                say(f"{name} · {m.mode}: compile from Mega-Cache artifacts (new process, empty cache)")
                m.mega(limit)
    for m in state.values():  # the time its processes took
        if m.result is None:  # the deadline came before its first process
            results[m.mode] = ModeResult(m.mode, "skipped", message=f"{freshness.BUDGET_SKIP}: the deadline passed "
                                                                    "before its first process")
            continue
        results[m.mode] = _finish(m.result, items, sum(p.get("wall_s", 0.0) for p in m.result.processes) or None)
    if protocol in BESIDE and "eager" not in results:
        results["eager"] = _eager_beside(list(state.values()), results)
    record = Record(
        workload=w.name, title=w.title, profile=profile, device=workloads.device_type(profile, device),
        spec=w.spec(profile), spec_hash=w.spec_hash(profile), harness_version=HARNESS_VERSION,
        machine=machine.describe(), versions=machine.versions(),
        date=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        git_commit=machine.git_commit(),
        results=[results[m] for m in modes],
    )
    return record.finish()


_ensured: dict[tuple, Record] = {}


def budget_deadline() -> float | None:
    """EVC_BUDGET_S: seconds this process may spend measuring (counted from its first measurement)."""
    global _deadline
    raw = os.environ.get("EVC_BUDGET_S", "").strip()
    if not raw:
        return None
    if _deadline is None:
        try:
            _deadline = time.monotonic() + float(raw)
        except ValueError:
            raise schedule.SettingError(f"EVC_BUDGET_S must be a number of seconds, not {raw!r}") from None
    return _deadline


_deadline: float | None = None


def _to_complete(previous: Record, w: workloads.Workload, profile: str, modes) -> list[str] | None:
    """The unfinished modes, when they are all that keeps the previous record from being fresh
    (same machine, torch, harness and spec): only those are measured, the rest is kept."""
    wanted = list(modes or w.modes[profile])
    todo = freshness.unfinished(previous, wanted)
    done_check = freshness.staleness(previous, machine.describe(), machine.versions()["torch"], HARNESS_VERSION,
                                   w.spec_hash(profile), [m for m in wanted if m not in todo])
    if not todo or done_check is not None or "eager" in todo and len(todo) == len(wanted):
        return None
    return todo


def ensure_record(name: str, root: Path | None = None, force: bool = False, profile: str | None = None,
                  modes: list[str] | None = None, progress: Progress | None = None,
                  deadline: float | None = None, device: str | None = None,
                  measure_missing: bool = True) -> Record | None:
    """This machine's fresh record of a workload for the installed torch release: reused when
    fresh, else measured and saved (ensure_steps, run to its end)."""
    return schedule.drain(ensure_steps(name, root, force, profile, modes, progress, deadline, device, measure_missing))


def run_aim(profile: str | None = None) -> float:
    """The aim (time.monotonic()) of a run of several workloads starting now: RUN_AIM_S, or EVC_AIM_S."""
    return schedule.aim(RUN_AIM_S[profile or workloads.default_profile()])


def ensure_records(names: list[str], root: Path | None = None, force: bool = False, profile: str | None = None,
                   modes: list[str] | None = None, progress: Progress | None = None,
                   deadline: float | None = None, device: str | None = None) -> Iterator[tuple]:
    """ensure_record for several workloads, as (name, record or None, RecordError or None) when each is
    done. Without a deadline their rounds are interleaved (round r of every workload before round r + 1,
    schedule.interleave), so each workload's processes span the whole run and a slow window of the
    machine falls on a few processes of each, not on every process of one, and the rounds beyond the minimum
    share the run's aim (RUN_AIM_S, or EVC_AIM_S: schedule.aim); with a deadline one after another, so
    that what the budget leaves out is whole workloads, measured by the next run."""
    together = deadline is None and budget_deadline() is None
    aim = run_aim(profile) if together else None
    steps = {n: ensure_steps(n, root, force, profile, modes, progress, deadline, device, aim=aim) for n in names}
    return schedule.interleave(steps, records.RecordError, together=together)


def ensure_steps(name: str, root: Path | None = None, force: bool = False, profile: str | None = None,
                 modes: list[str] | None = None, progress: Progress | None = None,
                 deadline: float | None = None, device: str | None = None,
                 measure_missing: bool = True, aim: float | None = None) -> Generator[None, None, Record | None]:
    """ensure_record as a generator that pauses after each round it measures. Records of other torch
    releases are never read or touched.

    `modes` measures a subset; the record then lacks the other modes and counts as stale for a
    full run (so the site build completes it). A mode skipped for the time budget stays unfinished:
    the next run measures it and keeps the modes already done, so a long suite fills in over
    several budgeted runs. A mode skipped for a missing package is not retried until the record
    is stale for another reason or forced.
    """
    w = workloads.get(name)
    root = Path(root or store.default_root())
    me, profile = machine.describe(), profile or workloads.default_profile()
    key = (str(root.resolve()), name, profile, tuple(modes or ()))
    if key in _ensured:  # several pages show one workload: measure it once per build
        return _ensured[key]
    # Only this torch release's folder is ever read for freshness or written: other releases are history.
    path = store.path_for(root, me["slug"], name, store.release(machine.versions()["torch"]))
    force = (force or store.remeasure_requested()) and measure_missing  # on demand: never by a build
    previous = None
    if path.exists() and not force:
        record = previous = records.load(path)
        why = freshness.staleness(record, me, machine.versions()["torch"], HARNESS_VERSION,
                                w.spec_hash(profile), modes or w.modes[profile])
        if why is None:
            log.info("measurement of %s reused: %s is fresh for this machine", name, path)
            _ensured[key] = record
            return record
        if not measure_missing:
            log.info("measurement of %s is stale (%s): measured only on demand, not now", name, why)
            return None
        log.info("measurement of %s is stale (%s): re-measuring", name, why)
    elif not measure_missing:
        log.info("no record of %s on this machine: measured only on demand (measure --workload %s)", name, name)
        return None
    store.check_writable(path.parent)
    log.info("measuring %s on %s (profile %s) ...", name, me["slug"], profile)
    todo = _to_complete(previous, w, profile, modes) if previous is not None else None
    record = yield from workload_steps(name, profile, todo or modes, progress=progress or log.info,
                                       deadline=deadline if deadline is not None else budget_deadline(),
                                       device=device, previous=previous, aim=aim)
    if todo:
        record = freshness.merge(previous, record, todo)
    store.save(record, root)
    _ensured[key] = record
    return record

