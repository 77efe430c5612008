"""The claims page: one line of measured evidence per claim, from this machine's records."""

from __future__ import annotations

from .. import measure, workloads
from .provenance import best, esc, fmt_bytes, fmt_time, shown


def evidence(workload_name: str, what: str = "speedup", mode: str | None = None) -> str:
    """A speedup, the compile time or the peak memory of one compiled mode (default: the fastest),
    with where it was measured."""
    rec = measure.ensure_record(workload_name)
    r = rec.result(mode) if mode else best(rec)
    where = (f"measured on `{rec.machine.get('slug')}`, {rec.date[:10]}, torch {rec.versions.get('torch')}, "
             f"[table](../benchmarks/{workloads.get(workload_name).family}.md)")
    if r is None or r.status != "ok":
        status = r.status if r is not None else "no compiled mode finished"
        return f"{esc(rec.title)}: **{esc(status)}**, not measured ({where}){shown(rec).strip()}"
    if what == "speedup":
        value = f"**{r.speedup:.2f}×** with `{r.mode}` (eager {fmt_time(r.eager_median_s)} → {fmt_time(r.median_s)})"
    elif what == "compile":
        value = f"compile **{fmt_time(r.compile_cold_s)}** cold, {fmt_time(r.compile_warm_s)} warm (`{r.mode}`)"
    elif what == "memory":
        eager = rec.result("eager")
        value = (f"peak memory eager {fmt_bytes(eager.peak_memory_bytes if eager else None)}, "
                 f"`{r.mode}` {fmt_bytes(r.peak_memory_bytes)}"
                 + (" (process peak RSS; the compiled process ran from a warm cache)"
                    if r.memory_kind == "process_peak_rss" else ""))
    else:
        raise ValueError(f"unknown evidence kind {what!r}: speedup, compile or memory")
    return f"{esc(rec.title)}: {value}; {where}{shown(rec).strip()}"
