"""When a record is fresh for this machine, and which of its modes a later run still owes (standard library only).

A record is *fresh* when its machine fingerprint, torch version, harness version and workload spec hash
all match, and no mode is missing or was skipped for the time budget.
"""

from __future__ import annotations

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
