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
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from . import machine, records, stats, workloads
from .records import ModeResult, Record

HARNESS_VERSION = 1
log = logging.getLogger("eager_vs_compiled")
COUNTS: Counter = Counter()  # "measured" / "reused" workloads in this process (the build log)

# Timing budget per profile: keep sampling until the median is known to ~1 % or time runs out.
MEDIAN_PRECISION = 0.01  # sampling stops once the median is known to about this fraction
TIMING = {
    "cpu": {"min_sample_s": 0.02, "n_min": 7, "n_max": 41, "budget_s": 8.0, "timeout_s": 600},
    "gpu": {"min_sample_s": 0.01, "n_min": 10, "n_max": 100, "budget_s": 5.0, "timeout_s": 600},
}
Progress = Callable[[str], None]


# ----------------------------------------------------------------------------- child process
def _timer(fn, inputs, sync, number: int) -> float:
    sync()
    t0 = time.perf_counter()
    for _ in range(number):
        fn(*inputs)
    sync()  # without it a CUDA timing measures only the kernel launches
    return (time.perf_counter() - t0) / number


def _calls_per_sample(fn, inputs, sync, min_sample_s: float) -> int:
    once = _timer(fn, inputs, sync, 1)
    return max(1, int(min_sample_s / max(once, 1e-9)) + 1)


def _first_call(compiled, inputs, sync):
    """The first call of a compiled fn traces and compiles it: (its output, seconds it took)."""
    t0 = time.perf_counter()
    out = compiled(*inputs)
    sync()
    return out, time.perf_counter() - t0


def _interleaved_samples(fns, inputs, sync, cfg: dict, budget_s: float) -> list[list[float]]:
    """Time each fn in turn, sample after sample, until every median is known to ~1 % (or the
    budget or n_max ends it, but never before n_min): drift then hits all fns alike."""
    for fn in fns:
        _timer(fn, inputs, sync, 2)  # warm-up, not kept
    numbers = [_calls_per_sample(fn, inputs, sync, cfg["min_sample_s"]) for fn in fns]
    series: list[list[float]] = [[] for _ in fns]
    t_end = time.perf_counter() + budget_s
    while len(series[0]) < cfg["n_min"] or (
            time.perf_counter() < t_end and len(series[0]) < cfg["n_max"]
            and max(stats.median_rel_error(s) for s in series) > MEDIAN_PRECISION):
        for fn, number, samples in zip(fns, numbers, series):
            samples.append(_timer(fn, inputs, sync, number))
    return series


def _max_errors(out, ref) -> tuple[float, float]:
    import torch

    outs, refs = torch.utils._pytree.tree_leaves(out), torch.utils._pytree.tree_leaves(ref)
    abs_err = max(float((o.double() - r.double()).abs().max()) for o, r in zip(outs, refs))
    scale = max(float(r.double().abs().max()) for r in refs) or 1.0
    return abs_err, abs_err / scale


def _peak_memory(device, run) -> tuple[int, str]:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        run()
        torch.cuda.synchronize()
        return torch.cuda.max_memory_allocated(), "cuda_max_allocated"
    run()
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "process_peak_rss"


def _child(args: dict) -> dict:
    import torch

    w = workloads.get(args["workload"])
    profile, mode, phase = args["profile"], args["mode"], args["phase"]
    cfg = TIMING[profile]
    device = workloads.default_device(profile)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    out: dict = {"threads": torch.get_num_threads()}
    with torch.no_grad():
        fn, inputs = w.build(profile, device)
        if phase == "warm":
            compiled = torch.compile(fn, mode=mode)
            _, first = _first_call(compiled, inputs, sync)
            steady = stats.median([_timer(compiled, inputs, sync, 1) for _ in range(5)])
            out["compile_warm_s"] = max(first - steady, 0.0)
            return out
        ref = fn(*inputs)
        if mode == "eager":
            out["peak_memory_bytes"], out["memory_kind"] = _peak_memory(device, lambda: fn(*inputs))
            [out["samples_s"]] = _interleaved_samples([fn], inputs, sync, cfg, cfg["budget_s"])
            return out
        compiled = torch.compile(fn, mode=mode)
        got, out["first_call_s"] = _first_call(compiled, inputs, sync)
        out["max_abs_err"], out["max_rel_err"] = _max_errors(got, ref)
        out["status"] = "ok" if out["max_rel_err"] <= w.rtol else "mismatch"
        if out["status"] == "mismatch":
            out["message"] = f"max relative error {out['max_rel_err']:.2e} > tolerance {w.rtol:.0e}"
        out["peak_memory_bytes"], out["memory_kind"] = _peak_memory(device, lambda: compiled(*inputs))
        eager_s, comp_s = _interleaved_samples([fn, compiled], inputs, sync, cfg, 2 * cfg["budget_s"])
        out["samples_s"], out["eager_samples_s"] = comp_s, eager_s
        return out


def _child_main(argv: list[str]) -> int:
    args, out_path = json.loads(argv[0]), Path(argv[1])
    try:
        result = _child(args)
    except Exception as e:  # the parent turns this into a status; the suite goes on
        import torch

        oom = isinstance(e, (torch.cuda.OutOfMemoryError, MemoryError))
        result = {"status": "oom" if oom else "error",
                  "message": f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"}
    out_path.write_text(json.dumps(result))
    return 0


# ----------------------------------------------------------------------------- parent process
def run_isolated(cmd: list[str], env: dict, timeout: float, cwd: str | None = None) -> tuple[int | None, str, str]:
    """Run cmd in a session of its own: (returncode or None on timeout, stdout, stderr).

    On timeout the whole process group is killed, inductor's compile workers included.
    """
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err


def _run_child(args: dict, env: dict, timeout: float) -> dict:
    """Run one phase in a fresh interpreter; never raises for the child's failures."""
    pkg_parent = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, **env,
           "PYTHONPATH": os.pathsep.join(filter(None, [pkg_parent, os.environ.get("PYTHONPATH")]))}
    with tempfile.TemporaryDirectory(prefix="evc-result-") as tmp:
        out_path = Path(tmp) / "result.json"
        cmd = [sys.executable, "-m", "eager_vs_compiled.measure", json.dumps(args), str(out_path)]
        returncode, _, err = run_isolated(cmd, env, timeout)
        if returncode is None:
            return {"status": "timeout", "message": f"no result after {timeout:.0f} s"}
        if out_path.exists():
            result = json.loads(out_path.read_text())
            result.setdefault("status", "ok")
            return result
        if returncode < 0:
            sig = signal.Signals(-returncode).name
            kind = "oom" if returncode == -signal.SIGKILL else "crashed"
            return {"status": kind, "message": f"killed by {sig} (the kernel's OOM killer sends SIGKILL)"}
        tail = " | ".join(err.strip().splitlines()[-3:])
        return {"status": "crashed", "message": f"exit code {returncode}: {tail}"}


def measure_mode(w: workloads.Workload, profile: str, mode: str, timeout: float | None = None,
                 progress: Progress | None = None) -> ModeResult:
    timeout = timeout or TIMING[profile]["timeout_s"]
    say = progress or (lambda msg: None)
    t0 = time.perf_counter()
    args = {"workload": w.name, "profile": profile, "mode": mode}
    with tempfile.TemporaryDirectory(prefix="evc-inductor-") as cache:
        # An empty cache makes the first call a cold compile; the second process reuses it.
        env = {"TORCHINDUCTOR_CACHE_DIR": cache, "TRITON_CACHE_DIR": os.path.join(cache, "triton")}
        say(f"{w.name} · {mode}: {'timing' if mode == 'eager' else 'cold compile, check, timing'}")
        raw = _run_child({**args, "phase": "time"}, env, timeout)
        if mode != "eager" and raw.get("status") in ("ok", "mismatch"):
            say(f"{w.name} · {mode}: warm compile (new process, cached)")
            warm = _run_child({**args, "phase": "warm"}, env, timeout)
            raw["compile_warm_s"] = warm.get("compile_warm_s")
            if warm.get("status") not in ("ok", None):
                raw["message"] = (raw.get("message", "") + f" warm phase: {warm.get('message')}").strip()
    fields = {k: v for k, v in raw.items() if k in ModeResult.__dataclass_fields__}
    result = ModeResult(**{"mode": mode, "status": "ok", **fields})
    result.wall_s = time.perf_counter() - t0
    return result.finish(w.items_per_call(profile))


def measure_workload(name: str, profile: str | None = None, modes: list[str] | None = None,
                     timeout: float | None = None, progress: Progress | None = None) -> Record:
    w = workloads.get(name)
    profile = profile or workloads.default_profile()
    modes = list(modes or w.modes[profile])
    return Record(
        workload=w.name, title=w.title, profile=profile,
        device="cuda" if profile == "gpu" else "cpu",
        spec=w.spec(profile), spec_hash=w.spec_hash(profile), harness_version=HARNESS_VERSION,
        machine=machine.describe(), versions=machine.versions(),
        date=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        git_commit=machine.git_commit(),
        results=[measure_mode(w, profile, m, timeout, progress) for m in modes],
    )


def remeasure_requested() -> bool:
    return os.environ.get("EVC_REMEASURE", "").strip().lower() in ("1", "true", "yes")


_ensured: dict[tuple, Record] = {}


def ensure_record(name: str, root: Path | None = None, force: bool = False, profile: str | None = None,
                  modes: list[str] | None = None, progress: Progress | None = None) -> Record:
    """This machine's fresh record of a workload: reused when fresh, else measured and saved.

    `modes` measures a subset; the record then lacks the other modes and counts as stale for a
    full run (so the site build completes it).
    """
    w = workloads.get(name)
    root = Path(root or records.default_root())
    me, profile = machine.describe(), profile or workloads.default_profile()
    key = (str(root.resolve()), name, profile, tuple(modes or ()))
    if key in _ensured:  # several pages show one workload: measure it once per build
        return _ensured[key]
    path = records.path_for(root, me["slug"], name)
    force = force or remeasure_requested()
    if path.exists() and not force:
        record = records.load(path)
        why = records.staleness(record, me, machine.versions()["torch"], HARNESS_VERSION,
                                w.spec_hash(profile), modes or w.modes[profile])
        if why is None:
            COUNTS["reused"] += 1
            log.info("measurement of %s reused: %s is fresh for this machine", name, path)
            _ensured[key] = record
            return record
        log.info("measurement of %s is stale (%s): re-measuring", name, why)
    records.check_writable(path.parent)
    log.info("measuring %s on %s (profile %s) ...", name, me["slug"], profile)
    record = measure_workload(name, profile, modes, progress=progress or log.info)
    records.save(record, root)
    COUNTS["measured"] += 1
    _ensured[key] = record
    return record


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
