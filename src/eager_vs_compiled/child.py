"""What runs inside one measurement process (`python -m eager_vs_compiled.child ARGS OUT`).

The parent (`measure`) starts a fresh interpreter for every timing process: eager alone (`mode`
eager), or a compiled mode in phase `time` (the cold compile, with the check against eager and
the counts of FLOPs and bytes), `warm` (compile again from the cache the cold run left: the warm
compile time and the memory of the compiled model) or `rerun` (a later process, from the same
cache); each times its mode alone or, in the interleaved protocol, beside eager. Phase `mega`
compiles from Mega-Cache artifacts into an empty cache and times nothing. The result is a JSON file of `records.ModeResult`s,
{mode: fields}; an exception becomes a status and a message, never a crash of the suite. Standard
library + torch (+ torchvision).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import logging
import math
import os
import resource
import sys
from pathlib import Path

from . import engines, isolate, recipes, stats, timing, workloads
from .counts import _eager_bytes, _flops
from .records import ModeResult

log = logging.getLogger("eager_vs_compiled")


def _max_errors(out, ref) -> tuple[float, float]:
    import torch

    outs, refs = torch.utils._pytree.tree_leaves(out), torch.utils._pytree.tree_leaves(ref)
    leaf_errs = [float((o.double() - r.double()).abs().max()) for o, r in zip(outs, refs)]
    # Python's max skips a NaN that is not first (nan > x is False): one NaN leaf makes it NaN
    abs_err = math.nan if any(math.isnan(e) for e in leaf_errs) else max(leaf_errs)
    scale = max(float(r.double().abs().max()) for r in refs) or 1.0
    return abs_err, abs_err / scale


def _peak_memory(device) -> tuple[int, str]:
    """This process's peak so far: the model, its inputs and every call made (and, in a compiled
    process, the compiler). Monotonic, so it is read right after the runs it should cover."""
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize()
        return torch.cuda.max_memory_allocated(), "cuda_max_allocated"
    return isolate.peak_rss()


def _compile(built, recipe: recipes.Recipe, args: dict | None = None):
    """The recipe's compiled model (its base mode), or the model as it is for an eager recipe. An
    engine mode converts on the first call (so the first-call time covers the conversion), or in a
    warm phase loads the artifact its cold phase saved."""
    import torch

    target = built.model if built.model is not None else built.fn
    if recipe.engine:
        folder, engine = Path(args["engine_dir"]), recipe.engine
        model_name, protocol = args.get("model") or args["workload"], args.get("protocol", "alone")
        if args["phase"] == "time":
            built.compiled = engines.Lazy(lambda: engines.convert(
                engine, recipe.knobs, target, built.inputs, folder, model_name, protocol))
        else:
            built.compiled = engines.Lazy(lambda: engines.load(engine, recipe.knobs, folder,
                                                               built.inputs[0].device.type, protocol))
    elif recipe.compiled:
        built.compiled = torch.compile(target, mode=recipe.base)
    return built


def _child(args: dict) -> dict[str, ModeResult]:
    """One process of one mode: {mode: its result} (and {"eager": ...} beside a compiled mode timed
    with the interleaved protocol)."""
    import torch

    profile, mode = args["profile"], args["mode"]
    if args.get("model"):  # a reader's model: rebuilt from its factory in this process
        from .usermodel import workload_for

        w = workload_for(args["model"], profile, args.get("input_shape"))
    else:
        w = workloads.get(args["workload"])
    device = torch.device(args.get("device") or workloads.default_device(profile))
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    if args["phase"] == "mega":
        return {mode: _recompile(w, profile, mode, device, sync, args)}
    if mode == "eager":
        return {"eager": _time_eager(w, profile, device, sync, args)}
    return _time(w, profile, mode, device, sync, args)


def _usage() -> tuple[int, int, int]:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_minflt, ru.ru_majflt, ru.ru_nivcsw


def _facts() -> dict:
    """What this process runs with, read after the first call (a compile may start threads)."""
    import torch

    facts = {"threads": torch.get_num_threads()}
    if os.path.isdir("/proc/self/task"):
        facts["os_threads"] = len(os.listdir("/proc/self/task"))
    if hasattr(os, "sched_getaffinity"):
        facts["affinity"] = sorted(os.sched_getaffinity(0))
    return facts


def _huge_bytes(rollup: str = "/proc/self/smaps_rollup") -> int | None:
    """This process's anonymous memory on transparent huge pages now (Linux), else None."""
    return isolate.proc_kib(rollup, "AnonHugePages")


def _sampled(fns, inputs, sync, cfg: dict, phase: str, protocol: str) -> tuple[list[list[float]], dict]:
    """Time `fns` (one: alone; two: eager and the mode, interleaved) in this process: (the series, the
    process's entry of ModeResult.processes, less what the parent adds: steal and wall time)."""
    facts = _facts()
    before = _usage()
    series = timing.interleaved_samples(fns, inputs, sync, cfg, cfg["budget_s"] * len(fns))
    after = _usage()
    proc = {"n": len(series[-1]), "phase": phase, "protocol": protocol, **facts,
            "minflt": after[0] - before[0], "majflt": after[1] - before[1], "nivcsw": after[2] - before[2]}
    if len(fns) == 2:
        proc["eager_n"] = len(series[0])
    huge = _huge_bytes()
    if huge is not None:
        proc["huge_bytes"] = huge
    return series, proc


def _time_eager(w, profile: str, device, sync, args: dict) -> ModeResult:
    """Eager alone, in a process that imports no engine and compiles nothing."""
    import torch

    cfg = timing.TIMING[profile]
    built = w.build(profile, device)
    built.call(*built.inputs)
    eager = ModeResult("eager", "ok", threads=torch.get_num_threads())
    eager.peak_memory_bytes, eager.memory_kind = _peak_memory(device)
    if args.get("first"):  # counted once: they do not vary between processes
        eager.flops_per_call = _flops(built, device)
        eager.eager_bytes_per_call = _eager_bytes(built) if w.traffic else None
    [eager.samples_s], proc = _sampled([built.call], built.inputs, sync, cfg, args["phase"], "alone")
    eager.processes = [proc]
    if args.get("first") and w.timer_check:
        number = timing.calls_per_sample(built.call, built.inputs, sync, cfg["min_sample_s"])
        eager.timer_harness_s, eager.timer_median_s = timing.timer_agreement(built, sync, eager.threads, number)
    return eager


def _recompile(w, profile: str, mode: str, device, sync, args: dict) -> ModeResult:
    """Compile into an empty cache filled only from the Mega-Cache artifacts, in a new process.
    Compile time = first call - steady."""
    import torch

    recipe = recipes.parse(mode)
    recipes.configure(recipe)
    result = ModeResult(mode, "ok", threads=torch.get_num_threads())
    torch.compiler.load_cache_artifacts(Path(args["artifacts"]).read_bytes())
    comp = _compile(w.build(profile, device, recipes.build_knobs(recipe)), recipe, args)
    _, first = timing.first_call(comp.call, comp.inputs, sync)
    steady = stats.median([timing.timer(comp.call, comp.inputs, sync, 1) for _ in range(5)])
    result.compile_mega_s = stats.compile_seconds(first, steady)
    return result


def _reference(w, profile: str, device):
    """Eager's answer (outputs, and gradients for a training step) from the same seed."""
    eager_built = w.build(profile, device)
    ref = eager_built.call(*eager_built.inputs)
    return eager_built, ref, [g.clone() for g in eager_built.grads()]


def _time(w, profile: str, mode: str, device, sync, args: dict) -> dict[str, ModeResult]:
    """One process of a compiled mode: compile (cold in phase `time`, from the cache or the saved
    artifact in phase `warm` and later ones), check against eager, then time it: alone (eager's
    model freed first, so it evicts nothing from the caches) or, in the interleaved protocol,
    sample by sample with eager."""
    import torch

    recipe, phase = recipes.parse(mode), args.get("phase", "time")
    recipes.configure(recipe)  # before eager too: a thread count is the same for both sides
    cfg, threads = timing.TIMING[profile], torch.get_num_threads()
    protocol = args.get("protocol") or "alone"
    result = ModeResult(mode, "ok", threads=threads)
    eager_built = None
    if phase == "time":  # cold: eager's answer first, as a reader would check it
        eager_built, ref, ref_grads = _reference(w, profile, device)
        result.peak_memory_bytes, result.memory_kind = _peak_memory(device)  # eager's, replaced below
        result.flops_per_call = _flops(eager_built, device)
        result.eager_bytes_per_call = _eager_bytes(eager_built) if w.traffic else None
    comp = _compile(w.build(profile, device, recipes.build_knobs(recipe)), recipe, args)
    got, first = timing.first_call(comp.call, comp.inputs, sync)
    got_grads = [g.clone() for g in comp.grads()]
    if phase == "time":
        result.first_call_s = first
        result.peak_memory_bytes, result.memory_kind = _peak_memory(device)  # cold process; the warm one replaces it
        if recipe.engine:
            result.artifact_bytes = engines.artifact_bytes(Path(args["engine_dir"]))
        if args.get("artifacts"):  # the compile artifacts of this cold run, for the Mega-Cache phase
            saved = torch.compiler.save_cache_artifacts()
            if saved is not None:
                Path(args["artifacts"]).write_bytes(saved[0])
    else:
        steady = stats.median([timing.timer(comp.call, comp.inputs, sync, 1) for _ in range(5)])
        if phase == "warm":
            result.compile_warm_s = stats.compile_seconds(first, steady)
            # compiled, without an eager copy beside it: the memory a user of the compiled model pays
            result.peak_memory_bytes, result.memory_kind = _peak_memory(device)
        eager_built, ref, ref_grads = _reference(w, profile, device)
    _check(result, [(got, ref)] + ([(got_grads, ref_grads)] if ref_grads else []),
           recipes.tolerance(recipe, w.tolerance, w.step))
    del got, got_grads, ref, ref_grads
    # Every mode is called with eager's inputs; one built for another layout or dtype converts them in
    # its timed call (a caller holds float32, contiguous tensors: the conversion is part of the cost).
    comp_call = recipes.on_callers_input(comp.call, recipe, w.step)
    inputs = eager_built.inputs
    if protocol == "alone":
        eager_built = None  # eager's weights and activations go before the mode is timed alone
        gc.collect()
    eager = _timed(protocol, result, None if eager_built is None else eager_built.call, comp_call, inputs,
                   (sync, cfg, phase))
    if w.timer_check and phase == "time":
        number = timing.calls_per_sample(comp.call, comp.inputs, sync, cfg["min_sample_s"])
        result.timer_harness_s, result.timer_median_s = timing.timer_agreement(comp, sync, threads, number)
    return {mode: result, **({"eager": eager} if eager is not None else {})}


def _timed(protocol: str, result: ModeResult, eager_call, comp_call, inputs, how: tuple) -> ModeResult | None:
    """Time the mode by the protocol, filling `result`: `alone` (eager_call None), `interleaved` (with
    eager sample by sample), or `idle` (eager first, the mode loaded in the process and left idle, then
    the mode: the interference experiment). Returns eager's result where eager was timed here."""
    sync, cfg, phase = how
    if protocol == "alone":
        [result.samples_s], proc = _sampled([comp_call], inputs, sync, cfg, phase, protocol)
        result.processes = [proc]
        return None
    if protocol == "interleaved":
        (eager_s, result.samples_s), proc = _sampled([eager_call, comp_call], inputs, sync, cfg, phase, protocol)
        eager_proc, said = {**{k: v for k, v in proc.items() if k != "eager_n"}, "n": proc["eager_n"]}, "interleaved with it"
    else:  # eager's own counts (page faults, switches) in its entry, the mode's in the mode's
        [eager_s], eager_proc = _sampled([eager_call], inputs, sync, cfg, phase, protocol)
        [result.samples_s], proc = _sampled([comp_call], inputs, sync, cfg, phase, protocol)
        proc["eager_n"], said = len(eager_s), "with it loaded and idle, before it was timed"
    eager = ModeResult("eager", "ok", threads=result.threads, message=f"timed in the {result.mode} processes, {said}")
    result.eager_samples_s = eager.samples_s = eager_s
    eager.processes = [eager_proc]
    result.processes = [proc]
    return eager


def _check(result: ModeResult, pairs: list, tolerance: float) -> None:
    """Compare compiled with eager (outputs, and gradients for a training step) before any timing.
    A non-finite error (NaN or inf where eager has numbers) is a mismatch with the reason, never
    a number in the record."""
    errors = [_max_errors(got, ref) for got, ref in pairs]
    what = "outputs or gradients" if len(pairs) > 1 else "outputs"
    if not all(math.isfinite(err) for pair in errors for err in pair):  # before max(), which skips a NaN
        result.status, result.message = "mismatch", f"{what}: NaN or inf where eager's are finite"
        return
    abs_err, rel_err = max(e[0] for e in errors), max(e[1] for e in errors)
    result.max_abs_err, result.max_rel_err = abs_err, rel_err
    if rel_err > tolerance:
        result.status = "mismatch"
        result.message = f"{what}: max relative error {rel_err:.2e} > tolerance {tolerance:.0e}"


def _child_main(argv: list[str]) -> int:
    args, out_path = json.loads(argv[0]), Path(argv[1])
    mode = args["mode"]
    try:
        results = _child(args)
    except workloads.WorkloadUnavailable as e:
        results = {mode: ModeResult(mode, "skipped", message=str(e))}
    except Exception as e:  # the parent turns this into a status; the suite goes on
        import torch

        oom = isinstance(e, (torch.cuda.OutOfMemoryError, MemoryError))
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        results = {mode: ModeResult(mode, "oom" if oom else "error", message=f"{type(e).__name__}: {first}")}
    # Written whole then renamed: the parent reads a complete result or none at all.
    tmp = out_path.with_suffix(".partial")
    tmp.write_text(json.dumps({m: dataclasses.asdict(r) for m, r in results.items()}))
    os.replace(tmp, out_path)
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
