"""Throughput: the items per second the whole machine gives a mode with every core busy, beside the
latency (one stream) that the tables report.

For each mode and each way to split the cores into streams (S worker processes, S dividing the cores,
each pinned to its own cores with that many threads), the workers start together after a barrier,
each having built the model, loaded it warm (the compile cache, or the engine's artifact saved by a
first, cold process) and checked its answer against eager; each calls it for the same window. One
round's machine time per call is the window over every worker's completed calls. Rounds repeat each
split; a mode's throughput is its best split, and the record says which (ModeResult.message).
Records go to <release>/throughput/<workload>.json. Standard library + this package; torch in the
workers (`python -m eager_vs_compiled.throughput ARGS OUT`).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from . import isolate, machine, rounds, stats, workloads
from .experiments import THROUGHPUT
from .records import ModeResult, Record

KIND = THROUGHPUT  # the folder beside a release's records
WINDOW_S = 4.0


def splits(cores: int) -> list[int]:
    """How many streams the cores split into evenly: 1, 2, 4, ... up to one per core."""
    return [s for s in (1, 2, 4, 8, 16, 32, 64) if s <= cores and cores % s == 0]


def _worker(args: dict) -> dict:
    """One worker process: build, load warm (or cold, phase `time`), check, wait for the others, call."""
    import torch

    from . import child, recipes, timing

    os.sched_setaffinity(0, args["cpus"])
    w, recipe, device = workloads.get(args["workload"]), recipes.parse(args["mode"]), torch.device("cpu")
    recipes.configure(recipe)
    torch.set_num_threads(len(args["cpus"]))
    eager_built, ref, _ = child._reference(w, "cpu", device)
    comp = child._compile(w.build("cpu", device, recipes.build_knobs(recipe)), recipe, args)
    got, _ = timing.first_call(comp.call, comp.inputs, lambda: None)
    result = ModeResult(args["mode"], "ok")
    child._check(result, [(got, ref)], recipes.tolerance(recipe, w.tolerance, w.step))
    inputs, call = eager_built.inputs, recipes.on_callers_input(comp.call, recipe, w.step)
    del eager_built, ref, got
    for _ in range(2):
        call(*inputs)
    Path(args["ready"]).touch()
    while not os.path.exists(args["go"]):
        time.sleep(0.005)
    calls, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < args["window_s"]:
        call(*inputs)
        calls += 1
    return {"status": result.status, "message": result.message, "calls": calls,
            "elapsed_s": time.perf_counter() - t0, "max_rel_err": result.max_rel_err}


def _together(base: dict, streams: int, cpus: list[int], folder: Path, env: dict, timeout: float) -> list[dict]:
    """Run `streams` workers at once, each on its share of `cpus`; their results (a failure: its status)."""
    share, out = len(cpus) // streams, [None] * streams
    go = folder / "go"
    go.unlink(missing_ok=True)

    def one(i: int) -> None:
        args = {**base, "cpus": cpus[i * share:(i + 1) * share], "ready": str(folder / f"ready-{i}"), "go": str(go)}
        Path(args["ready"]).unlink(missing_ok=True)
        res = folder / f"result-{i}.json"
        code, _, err = isolate.module("eager_vs_compiled.throughput", [json.dumps(args), str(res)], env, timeout)
        out[i] = (json.loads(res.read_text()) if code == 0 and res.exists() else
                  {"status": "timeout" if code is None else "crashed", "message": " | ".join(err.strip().splitlines()[-2:])})

    threads = [threading.Thread(target=one, args=(i,)) for i in range(streams)]
    for t in threads:
        t.start()
    # Each worker ready, or ended (a failed one never will be ready: the others must not wait for it).
    while not all((folder / f"ready-{i}").exists() or not t.is_alive() for i, t in enumerate(threads)):
        time.sleep(0.05)
    go.touch()  # the window starts for all of them together
    for t in threads:
        t.join()
    return out


def measure_mode(name: str, mode: str, folder: Path, say, rounds_n: int = 3, window_s: float = WINDOW_S,
                 timeout: float = 900.0) -> ModeResult:
    """The mode's best split of the cores, its rounds' machine time per call as the samples."""
    cpus = sorted(os.sched_getaffinity(0))
    env = rounds._cache_env(str(folder / "inductor"))
    base = {"workload": name, "mode": mode, "profile": "cpu", "engine_dir": str(folder / "engine"),
            "protocol": "alone", "window_s": window_s}
    say(f"{name} · {mode}: cold process (compile or convert, check)")
    first = _together({**base, "phase": "time", "window_s": 0.2}, 1, cpus, folder, env, timeout)[0]
    if first["status"] != "ok":
        return ModeResult(mode, first["status"], message=first.get("message", ""))
    best: ModeResult | None = None
    for streams in splits(len(cpus)):
        samples, procs = [], []
        for rnd in range(rounds_n):
            say(f"{name} · {mode}: {streams} stream(s) × {len(cpus) // streams} thread(s), round {rnd + 1}")
            got = _together({**base, "phase": "warm"}, streams, cpus, folder, env, timeout)
            if any(g["status"] != "ok" for g in got):
                bad = next(g for g in got if g["status"] != "ok")
                return ModeResult(mode, bad["status"], message=bad.get("message", ""))
            samples.append(1 / sum(g["calls"] / g["elapsed_s"] for g in got))
            procs.append({"n": 1, "phase": "throughput", "protocol": f"{streams} streams", "threads": len(cpus) // streams})
        r = ModeResult(mode, "ok", samples_s=samples, processes=procs, max_rel_err=max(g["max_rel_err"] or 0 for g in got),
                       message=f"{streams} worker process(es) × {len(cpus) // streams} thread(s), each pinned to its own "
                               f"cores, for {window_s:g} s together")
        if best is None or stats.median(samples) < stats.median(best.samples_s):
            best = r
    return best


def measure(name: str, modes: list[str], root: Path, say, rounds_n: int = 3, window_s: float = WINDOW_S) -> Path:
    """The throughput record of one workload (cpu profile) under <release>/throughput/."""
    from . import store

    w = workloads.get(name)
    modes = ["eager", *[m for m in modes if m != "eager"]]
    with tempfile.TemporaryDirectory(prefix="evc-throughput-") as tmp:
        results = []
        for i, mode in enumerate(modes):
            (Path(tmp) / str(i)).mkdir()
            results.append(measure_mode(name, mode, Path(tmp) / str(i), say, rounds_n, window_s))
    rec = Record(workload=w.name, title=w.title, profile="cpu", device="cpu", spec=w.spec("cpu"),
                 spec_hash=w.spec_hash("cpu"), harness_version=rounds.HARNESS_VERSION, machine=machine.describe(),
                 versions=machine.versions(), date=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                 git_commit=machine.git_commit(), results=results).finish()
    path = store.release_dir(Path(root), rec.machine["slug"], store.release(rec.versions["torch"])) / KIND / f"{name}.json"
    store.write_atomic(path, rec.to_json())
    return path


def _main(argv: list[str]) -> int:
    args, out = json.loads(argv[0]), Path(argv[1])
    try:
        got = _worker(args)
    except Exception as e:  # the parent reads the status; the other workers go on
        got = {"status": "error", "message": f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"}
    out.with_suffix(".partial").write_text(json.dumps(got))
    os.replace(out.with_suffix(".partial"), out)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
