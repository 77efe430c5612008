"""How a record's values are checked (records.py reads them): a record is input, it may come from anyone's
fork, so every field is checked for its type and range. Each check says why a value is bad, or None.
Standard library only."""

from __future__ import annotations

import math

NUMBER = "number"  # int or float (never bool), finite
# What a timing process records (measure.py, child.py): all but n optional.
PROCESS_FIELDS = {
    "n": int, "eager_n": int, "phase": str, "threads": int, "os_threads": int, "affinity": list, "huge_bytes": int,
    "minflt": int, "majflt": int, "nivcsw": int, "steal": NUMBER, "wall_s": NUMBER, "protocol": str,
}
HOST_FIELDS = ("slope", "se", "ref_s")  # ModeResult.host (hosts.py)


def bad_value(value, kind) -> str | None:
    """Why `value` is not of `kind` (None is allowed everywhere but where the caller says)."""
    if value is None:
        return None
    if kind is NUMBER:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{value!r} is not a number"
        return None if math.isfinite(value) and value >= 0 else f"{value!r} is not a finite number >= 0"
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        return f"{value!r} is not an integer"
    if kind is int:
        return f"{value!r} is negative" if value < 0 else None
    return None if isinstance(value, kind) else f"{value!r} is not a {kind.__name__}"


def processes_problem(raw: dict) -> str | None:
    """What is wrong with a result's list of processes (PROCESS_FIELDS, and their counts of its samples)."""
    procs = raw.get("processes") or []
    for i, p in enumerate(procs):
        if not isinstance(p, dict) or set(p) - set(PROCESS_FIELDS) or not isinstance(p.get("n"), int):
            return f"process {i}: not an object of {sorted(PROCESS_FIELDS)} with n"
        for name, kind in PROCESS_FIELDS.items():
            if why := bad_value(p.get(name), kind):
                return f"process {i}: {name}: {why}"
    for name, key in (("samples_s", "n"), ("eager_samples_s", "eager_n")) if procs else ():
        counted = sum(p.get(key, 0) for p in procs)
        if counted != len(raw.get(name, [])):
            return f"its processes count {counted} {name}, the list has {len(raw.get(name, []))}"
    return None


def host_problem(host: dict | None) -> str | None:
    """What is wrong with a result's host fit: it holds slope (any finite number), se >= 0, ref_s > 0."""
    if host is None:
        return None
    if sorted(host) != sorted(HOST_FIELDS):
        return f"{host!r} does not hold exactly {', '.join(HOST_FIELDS)}"
    slope = host["slope"]
    why = bad_value(abs(slope) if isinstance(slope, (int, float)) and not isinstance(slope, bool) else slope, NUMBER)
    why = why or bad_value(host["se"], NUMBER) or bad_value(host["ref_s"], NUMBER)
    return f"{host!r}: {why}" if why else (None if host["ref_s"] else f"{host!r}: ref_s is 0")
