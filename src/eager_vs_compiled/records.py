"""The record schema: what one measurement of a workload holds, how it is read and checked.

A record is *fresh* for this machine when its machine fingerprint, torch version, harness version
and workload spec hash all match (`staleness`). A record that cannot be trusted raises RecordError
naming its file, so no number is ever rendered from it. Where records live: `store`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from . import stats

SCHEMA_VERSION = 2
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


@dataclass
class ModeResult:
    mode: str
    status: str
    message: str = ""
    samples_s: list[float] = field(default_factory=list)  # steady-state seconds per call
    eager_samples_s: list[float] = field(default_factory=list)  # eager, interleaved, same process
    median_s: float | None = None
    iqr_s: float | None = None
    n: int = 0
    noisy: bool = False
    speedup: float | None = None  # eager median / this median, same process
    first_call_s: float | None = None
    compile_cold_s: float | None = None
    compile_warm_s: float | None = None
    compile_mega_s: float | None = None  # fresh process, empty cache, Mega-Cache artifacts loaded
    breakeven_iters: float | None = None
    peak_memory_bytes: int | None = None
    memory_kind: str | None = None  # "process_peak_rss" | "cuda_max_allocated"
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

    @property
    def eager_median_s(self) -> float | None:
        """Median of the eager samples taken beside this mode (same process), if any."""
        return stats.median(self.eager_samples_s) if self.eager_samples_s else None

    def finish(self, items_per_call: int) -> "ModeResult":
        """Fill the derived fields from the raw samples (one place computes them)."""
        if self.samples_s:
            s = stats.summarize(self.samples_s)
            self.median_s, self.iqr_s, self.n, self.noisy = s["median_s"], s["iqr_s"], s["n"], s["noisy"]
            self.throughput = items_per_call / self.median_s if self.median_s > 0 else None
            if self.flops_per_call:
                self.tflops = self.flops_per_call / self.median_s / 1e12
            if self.first_call_s is not None:
                # gpt-fast's convention: compile time = first call minus a steady-state call.
                self.compile_cold_s = max(self.first_call_s - self.median_s, 0.0)
        if self.samples_s and self.eager_samples_s:
            eager = self.eager_median_s
            self.speedup = eager / self.median_s
            self.breakeven_iters = stats.breakeven_iterations(self.compile_cold_s, eager, self.median_s)
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

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=1, sort_keys=False, allow_nan=False) + "\n"


def _check_result(path: Path, raw: dict) -> ModeResult:
    names = {f.name for f in dataclasses.fields(ModeResult)}
    unknown = set(raw) - names
    if unknown or "mode" not in raw or "status" not in raw:
        raise RecordError(path, f"result has unknown or missing fields {sorted(unknown) or ['mode/status']}")
    r = ModeResult(**raw)
    if r.status not in STATUSES:
        raise RecordError(path, f"mode {r.mode!r} has unknown status {r.status!r}")
    for s in r.samples_s + r.eager_samples_s:
        if not isinstance(s, (int, float)) or not math.isfinite(s) or s <= 0:
            raise RecordError(path, f"mode {r.mode!r} has an invalid sample {s!r}")
    if r.samples_s:
        # The stored median must be the median of the stored samples: a hand-edited or
        # truncated record would otherwise render a number nobody measured.
        if r.median_s is None or not math.isclose(r.median_s, stats.median(r.samples_s), rel_tol=1e-9):
            raise RecordError(path, f"mode {r.mode!r}: median_s does not match its samples")
    elif r.status == "ok":
        raise RecordError(path, f"mode {r.mode!r} is 'ok' but has no samples")
    return r


def load(path: os.PathLike | str) -> Record:
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError(path, f"cannot read JSON ({e})") from None
    if not isinstance(raw, dict):
        raise RecordError(path, "top level is not an object")
    if raw.get("schema") != SCHEMA_VERSION:
        raise RecordError(path, f"unknown schema version {raw.get('schema')!r} "
                                f"(this harness reads {SCHEMA_VERSION})")
    names = {f.name for f in dataclasses.fields(Record)}
    missing = names - set(raw) - {"schema"}
    if missing or set(raw) - names:
        raise RecordError(path, f"missing fields {sorted(missing)}, unknown {sorted(set(raw) - names)}")
    if not isinstance(raw["results"], list) or not all(isinstance(r, dict) for r in raw["results"]):
        raise RecordError(path, "'results' is not a list of objects")
    raw["results"] = [_check_result(path, r) for r in raw["results"]]
    return Record(**raw)


def staleness(record: Record, machine: dict, torch_version: str, harness_version: int,
              spec_hash: str, modes: list[str] | tuple[str, ...] = ()) -> str | None:
    """None when the record is fresh for this machine; otherwise why it is stale."""
    missing = [m for m in modes if record.result(m) is None]
    if missing:
        return f"modes {missing} not measured"
    checks = [
        (record.machine.get("fingerprint"), machine["fingerprint"], "machine fingerprint"),
        (record.versions.get("torch"), torch_version, "torch version"),
        (record.harness_version, harness_version, "harness version"),
        (record.spec_hash, spec_hash, "workload spec"),
    ]
    for old, new, what in checks:
        if old != new:
            return f"{what} changed ({old} → {new})"
    return None
