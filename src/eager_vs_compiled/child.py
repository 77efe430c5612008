"""What runs inside one measurement process (`python -m eager_vs_compiled.child ARGS OUT`).

The parent (`measure`) starts a fresh interpreter per phase: `time` (eager reference, correctness,
interleaved timing), `warm` (compile again from the cache the cold run left) and `mega` (compile
from Mega-Cache artifacts into an empty cache). The result is a JSON file; an exception becomes a
status and a message, never a crash of the suite. Standard library + torch (+ torchvision).
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import math
import resource
import sys
import time
from pathlib import Path

from . import stats, workloads

log = logging.getLogger("eager_vs_compiled")


# Timing budget per profile: keep sampling until the median is known to ~1 % or time runs out.
MEDIAN_PRECISION = 0.01  # sampling stops once the median is known to about this fraction
TIMING = {
    "cpu": {"min_sample_s": 0.02, "n_min": 7, "n_max": 41, "budget_s": 4.0, "timeout_s": 600},
    "gpu": {"min_sample_s": 0.01, "n_min": 10, "n_max": 100, "budget_s": 5.0, "timeout_s": 600},
}


# ----------------------------------------------------------------------------- child process
def _timer(fn, inputs, sync, number: int) -> float:
    sync()
    t0 = time.perf_counter()
    for _ in range(number):
        fn(*inputs)
    sync()  # without it a CUDA timing measures only the kernel launches
    return (time.perf_counter() - t0) / number


def _calls_per_sample(fn, inputs, sync, min_sample_s: float) -> int:
    """Calls per sample so that one sample lasts about `min_sample_s`: the cost per call is
    estimated from a block of at least a tenth of that (one call is too short to time well)."""
    number = 1
    while True:
        per_call = _timer(fn, inputs, sync, number)
        if per_call * number >= min_sample_s / 10 or number >= 10**6:
            return max(1, math.ceil(min_sample_s / max(per_call, 1e-9)))
        number *= 10


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
        _timer(fn, inputs, sync, 1)  # warm-up, not kept (the calibration call below is a second)
    numbers = [_calls_per_sample(fn, inputs, sync, cfg["min_sample_s"]) for fn in fns]
    series: list[list[float]] = [[] for _ in fns]
    t_end = time.perf_counter() + budget_s
    with _no_gc():
        while len(series[0]) < cfg["n_min"] or (
                time.perf_counter() < t_end and len(series[0]) < cfg["n_max"]
                and max(stats.median_rel_error(s) for s in series) > MEDIAN_PRECISION):
            for fn, number, samples in zip(fns, numbers, series):
                samples.append(_timer(fn, inputs, sync, number))
    return series


@contextlib.contextmanager
def _no_gc(collect: bool = True):
    """As timeit (and so torch.utils.benchmark) does: no collector pauses inside a sample.

    The optional full collection first frees garbage; it can also hand freed memory back to the
    OS, so the next allocations fault pages in again: not right before every short round."""
    if collect:
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _max_errors(out, ref) -> tuple[float, float]:
    import torch

    outs, refs = torch.utils._pytree.tree_leaves(out), torch.utils._pytree.tree_leaves(ref)
    abs_err = max(float((o.double() - r.double()).abs().max()) for o, r in zip(outs, refs))
    scale = max(float(r.double().abs().max()) for r in refs) or 1.0
    return abs_err, abs_err / scale


def _peak_memory(device) -> tuple[int, str]:
    """This process's peak so far: the model, its inputs and every call made (and, in a compiled
    process, the compiler). Monotonic, so it is read right after the runs it should cover."""
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize()
        return torch.cuda.max_memory_allocated(), "cuda_max_allocated"
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, "process_peak_rss"


def _flops(built, device) -> int | None:
    """FLOPs of one eager call, counted by torch.utils.flop_counter (matmuls and convolutions)."""
    from torch.utils.flop_counter import FlopCounterMode

    try:
        with FlopCounterMode(display=False) as counter:
            built.call(*built.inputs)
        return int(counter.get_total_flops()) or None
    except Exception as e:  # counting is a bonus: never lose a measurement for it
        log.warning("flop counting failed: %s", e)
        return None


def _eager_bytes(built) -> int | None:
    """Bytes an eager call reads and writes: every aten op's tensor inputs and outputs, counted
    once per op (what eager moves through memory, since each op is its own kernel)."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    class Traffic(TorchDispatchMode):
        total = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            for t in tree_leaves((args, kwargs, out)):
                if isinstance(t, torch.Tensor) and t.device.type != "meta":
                    Traffic.total += t.untyped_storage().nbytes() if t.dim() == 0 else t.numel() * t.element_size()
            return out

    try:
        with Traffic():
            built.call(*built.inputs)
        return Traffic.total or None
    except Exception as e:
        log.warning("traffic counting failed: %s", e)
        return None


def _timer_agreement(built, sync, threads: int, number: int) -> tuple[float, float]:
    """(harness median, Timer median) of the same call, in short alternating rounds so that the
    drift of a shared machine hits both: each round takes the harness's samples for ~50 ms, then
    one `torch.utils.benchmark.Timer.blocked_autorange(min_run_time=0.05)`; who goes first
    alternates. At least 5 rounds, then until ~3 s have passed or 15 rounds."""
    from torch.utils.benchmark import Timer

    timer = Timer(stmt="call(*inputs)", globals={"call": built.call, "inputs": built.inputs}, num_threads=threads)
    ours, theirs = [], []

    def harness_round():
        _timer(built.call, built.inputs, sync, number)  # one sample discarded, as Timer's block-size estimate runs first
        samples, t_end = [], time.perf_counter() + 0.05
        with _no_gc(collect=False):
            while not samples or time.perf_counter() < t_end:
                samples.append(_timer(built.call, built.inputs, sync, number))
        ours.append(stats.median(samples))

    def timer_round():
        theirs.append(timer.blocked_autorange(min_run_time=0.05).median)

    gc.collect()
    t_end = time.perf_counter() + 3.0
    for i in range(15):
        if i >= 5 and time.perf_counter() > t_end:
            break
        for step in ((harness_round, timer_round) if i % 2 == 0 else (timer_round, harness_round)):
            step()
    return stats.median(ours), stats.median(theirs)


def _compile(built, mode: str):
    import torch

    built.compiled = torch.compile(built.model if built.model is not None else built.fn, mode=mode)
    return built


def _child(args: dict) -> dict:
    import torch

    w = workloads.get(args["workload"])
    profile, mode, phase = args["profile"], args["mode"], args["phase"]
    cfg = TIMING[profile]
    device = torch.device(args.get("device") or workloads.default_device(profile))
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    threads = torch.get_num_threads()
    out: dict = {"threads": threads}
    if phase == "mega":  # an empty cache, filled only from the Mega-Cache artifacts
        torch.compiler.load_cache_artifacts(Path(args["artifacts"]).read_bytes())
    if phase in ("warm", "mega"):
        comp = _compile(w.build(profile, device), mode)
        _, first = _first_call(comp.call, comp.inputs, sync)
        steady = stats.median([_timer(comp.call, comp.inputs, sync, 1) for _ in range(5)])
        out[f"compile_{phase}_s"] = max(first - steady, 0.0)
        if phase == "warm":  # compiled, without an eager copy beside it
            out["peak_memory_bytes"], out["memory_kind"] = _peak_memory(device)
        return out

    eager = w.build(profile, device)
    ref = eager.call(*eager.inputs)
    ref_grads = [g.clone() for g in eager.grads()]
    out["eager_peak_memory_bytes"], out["memory_kind"] = _peak_memory(device)
    out["flops_per_call"] = _flops(eager, device)
    if w.extra.get("traffic"):
        out["eager_bytes_per_call"] = _eager_bytes(eager)
    if mode == "eager":
        [out["samples_s"]] = _interleaved_samples([eager.call], eager.inputs, sync, cfg, cfg["budget_s"])
        out["peak_memory_bytes"] = out.pop("eager_peak_memory_bytes")
        return out
    comp = _compile(w.build(profile, device), mode)
    got, out["first_call_s"] = _first_call(comp.call, comp.inputs, sync)
    out["peak_memory_bytes"], _ = _peak_memory(device)  # cold process; the warm one replaces it
    errors = [_max_errors(got, ref)] + ([_max_errors(comp.grads(), ref_grads)] if ref_grads else [])
    out["max_abs_err"] = max(e[0] for e in errors)
    out["max_rel_err"] = max(e[1] for e in errors)
    out["status"] = "ok" if out["max_rel_err"] <= w.tolerance else "mismatch"
    if out["status"] == "mismatch":
        what = "outputs or gradients" if ref_grads else "outputs"
        out["message"] = f"{what}: max relative error {out['max_rel_err']:.2e} > tolerance {w.tolerance:.0e}"
    if args.get("artifacts"):  # the compile artifacts of this cold run, for the Mega-Cache phase
        saved = torch.compiler.save_cache_artifacts()
        if saved is not None:
            Path(args["artifacts"]).write_bytes(saved[0])
    eager_s, comp_s = _interleaved_samples([eager.call, comp.call], eager.inputs, sync, cfg, 2 * cfg["budget_s"])
    out["samples_s"], out["eager_samples_s"] = comp_s, eager_s
    if args.get("timer_check"):
        for key, built in (("", comp), ("eager_", eager)):
            number = _calls_per_sample(built.call, built.inputs, sync, cfg["min_sample_s"])
            out[f"{key}timer_harness_s"], out[f"{key}timer_median_s"] = _timer_agreement(built, sync, threads, number)
    return out


def _child_main(argv: list[str]) -> int:
    args, out_path = json.loads(argv[0]), Path(argv[1])
    try:
        result = _child(args)
    except workloads.WorkloadUnavailable as e:
        result = {"status": "skipped", "message": str(e)}
    except Exception as e:  # the parent turns this into a status; the suite goes on
        import torch

        oom = isinstance(e, (torch.cuda.OutOfMemoryError, MemoryError))
        result = {"status": "oom" if oom else "error",
                  "message": f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"}
    out_path.write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
