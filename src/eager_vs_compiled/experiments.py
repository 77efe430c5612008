"""The experiments' records read back: the calibration runs (every row of the rerun table), the
protocols and interference experiments' folders, the throughput records. Standard library and the
records layer only: the pages read them without the measuring code (calibrate.py, throughput.py
write them)."""

from __future__ import annotations

import itertools
import statistics
from pathlib import Path
from typing import NamedTuple

from datetime import datetime

from . import data, records, stats
from .terms import CALIBRATION, load_runs  # noqa: F401 (the experiments' names for them)

PROTOCOLS, INTERFERENCE = "protocols", "interference"
THROUGHPUT, FOOTPRINT = "throughput", "footprint"
FOOTPRINT_SCHEMA, FOOTPRINT_NUMBERS = 1, ("import_s", "load_s", "first_call_s", "call_s", "peak_rss_bytes")
FOOTPRINT_MODES = ("eager", "onnxruntime", "openvino")  # eager with torch; each engine with torch and without
EXPERIMENTS = {PROTOCOLS: ("alone", "interleaved"), INTERFERENCE: ("alone", "idle", "interleaved")}


class Row(NamedTuple):
    workload: str
    mode: str
    speedups: list[float]  # one per run, in run order
    half_width: float  # (high - low) / 2 / point, the median over the runs
    inside: int  # ordered pairs (i, j): run j's speedup inside run i's interval
    pairs: int
    overlap: int  # unordered pairs whose intervals overlap
    unordered: int
    spread: float  # max/min - 1 of the runs' speedups
    padded: int  # runs whose half-width exceeds max(2 %, spread)


PAD_FLOOR = 0.02


def rows(by_workload: dict[str, list[records.Record]], speedup=data.speedup) -> list[Row]:
    """One row per workload and mode; `speedup(record, mode)` gives each run's point and interval (the
    site's, or data.first_bootstrap_speedup for the comparison of intervals)."""
    out = []
    for name, recs in by_workload.items():
        modes = [r.mode for r in recs[0].results if r.mode != "eager"]
        for mode in modes:
            got = [speedup(rec, mode) if rec.result(mode) else None for rec in recs]
            if len(got) < 2 or any(g is None for g in got):
                continue
            points = [g.point for g in got]
            widths = [stats.relative_half_width(*g) for g in got]
            spread = max(points) / min(points) - 1
            inside = sum(got[i].low <= got[j].point <= got[i].high
                         for i, j in itertools.permutations(range(len(got)), 2))
            overlap = sum(got[i].low <= got[j].high and got[j].low <= got[i].high
                          for i, j in itertools.combinations(range(len(got)), 2))
            padded = sum(w > max(PAD_FLOOR, spread) for w in widths)
            n = len(got)
            out.append(Row(name, mode, points, statistics.median(widths), inside, n * (n - 1), overlap,
                           n * (n - 1) // 2, spread, padded))
    return out


class Totals(NamedTuple):
    inside: int
    pairs: int
    overlap: int
    unordered: int
    padded: int
    intervals: int  # one per run of each row


def totals(table: list[Row]) -> Totals:
    """The counts of a rerun table summed over its rows (its "all" line)."""
    return Totals(*(sum(getattr(r, k) for r in table) for k in Totals._fields[:-1]),
                  sum(len(r.speedups) for r in table))


def load_footprint(path: Path) -> dict:
    """A footprint record (footprint.py), validated: a record is input from anyone's fork."""
    import json
    import math

    try:
        rec = json.loads(Path(path).read_text(encoding="utf-8"))
        assert isinstance(rec, dict) and rec.get("schema") == FOOTPRINT_SCHEMA, "unknown schema"
        assert isinstance(rec["machine"].get("slug"), str) and isinstance(rec["versions"].get("torch"), str), "machine"
        assert records._PLAIN_NAME.fullmatch(rec["machine"]["slug"]) and ".." not in rec["machine"]["slug"], "slug"
        datetime.fromisoformat(rec["date"])
        for row in rec["rows"]:
            assert row["mode"] in FOOTPRINT_MODES and isinstance(row["torch"], bool), "mode"
            assert row["status"] in records.STATUSES and isinstance(row["message"], str), "status"
            for p in row["processes"]:
                assert all(isinstance(p[k], (int, float)) and not isinstance(p[k], bool) and math.isfinite(p[k])
                           and p[k] >= 0 for k in FOOTPRINT_NUMBERS), "a process's numbers"
    except (OSError, ValueError, KeyError, TypeError, AttributeError, AssertionError) as e:
        raise records.RecordError(path, f"not a footprint record ({type(e).__name__}: {e})") from None
    return rec
