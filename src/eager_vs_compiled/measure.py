"""Measure a workload: each mode in a fresh subprocess, correctness before timing.

Method (see docs/benchmarks/methodology.md):
- a fresh interpreter per (workload, mode) with an empty inductor cache: the first compiled call
  minus a steady-state call is the *cold* compile time; a second fresh process on the now
  populated cache gives the *warm* compile time;
- compiled output is compared with eager before anything is timed;
- eager and compiled are timed in the same process, interleaved sample by sample, so drift
  (thermal, other load) hits both; every sample is kept;
- a mode that fails, hangs or runs out of memory becomes a result with a status, not a crash.

Standard library + torch + torchvision only.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from . import engines, isolate, machine, recipes, records, store, workloads
from .timing import TIMING
from .records import ModeResult, Record

HARNESS_VERSION = 2
log = logging.getLogger("eager_vs_compiled")
Progress = Callable[[str], None]


def _run_child(args: dict, env: dict, timeout: float) -> dict[str, ModeResult]:
    """Run one phase in a fresh interpreter: {mode: result}. Never raises for the child's failures:
    a timeout, a kill, a crash or an unreadable result becomes the mode's status."""
    mode = args["mode"]
    with tempfile.TemporaryDirectory(prefix="evc-result-") as tmp:
        out_path = Path(tmp) / "result.json"
        returncode, _, err = isolate.module("eager_vs_compiled.child", [json.dumps(args), str(out_path)], env, timeout)
        if returncode is None:
            return {mode: ModeResult(mode, "timeout", message=f"no result after {timeout:.0f} s")}
        if out_path.exists():
            try:
                return {m: ModeResult(**fields) for m, fields in json.loads(out_path.read_text()).items()}
            except (ValueError, TypeError) as e:
                return {mode: ModeResult(mode, "crashed", message=f"unreadable result from the child ({e})")}
        if returncode < 0:
            sig = signal.Signals(-returncode).name
            kind = "oom" if returncode == -signal.SIGKILL else "crashed"
            return {mode: ModeResult(mode, kind, message=f"killed by {sig} (the kernel's OOM killer sends SIGKILL)")}
        tail = " | ".join(err.strip().splitlines()[-3:])
        return {mode: ModeResult(mode, "crashed", message=f"exit code {returncode}: {tail}")}


# Rough seconds to measure one compiled mode (cold + warm process) when no earlier record says:
# only used to decide what still fits in a time budget.
ESTIMATE_S = {"overhead": 20, "pointwise": 15, "mlp-transformer": 40, "resnet": 90, "vit": 90, "engines": 60}


def estimate_s(w: workloads.Workload, mode: str, previous: Record | None = None) -> float:
    old = previous.result(mode) if previous else None
    if old is not None and old.wall_s:
        return old.wall_s
    base = ESTIMATE_S[w.family] * (2 if w.step == "training" else 1)
    return base * (3 if mode.startswith("max-autotune") else 1) * (0.5 if mode == "eager" else 1)


def _child_args(w: workloads.Workload, profile: str, device: str | None, mode: str) -> dict:
    """What a measurement child needs to rebuild the workload (a reader's model: its factory)."""
    args = {"workload": w.name, "profile": profile, "device": device, "mode": mode}
    if w.family == workloads.USER_FAMILY:
        args["model"], args["input_shape"] = w.sizes[profile]["model"], w.sizes[profile].get("input_shape")
    return args


def _cache_env(folder: str) -> dict:
    return {"TORCHINDUCTOR_CACHE_DIR": folder, "TRITON_CACHE_DIR": os.path.join(folder, "triton")}


def _measure_compiled(w: workloads.Workload, args: dict, timeout: float, say: Progress) -> dict[str, ModeResult]:
    """Cold process (check + timing, eager beside it), then warm and, if asked, Mega-Cache processes."""
    name, mode = w.name, args["mode"]
    with tempfile.TemporaryDirectory(prefix="evc-inductor-") as cache, \
            tempfile.TemporaryDirectory(prefix="evc-mega-") as mega:
        # An empty cache makes the first call a cold compile; the second process reuses it.
        artifacts = os.path.join(mega, "artifacts.bin") if w.megacache and mode == "default" else None
        say(f"{name} · {mode}: cold compile, check, timing")
        # An engine's artifact (the exported model), saved by the cold process, loaded by the warm one.
        # (engines.of, not recipes.parse: an unknown mode fails in the child, as a status)
        args = {**args, "engine_dir": os.path.join(cache, "engine")} if engines.of(mode) else args
        got = _run_child({**args, "phase": "time", "artifacts": artifacts}, _cache_env(cache), timeout)
        result = got[mode]
        if result.status not in ("ok", "mismatch") or not w.warm:
            return got
        say(f"{name} · {mode}: warm compile (new process, cached)")
        warm = _run_child({**args, "phase": "warm"}, _cache_env(cache), timeout)[mode]
        result.compile_warm_s = warm.compile_warm_s
        result.peak_memory_bytes = warm.peak_memory_bytes or result.peak_memory_bytes
        if warm.status != "ok":
            result.message = (result.message + f" warm phase: {warm.message}").strip()
        if artifacts and os.path.exists(artifacts):
            say(f"{name} · {mode}: compile from Mega-Cache artifacts (new process, empty cache)")
            with tempfile.TemporaryDirectory(prefix="evc-inductor-") as empty:
                mega_run = _run_child({**args, "phase": "mega", "artifacts": artifacts}, _cache_env(empty), timeout)
            result.compile_mega_s = mega_run[mode].compile_mega_s
    return got


def _finish(result: ModeResult, items: int, wall_s: float | None = None) -> ModeResult:
    result.wall_s = wall_s
    return result.finish(items)


def measure_mode(w: workloads.Workload, profile: str, mode: str, timeout: float | None = None,
                 progress: Progress | None = None, device: str | None = None) -> ModeResult:
    """One mode alone, in its own processes (a compiled mode: cold, warm, Mega-Cache)."""
    args = _child_args(w, profile, device, mode)
    limit, say, t0 = timeout or TIMING[profile]["timeout_s"], progress or (lambda msg: None), time.perf_counter()
    if mode == "eager":
        with tempfile.TemporaryDirectory(prefix="evc-inductor-") as cache:
            got = _run_child({**args, "phase": "time"}, {"TORCHINDUCTOR_CACHE_DIR": cache}, limit)
    else:
        got = _measure_compiled(w, args, limit, say)
    return _finish(got[mode], w.items_per_call(profile), time.perf_counter() - t0)


def planned_steps(w: workloads.Workload, modes) -> int:
    """Progress steps (processes) measuring `modes` takes: cold + warm per compiled mode, one for
    Mega-Cache, and one for eager only when no compiled mode times it alongside."""
    compiled = [m for m in modes if m != "eager"]
    return sum(1 + w.warm + (w.megacache and m == "default") for m in compiled) or 1


def _skip(w: workloads.Workload, mode: str, deadline: float | None, previous: Record | None,
          device: str | None = None, profile: str = "cpu") -> str | None:
    """Why `mode` is not measured now (a missing package, a recipe this machine cannot run, the
    time budget), or None."""
    if w.unavailable():
        return w.unavailable()
    device_type = device or ("cuda" if profile == "gpu" else "cpu")
    why = recipes.unsupported(recipes.parse(mode), w.step, device_type)
    if why:
        return why
    left = None if deadline is None else deadline - time.monotonic()
    if left is not None and estimate_s(w, mode, previous) > left:
        return f"time budget: {max(left, 0):.0f} s left, about {estimate_s(w, mode, previous):.0f} s needed"
    return None


def measure_workload(name: str, profile: str | None = None, modes: list[str] | None = None,
                     timeout: float | None = None, progress: Progress | None = None,
                     deadline: float | None = None, device: str | None = None,
                     previous: Record | None = None) -> Record:
    """Measure a workload's modes. With a `deadline` (time.monotonic()), a mode whose estimated
    cost no longer fits is recorded as skipped; a mode that overruns it times out."""
    w = workloads.get(name)
    profile = profile or workloads.default_profile()
    modes = list(modes or w.modes[profile])
    if "eager" not in modes:
        modes.insert(0, "eager")
    say = progress or (lambda msg: None)
    items = w.items_per_call(profile)
    results: dict[str, ModeResult] = {}
    limit = timeout or TIMING[profile]["timeout_s"]
    for mode in [m for m in modes if m != "eager"]:
        why = _skip(w, mode, deadline, previous, device, profile)
        if why:
            results[mode] = ModeResult(mode=mode, status="skipped", message=why)
            say(f"{name} · {mode}: skipped ({why})")
            continue
        left = None if deadline is None else deadline - time.monotonic()
        t0 = time.perf_counter()
        got = _measure_compiled(w, _child_args(w, profile, device, mode), min(limit, left) if left else limit, say)
        results[mode] = _finish(got[mode], items, time.perf_counter() - t0)
        if "eager" not in results and "eager" in got and got["eager"].samples_s:
            results["eager"] = _finish(got["eager"], items)  # timed beside this mode, same process
    if "eager" not in results:
        why = _skip(w, "eager", deadline, previous)
        if why:
            results["eager"] = ModeResult(mode="eager", status="skipped", message=why)
        else:
            say(f"{name} · eager: timing")
            results["eager"] = measure_mode(w, profile, "eager", limit, device=device)
    return Record(
        workload=w.name, title=w.title, profile=profile,
        device=device or ("cuda" if profile == "gpu" else "cpu"),
        spec=w.spec(profile), spec_hash=w.spec_hash(profile), harness_version=HARNESS_VERSION,
        machine=machine.describe(), versions=machine.versions(),
        date=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        git_commit=machine.git_commit(),
        results=[results[m] for m in modes],
    )


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
            raise ValueError(f"EVC_BUDGET_S must be a number of seconds, not {raw!r}") from None
    return _deadline


_deadline: float | None = None


def _to_complete(previous: Record, w: workloads.Workload, profile: str, modes) -> list[str] | None:
    """The unfinished modes, when they are all that keeps the previous record from being fresh
    (same machine, torch, harness and spec): only those are measured, the rest is kept."""
    wanted = list(modes or w.modes[profile])
    todo = records.unfinished(previous, wanted)
    done_check = records.staleness(previous, machine.describe(), machine.versions()["torch"], HARNESS_VERSION,
                                   w.spec_hash(profile), [m for m in wanted if m not in todo])
    if not todo or done_check is not None or "eager" in todo and len(todo) == len(wanted):
        return None
    return todo


def _merge(previous: Record, new: Record, todo: list[str]) -> Record:
    """The previous record with the newly measured modes put in (the order of the previous one)."""
    measured = {r.mode: r for r in new.results if r.mode in todo}
    order = [r.mode for r in previous.results] + [m for m in measured if previous.result(m) is None]
    new.results = [measured.get(m) or previous.result(m) for m in order]
    return new


def ensure_record(name: str, root: Path | None = None, force: bool = False, profile: str | None = None,
                  modes: list[str] | None = None, progress: Progress | None = None,
                  deadline: float | None = None, device: str | None = None,
                  measure_missing: bool = True) -> Record | None:
    """This machine's fresh record of a workload for the installed torch release: reused when
    fresh, else measured and saved. Records of other torch releases are never read or touched.

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
        why = records.staleness(record, me, machine.versions()["torch"], HARNESS_VERSION,
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
    record = measure_workload(name, profile, todo or modes, progress=progress or log.info,
                              deadline=deadline if deadline is not None else budget_deadline(),
                              device=device, previous=previous)
    if todo:
        record = _merge(previous, record, todo)
    store.save(record, root)
    _ensured[key] = record
    return record

