"""The record schema: what one measurement of a workload holds, how it is read and checked.

A record that cannot be trusted raises RecordError naming its file, so no number is ever rendered
from it. When a record is fresh: `freshness`; where records live: `store`."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import os
import re
from datetime import datetime
from dataclasses import dataclass, field
from pathlib import Path

from . import stats
from .fields import NUMBER as _NUMBER, bad_value as _bad_value, host_problem, processes_problem

SCHEMA_VERSION = 5
READS = (2, 3, 4, 5)  # read as they are: 2 (one process a mode) through process_samples, 3 without run_sd, 4 without host
STATUSES = ("ok", "mismatch", "error", "timeout", "oom", "crashed", "skipped")


class RecordError(Exception):
    """A record file that is missing fields, corrupt, or of an unknown schema."""

    def __init__(self, path: os.PathLike | str, reason: str):
        self.path = Path(path)
        super().__init__(f"bad measurement record {self.path}: {reason} "
                         "(delete it or re-measure with EVC_REMEASURE=1 / --force)")


class RecordWriteError(RecordError):
    """Records cannot be written where they belong (read-only folder, full disk)."""

    def __init__(self, path: os.PathLike | str, reason: str):
        self.path = Path(path)
        Exception.__init__(self, f"cannot write measurement records to {self.path}: {reason}. "
                                 "Make the folder writable, or set EVC_MEASUREMENTS to another folder")


def items_per_call(sizes) -> int:
    """Items one call processes (throughput's): its sizes' batch, else 1; for workloads and records alike."""
    items = sizes.get("batch", 1) if isinstance(sizes, dict) else 1
    return items if isinstance(items, int) and not isinstance(items, bool) and items > 0 else 1


@dataclass
class ModeResult:
    mode: str
    status: str
    message: str = ""
    samples_s: list[float] = field(default_factory=list)  # steady-state seconds per call, all processes in order
    eager_samples_s: list[float] = field(default_factory=list)  # eager interleaved with it, same processes (harness 2)
    # One entry per timing process, in the order they ran (harness 3): its share of samples_s ("n"),
    # of eager_samples_s ("eager_n", interleaved protocol only) and what can explain a slow process
    # (fields.PROCESS_FIELDS). Empty: one process holds all the samples (a schema-2 record).
    processes: list[dict] = field(default_factory=list)
    median_s: float | None = None
    iqr_s: float | None = None
    n: int = 0
    noisy: bool = False
    speedup: float | None = None  # eager's time / this mode's (stats.paired_point where eager ran beside it)
    first_call_s: float | None = None
    compile_cold_s: float | None = None
    compile_warm_s: float | None = None
    compile_mega_s: float | None = None  # fresh process, empty cache, Mega-Cache artifacts loaded
    breakeven_iters: float | None = None
    peak_memory_bytes: int | None = None
    memory_kind: str | None = None  # process_hwm (own peak RSS) | process_peak_rss (ru_maxrss: the parent's peak in it) | cuda_max_allocated
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    throughput: float | None = None  # items per second
    threads: int | None = None
    flops_per_call: int | None = None  # torch.utils.flop_counter, one eager call
    eager_bytes_per_call: int | None = None  # tensor bytes read + written by the aten ops of one eager call
    tflops: float | None = None  # flops_per_call / median_s / 1e12
    timer_median_s: float | None = None  # Timer.blocked_autorange, rounds alternating with the harness
    timer_harness_s: float | None = None  # the harness's own sampler in those same rounds
    wall_s: float | None = None  # how long measuring this mode took
    artifact_bytes: int | None = None  # an engine mode: the files a deployment ships (engines.py)
    run_sd: float | None = None  # the machine's run-to-run term its interval adds, when measured (reruns.py)
    host: dict | None = None  # slope, se, ref_s: its speedup set to the machine's usual speed (hosts.py)

    @staticmethod
    def _split(samples: list[float], counts: list[int]) -> list[list[float]]:
        return [samples[e - n:e] for n, e in zip(counts, itertools.accumulate(counts)) if n]

    def process_samples(self) -> list[list[float]]:
        """The samples of each timing process (one list when the record predates processes)."""
        if not self.processes:
            return [self.samples_s] if self.samples_s else []
        return self._split(self.samples_s, [p["n"] for p in self.processes])

    def eager_process_samples(self) -> list[list[float]]:
        """Eager's samples interleaved with this mode, per process (interleaved protocol only)."""
        if not self.eager_samples_s or not self.processes:
            return [self.eager_samples_s] if self.eager_samples_s else []
        return self._split(self.eager_samples_s, [p.get("eager_n", 0) for p in self.processes])

    def host_fit(self) -> stats.Host | None:
        return stats.Host(**self.host) if self.host else None

    def paired_processes(self) -> tuple[list[list[float]], list[list[float]]] | None:
        """(eager's series, this mode's), process by process, when eager ran beside it in several processes."""
        eager, mine = self.eager_process_samples(), self.process_samples()
        ok = len(mine) > 1 and len(eager) == len(mine) and all(len(e) == len(c) for e, c in zip(eager, mine))
        return (eager, mine) if ok else None

    @property
    def baseline(self) -> "ModeResult | None":
        """The eager result this mode's speedup divides (the record's own eager, timed in processes of
        its own); None when eager was timed beside this mode instead (eager_samples_s) or failed."""
        return getattr(self, "_baseline", None)

    @property
    def eager_median_s(self) -> float | None:
        """Eager's time per call that this mode is compared with: the eager timed beside it in its
        processes (interleaved protocol), else the record's eager, timed alone."""
        if self.eager_samples_s:
            return stats.process_point(self.eager_process_samples())
        return self.baseline.median_s if self.baseline is not None else None

    def finish(self, items_per_call: int, eager: "ModeResult | None" = None) -> "ModeResult":
        """Fill the derived fields from the raw samples (one place computes them). `eager`: the
        record's eager result, the baseline of a mode timed alone."""
        procs = self.process_samples()
        if procs:
            self.median_s = stats.process_point(procs)
            self.n = len(self.samples_s)
            # the spread that matters is between processes when there are several
            meds = [stats.median(p) for p in procs]
            self.iqr_s = stats.iqr(meds) if len(meds) >= 3 else stats.iqr(self.samples_s)
            self.noisy = self.median_s > 0 and self.iqr_s / self.median_s > stats.NOISY_IQR_FRACTION
            self.throughput = items_per_call / self.median_s if self.median_s > 0 else None
            if self.flops_per_call:
                self.tflops = self.flops_per_call / self.median_s / 1e12
            if self.first_call_s is not None:  # the first call ran in the first (cold) process
                self.compile_cold_s = stats.compile_seconds(self.first_call_s, stats.median(procs[0]))
        if self.mode != "eager" and eager is not None and not self.eager_samples_s \
                and eager.status == "ok" and eager.median_s:
            self._baseline = eager
        base, paired = self.eager_median_s, self.paired_processes()
        if procs and base and self.status == "ok" and self.mode != "eager":  # a mode off eager earns no speedup
            self.speedup = stats.paired_point(*paired, self.host_fit()) if paired else base / self.median_s
            self.breakeven_iters = stats.breakeven_iterations(self.compile_cold_s, base, self.median_s)
        return self


@dataclass
class Record:
    workload: str
    title: str
    profile: str
    device: str
    spec: dict
    spec_hash: str
    harness_version: int
    machine: dict
    versions: dict
    date: str
    git_commit: str | None
    results: list[ModeResult]
    schema: int = SCHEMA_VERSION

    def result(self, mode: str) -> ModeResult | None:
        return next((r for r in self.results if r.mode == mode), None)

    def finish(self) -> "Record":
        """Derived fields of every result: eager first, the baseline of the modes timed alone."""
        items, eager = items_per_call(self.spec.get("sizes")), self.result("eager")
        for r in sorted(self.results, key=lambda r: r is not eager):  # eager first (stable sort)
            r.finish(items, None if r is eager else eager)
        return self

    @property
    def processes_per_mode(self) -> int:
        """Timing processes of each mode (the fewest of the modes that ran): 1 in a harness-2 record."""
        counts = [len(r.process_samples()) for r in self.results if r.samples_s]
        return min(counts) if counts else 0

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=1, sort_keys=False, allow_nan=False) + "\n"


# A record is input (it may come from anyone's fork): every field is checked for its type and range,
# and the figures derived from the samples are computed again on load, never taken from the file.
_RESULT_FIELDS = {
    "mode": str, "status": str, "message": str, "samples_s": list, "eager_samples_s": list,
    "median_s": _NUMBER, "iqr_s": _NUMBER, "n": int, "noisy": bool, "speedup": _NUMBER,
    "first_call_s": _NUMBER, "compile_cold_s": _NUMBER, "compile_warm_s": _NUMBER, "compile_mega_s": _NUMBER,
    "breakeven_iters": _NUMBER, "peak_memory_bytes": int, "memory_kind": str, "max_abs_err": _NUMBER,
    "max_rel_err": _NUMBER, "throughput": _NUMBER, "threads": int, "flops_per_call": int,
    "eager_bytes_per_call": int, "tflops": _NUMBER, "timer_median_s": _NUMBER, "timer_harness_s": _NUMBER,
    "wall_s": _NUMBER, "artifact_bytes": int, "processes": list, "run_sd": _NUMBER,
    "host": dict,
}
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_NOT_NULL = ("message", "samples_s", "eager_samples_s", "processes")  # fields the pages use without a None check
_DERIVED = ("median_s", "iqr_s", "n", "noisy", "speedup", "throughput", "tflops", "compile_cold_s", "breakeven_iters")
_RECORD_FIELDS = {"workload": str, "title": str, "profile": str, "device": str, "spec": dict, "spec_hash": str,
                  "harness_version": int, "machine": dict, "versions": dict, "date": str, "git_commit": str,
                  "results": list, "schema": int}
MEMORY_KINDS = ("process_hwm", "process_peak_rss", "cuda_max_allocated")


def _check_result(path: Path, raw: dict) -> ModeResult:
    unknown = set(raw) - set(_RESULT_FIELDS)
    if unknown or not isinstance(raw.get("mode"), str) or not isinstance(raw.get("status"), str):
        raise RecordError(path, f"result has unknown or missing fields {sorted(unknown) or ['mode/status']}")
    mode = raw["mode"]
    for name, kind in _RESULT_FIELDS.items():
        why = _bad_value(raw.get(name), kind)
        if name in _NOT_NULL and name in raw and raw[name] is None:
            why = f"null is not a {kind.__name__}"
        if why:
            raise RecordError(path, f"mode {mode!r}: {name}: {why}")
    if raw["status"] not in STATUSES:
        raise RecordError(path, f"mode {mode!r} has unknown status {raw['status']!r}")
    if raw.get("memory_kind") not in (None, *MEMORY_KINDS):
        raise RecordError(path, f"mode {mode!r}: unknown memory_kind {raw['memory_kind']!r}")
    for name in ("samples_s", "eager_samples_s"):
        for s in raw.get(name, []):
            if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s <= 0:
                raise RecordError(path, f"mode {mode!r}: {name}: invalid sample {s!r} (seconds, finite, > 0)")
    for why in (processes_problem(raw), (h := host_problem(raw.get("host"))) and f"host: {h}"):
        if why:
            raise RecordError(path, f"mode {mode!r}: {why}")
    r = ModeResult(**{k: v for k, v in raw.items() if k not in _DERIVED})  # derived: computed later
    if not r.samples_s and r.status == "ok":
        raise RecordError(path, f"mode {mode!r} is 'ok' but has no samples")
    return r


def load(path: os.PathLike | str) -> Record:
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError(path, f"cannot read JSON ({e})") from None
    if not isinstance(raw, dict):
        raise RecordError(path, "top level is not an object")
    schema = raw.get("schema")
    if schema not in READS or isinstance(schema, bool):
        newer = isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA_VERSION
        raise RecordError(path, f"{'newer' if newer else 'unknown'} schema version {schema!r} (this harness "
                                f"reads {', '.join(map(str, READS))}"
                          + ("; upgrade eager-vs-compiled to read it)" if newer else ")"))
    missing = set(_RECORD_FIELDS) - set(raw) - {"schema"}
    if missing or set(raw) - set(_RECORD_FIELDS):
        raise RecordError(path, f"missing fields {sorted(missing)}, unknown {sorted(set(raw) - set(_RECORD_FIELDS))}")
    for name, kind in _RECORD_FIELDS.items():
        why = _bad_value(raw[name], kind) or (None if raw[name] is not None or name == "git_commit" else "null")
        if why:
            raise RecordError(path, f"{name}: {why}")
    if not isinstance(raw["machine"].get("slug"), str) or not isinstance(raw["versions"].get("torch"), str):
        raise RecordError(path, "machine.slug and versions.torch must be strings")
    for name, value in (("machine.slug", raw["machine"]["slug"]), ("workload", raw["workload"])):
        if not _PLAIN_NAME.fullmatch(value) or ".." in value:  # each names a folder or a file of the site's data
            raise RecordError(path, f"{name}: {value!r} is not a plain name (letters, digits, '.', '_', '-')")
    try:
        datetime.fromisoformat(raw["date"])
    except ValueError:
        raise RecordError(path, f"date: {raw['date']!r} is not an ISO date") from None
    if not all(isinstance(r, dict) for r in raw["results"]):
        raise RecordError(path, "'results' is not a list of objects")
    raw["results"] = [_check_result(path, r) for r in raw["results"]]
    return Record(**raw).finish()
