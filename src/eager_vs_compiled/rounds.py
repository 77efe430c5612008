"""Rounds of fresh processes: how `measure` times the modes of one workload.

Each round starts one fresh interpreter per mode (per compiled mode when eager is timed beside each,
the `interleaved` protocol), in an order that turns by one mode each round, so that a slow window of
the machine falls on every mode and no mode always follows the same one. A compiled mode's first
process compiles cold, its second warm (the warm compile time), later ones from the same cache (an
engine: from the artifact the first one saved). After ROUNDS_MIN rounds, another one while fewer than
ROUNDS_NARROW ran or some speedup's interval is wider than its target (TARGET_HALF_WIDTH, or near its
run-to-run term's width where that is wider; from ROUNDS_NARROW on, of those modes only), as long as that
mode's own extra rounds fit in EXTRA_BUDGET_S. The rounds are a generator that pauses after each, so a run
of several workloads can interleave them (schedule.py). Each process's entry in ModeResult.processes
gets the window's steal time and its wall time here. Standard library only.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

from . import engines, isolate, stats, workloads
from .records import ModeResult

Progress = Callable[[str], None]

HARNESS_VERSION = 6  # how records are measured: a record of another version is stale (freshness.py)
# A cheap workload whose processes differ by a few percent needs about twenty of them to narrow to the target
# (tiny_op's log ratios: s of 3-4 % between processes; twenty is pyperf's default number of worker processes, its
# doc/runner.rst), in a noisy window more: pointwise_08's spread 3-6 % on 2026-12-07 04:27, stopped at a 90 s budget
# after twelve at +-2.7 %, its runs within 0.6 %; on the AMD machine (its processes' ratios 3.7 % apart, term +-0.73 %)
# some thirty-five, where 180 s stopped it at 25-28 processes at +-2.0-2.1 % in each of eight runs (2026-12-07).
ROUNDS_MIN = 3
ROUNDS_MAX = 40
# A workload is "narrow enough" only from this many rounds on: the spread of three or four processes is
# itself so uncertain that stopping as soon as it looks small picks runs whose processes happened to agree
# (2026-12-06: tiny_op stopped after three at ±2.0 %, its processes differing by 3-5 %).
ROUNDS_NARROW = 5
TARGET_HALF_WIDTH = 0.02
# As narrow as the machine allows: a mode whose term alone (reruns.py; the tiny op's on the reference machine
# about ±1.1 %) is about as wide stops within TERM_SLACK of its width (processes add at most 44 % of its variance).
TERM_SLACK = 1.2
EXTRA_BUDGET_S = {"cpu": 300.0, "gpu": 30.0}  # per compiled mode still wide
# A run of several workloads starts rounds beyond ROUNDS_MIN only while they end within its aim, counted
# from its start (schedule.aim; EVC_AIM_S sets another): the cpu suite's fourteen workloads, each wide
# mode with its own budget, had done eight after 37 min (2026-12-07, the reference machine), where their
# ROUNDS_MIN rounds alone took about fourteen (the processes of the suite's records of that night). Where
# the aim stops a workload, its interval is as wide as its processes say; a calibration ends long before.
RUN_AIM_S = {"cpu": 17 * 60.0, "gpu": 10 * 60.0}
PROTOCOLS = ("alone", "interleaved", "idle")
# Protocols where eager is timed in the mode's own processes: beside it sample by sample (interleaved),
# or first, with the mode loaded and idle, then the mode (idle: the interference experiment).
BESIDE = ("interleaved", "idle")

# glibc's malloc, left to itself, picks per process whether a freed block of a few MB goes back to the OS
# (mmap threshold and heap trimming adapt to the first frees): one fresh process then page-faults through
# every new tensor on each call and runs several times slower than its twin. Fixed thresholds make every
# process alike; PyTorch's own CPU launcher (torch/backends/xeon/run_cpu.py) swaps the allocator for
# tcmalloc or jemalloc for the same reason. A GLIBC_TUNABLES of the caller's own comes last and wins.
MMAP_THRESHOLD = 32 * 1024 * 1024  # where glibc's own dynamic threshold stops rising on 64-bit (mallopt(3))
TRIM_THRESHOLD = 4 * 1024 ** 3
# Where the kernel gives huge pages only to memory that asks for them (transparent_hugepage "madvise", as
# on the reference machine), a large tensor lives on 4 KiB pages, and a memory-bound chain's eager time
# differs much from one fresh process to the next: nine processes of pointwise_08 there timed eager at
# 6.8-9.3 ms, speedups 7.6-9.7x; with huge pages 6.0-6.7 ms, 7.5-7.8x (2026-12-06, round-robin, one
# window). PyTorch's CPU allocator asks for huge pages for its buffers of 2 MiB and more when
# THP_MEM_ALLOC_ENABLE is 1 (c10/core/impl/alloc_cpu.cpp, pytorch#107697); a caller's own value wins.
THP_ENV = "THP_MEM_ALLOC_ENABLE"


def allocator_env(own: bool = False) -> dict:
    """The environment of a timing process's allocators: glibc's malloc thresholds fixed (ignored off
    glibc) and PyTorch's huge pages asked for (ignored off Linux); `own`: the harness's alone."""
    ours = f"glibc.malloc.mmap_threshold={MMAP_THRESHOLD}:glibc.malloc.trim_threshold={TRIM_THRESHOLD}"
    theirs = None if own else os.environ.get("GLIBC_TUNABLES")
    thp = (None if own else os.environ.get(THP_ENV)) or "1"
    return {"GLIBC_TUNABLES": f"{ours}:{theirs}" if theirs else ours, THP_ENV: thp}


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


def _cache_env(folder: str) -> dict:
    return {"TORCHINDUCTOR_CACHE_DIR": folder, "TRITON_CACHE_DIR": os.path.join(folder, "triton"), **allocator_env()}


def _cpu_times() -> tuple[int, int] | None:
    """(all jiffies, steal jiffies) of the machine so far, from /proc/stat; None off Linux."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return sum(fields[:8]), (fields[7] if len(fields) > 7 else 0)


def _steal(before, after) -> float | None:
    """The share of the machine's CPU time a hypervisor took from it between two _cpu_times."""
    if before is None or after is None or after[0] <= before[0]:
        return None
    return (after[1] - before[1]) / (after[0] - before[0])


def _process(args: dict, env: dict, timeout: float) -> dict[str, ModeResult]:
    """One timing process: its results, with the window's steal and wall time added to its entry."""
    t0, cpu0 = time.perf_counter(), _cpu_times()
    got = _run_child(args, env, timeout)
    wall, steal = time.perf_counter() - t0, _steal(cpu0, _cpu_times())
    for r in got.values():
        for proc in r.processes:
            proc["wall_s"] = wall
            if steal is not None:
                proc["steal"] = steal
    return got


class _Mode:
    """One mode of a workload across its rounds: its cache, its artifacts, its growing result."""

    def __init__(self, w: workloads.Workload, args: dict, folder: str, protocol: str, run_sd: float | None = None,
                 host: dict | None = None):
        self.w, self.mode, self.folder, self.protocol = w, args["mode"], folder, protocol
        self.run_sd = run_sd if self.mode != "eager" else None  # the machine's run-to-run term (terms.py)
        self.host = host if self.mode != "eager" else None  # its speedup at the usual speed (hosts.py)
        self.args = {**args, "protocol": protocol}
        if engines.of(self.mode):  # an engine's artifact: saved by the cold process, loaded by later ones
            self.args["engine_dir"] = os.path.join(folder, "engine")
        self.artifacts = (os.path.join(folder, "mega", "artifacts.bin")
                          if w.megacache and self.mode == "default" else None)
        self.result: ModeResult | None = None
        self.eager_beside: ModeResult | None = None  # interleaved protocol: eager from these processes
        self.done = False  # failed, mismatched, timed out, or its budget spent: no more rounds

    def phase(self, rnd: int) -> str:
        if self.mode == "eager" or rnd == 0:
            return "time"
        return "warm" if rnd == 1 and self.w.warm else "rerun"

    def run(self, rnd: int, timeout: float) -> None:
        phase = self.phase(rnd)
        args = {**self.args, "phase": phase, "first": rnd == 0}
        if phase == "time" and self.artifacts:
            os.makedirs(os.path.dirname(self.artifacts), exist_ok=True)
            args["artifacts"] = self.artifacts
        env = _cache_env(os.path.join(self.folder, "inductor"))
        got = _process(args, env, timeout)
        new = got[self.mode]
        if self.result is None:
            self.result = new
            new.run_sd, new.host = self.run_sd, self.host
            self.eager_beside = got.get("eager") if self.mode != "eager" else None
            self.done = new.status != "ok"
            return
        if new.status != "ok":  # a later process failed: the earlier ones stand, the reason is said
            self.result.message = (self.result.message + f" {phase} process {rnd + 1}: {new.status}: "
                                   f"{new.message}").strip()
            self.done = True
            return
        r = self.result
        r.samples_s, r.eager_samples_s = r.samples_s + new.samples_s, r.eager_samples_s + new.eager_samples_s
        r.processes = r.processes + new.processes
        if phase == "warm":
            r.compile_warm_s = new.compile_warm_s
            r.peak_memory_bytes = new.peak_memory_bytes or r.peak_memory_bytes
        if self.eager_beside is not None and "eager" in got:
            e = self.eager_beside
            e.samples_s, e.processes = e.samples_s + got["eager"].samples_s, e.processes + got["eager"].processes

    def mega(self, timeout: float) -> None:
        if not (self.artifacts and os.path.exists(self.artifacts) and self.result and self.result.status == "ok"):
            return
        with tempfile.TemporaryDirectory(prefix="evc-inductor-") as empty:
            got = _run_child({**self.args, "phase": "mega", "artifacts": self.artifacts}, _cache_env(empty), timeout)
        self.result.compile_mega_s = got[self.mode].compile_mega_s


def half_width(eager: ModeResult, r: ModeResult, n: int = 400) -> float:
    """The relative half-width of a mode's speedup interval, with the run-to-run term its result carries,
    for the stop rule (the calibration's measure, stats.relative_half_width). Timed beside eager: the very
    interval the pages draw (t's quantiles, as many as theirs), so a mode stopped at the target is not
    shown a hair wider; apart: a quicker bootstrap of `n` draws."""
    e = r.eager_process_samples() or eager.process_samples()
    c = r.process_samples()
    if not e or not c:
        return 0.0
    paired, host = r.paired_processes() is not None, r.host_fit()  # with its host fit (hosts.py), if any
    draws = stats.speedup_draws(e, c, paired, stats.seeded_rng("stop", r.mode),
                                stats.BOOTSTRAP_RESAMPLES if paired else n, r.run_sd or 0.0, host)
    point = stats.speedup_point(e, c, paired, host)
    return stats.relative_half_width(point, *stats.interval_holding(point, draws))


def target(run_sd: float | None) -> float:
    """The half-width a mode is narrowed to: the target, or TERM_SLACK times its term's normal 95 %."""
    return max(TARGET_HALF_WIDTH, TERM_SLACK * statistics.NormalDist().inv_cdf(0.5 + stats.CONFIDENCE / 2) * (run_sd or 0.0))


def _still_wide(active: list[_Mode], eager: _Mode | None) -> list[_Mode]:
    """The modes another round should time (Kalibera & Jones: repeat where the variance is): each compiled
    mode whose interval is still wider than the target, and eager's own processes (timed alone) while one
    is; [] when every interval is narrow enough."""
    base = eager.result if eager is not None else None
    wide = []
    for m in active:
        if m.mode == "eager" or m.result is None:
            continue
        if base is None and not m.result.eager_samples_s:
            continue  # eager failed: no speedup to narrow
        if half_width(base, m.result) > target(m.result.run_sd):
            wide.append(m)
    return [m for m in active if m in wide or (m is eager and wide)]


def _last_s(m: _Mode) -> float:
    """What `m`'s next process should cost: its last one."""
    return m.result.processes[-1].get("wall_s", 0.0) if m.result is not None and m.result.processes else 0.0


def _affordable(active: list[_Mode], spent: dict[str, float], budget: float) -> list[_Mode]:
    """Of `active`, the compiled modes whose own extra rounds still fit `budget` with one more process
    (eager's own processes, timed alone, cost each of them a share), and eager's while one is: a workload
    of two wide modes does not spend one budget twice as fast (2026-12-07: the MLP's two modes stopped
    after nine rounds at +-2.2-2.9 % where its runs agreed within 1-2 %)."""
    compiled = [m for m in active if m.mode != "eager"]
    share = sum(_last_s(m) for m in active if m.mode == "eager") / max(1, len(compiled))
    keep = [m for m in compiled if spent.get(m.mode, 0.0) + _last_s(m) + share <= budget]
    return [m for m in active if m in keep or (m.mode == "eager" and keep)]


def _rounds(w: workloads.Workload, modes: dict[str, _Mode], profile: str, limit: float, say: Progress,
            deadline: float | None, rounds: int | None, aim: float | None = None) -> Iterator[None]:
    """Run the rounds: each a fresh process per mode, in an order that turns round by round, so that a
    slow window falls on every mode and no mode always follows the same one; beyond ROUNDS_MIN only
    rounds that end before the run's `aim` (time.monotonic()). A generator: it pauses after each round
    (schedule.interleave runs a round of every workload in turn)."""
    names = list(modes)
    spent: dict[str, float] = {}  # each compiled mode's extra rounds so far, in seconds
    eager = modes.get("eager")
    for rnd in range(rounds or ROUNDS_MAX):
        active = [modes[n] for n in names[rnd % len(names):] + names[:rnd % len(names)] if not modes[n].done]
        if not active:
            return
        if rounds is None and rnd >= ROUNDS_MIN:
            if rnd >= ROUNDS_NARROW and not (active := _still_wide(active, eager)):
                return
            if not any(m.mode != "eager" for m in active):
                return  # no compiled mode left: no speedup to narrow
            fit = _affordable(active, spent, EXTRA_BUDGET_S[profile])
            for m in active:
                if m not in fit and m.mode != "eager":  # out of budget: no more rounds, said once
                    say(f"{w.name} · {m.mode}: {rnd} rounds (its budget for more is spent)")
                    m.done = True
            cost, left = sum(_last_s(m) for m in fit), None if deadline is None else deadline - time.monotonic()
            if not fit or (left is not None and cost > left):
                return
            if aim is not None and time.monotonic() + cost > aim:
                say(f"{w.name}: {rnd} rounds (the run's time aim for rounds beyond {ROUNDS_MIN} is reached)")
                return
            active = fit
        took: dict[str, float] = {}
        for m in active:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:  # the budget is spent: what ran stands, nothing more starts
                say(f"{w.name}: the time budget is spent after {rnd} round(s)")
                return
            phase = m.phase(rnd)
            what = {"time": "cold compile, check, timing", "warm": "warm compile, check, timing",
                    "rerun": "from the cache, check, timing"}[phase] if m.mode != "eager" else "timing"
            say(f"{w.name} · round {rnd + 1} · {m.mode}: {what}")
            t0 = time.perf_counter()
            m.run(rnd, limit if left is None else min(limit, left))
            took[m.mode] = time.perf_counter() - t0
        if rnd >= ROUNDS_MIN:
            share = took.pop("eager", 0.0) / max(1, len(took))
            for mode, s in took.items():
                spent[mode] = spent.get(mode, 0.0) + s + share
        yield
