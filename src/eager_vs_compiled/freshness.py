"""When a record is fresh for this machine, and which of its modes a later run still owes (standard library only).

A record is *fresh* when its machine fingerprint, torch version, harness version and workload spec hash
all match, and no mode is missing or was skipped for the time budget.
"""

from __future__ import annotations

import dataclasses

from .records import Record

BUDGET_SKIP = "time budget"  # how a mode skipped for want of time begins its message


def unfinished(record: Record, modes) -> list[str]:
    """Modes of `modes` the record lacks or skipped for the time budget: a later run measures them."""
    return [m for m in modes if record.result(m) is None
            or (record.result(m).status == "skipped" and record.result(m).message.startswith(BUDGET_SKIP))]


def staleness(record: Record, machine: dict, torch_version: str, harness_version: int,
              spec_hash: str, modes: list[str] | tuple[str, ...] = ()) -> str | None:
    """None when the record is fresh for this machine; otherwise why it is stale."""
    missing = unfinished(record, modes)
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


def merge(previous: Record, new: Record, todo: list[str]) -> Record:
    """The previous record with the modes it owed (`todo`), newly measured in `new`, put in (the order of
    the previous one)."""
    measured = {r.mode: r for r in new.results if r.mode in todo}
    old_e, new_e = previous.result("eager"), new.result("eager")
    if "eager" not in todo and old_e is not None and new_e is not None and old_e.status == new_e.status == "ok":
        # eager ran again in the rounds of the new modes: its processes join the earlier ones, so the
        # baseline spans both windows
        measured["eager"] = dataclasses.replace(
            old_e, samples_s=old_e.samples_s + new_e.samples_s,
            processes=(old_e.processes or [{"n": len(old_e.samples_s)}]) + new_e.processes)
    order = [r.mode for r in previous.results] + [m for m in measured if previous.result(m) is None]
    new.results = [measured.get(m) or previous.result(m) for m in order]
    return new.finish()
