"""The table of one record: a row per mode, then its provenance line. Used by every benchmark page
and by `python -m eager_vs_compiled show`."""

from __future__ import annotations

from .. import stats
from ..records import ModeResult, Record
from .lang import tr
from .provenance import breakeven, cell, code, speedup, verdict, fmt_bytes, fmt_time, record_line

HEADER = ["Mode", "Median ± ½ IQR (n)", "Throughput", "Speedup vs eager", "Compile cold / warm",
          "Break-even", "Peak memory", "Max rel. error", "Status"]


def status(r: ModeResult) -> str:
    if r.status == "ok":
        return tr("ok ⚠ noisy") if r.noisy else "ok"
    msg = cell(r.message)[:160]
    return f"**{r.status}**: {msg}" if msg else f"**{r.status}**"


RSS_KINDS = ("process_hwm", "process_peak_rss")  # a CPU process's peak resident memory (records.MEMORY_KINDS)


def _memory(r: ModeResult) -> str:
    memory = fmt_bytes(r.peak_memory_bytes)
    return memory + " RSS" if r.memory_kind in RSS_KINDS and r.peak_memory_bytes is not None else memory


def row(r: ModeResult, items: str) -> list[str]:
    has_time = r.median_s is not None
    baseline = r.mode == "eager"
    if r.status == "mismatch":  # a wrong answer's speed is not a result: show why, not how fast
        why = tr("not shown: output differs from eager")
        return [code(r.mode), why, "—", "—", "—", "—", _memory(r),
                "—" if r.max_rel_err is None else f"**{r.max_rel_err:.1e}**", status(r)]
    return [
        code(r.mode),
        f"{fmt_time(r.median_s)} ± {fmt_time(r.iqr_s / 2)} (n={r.n})" if has_time else "—",
        (f"{r.throughput:,.1f} {items}/s" if r.throughput else "—")
        + (f" ({r.tflops:.3g} TFLOP/s)" if r.tflops else ""),
        tr("1× (baseline)") if baseline and has_time else (
            tr("{speedup}: {verdict} (eager {eager})", speedup=speedup(r), verdict=verdict(r),
               eager=fmt_time(r.eager_median_s)) if r.speedup else "—"),
        "—" if baseline else f"{fmt_time(r.compile_cold_s)} / {fmt_time(r.compile_warm_s)}"
        + (f" / {fmt_time(r.compile_mega_s)} Mega-Cache" if r.compile_mega_s is not None else ""),
        breakeven(r),
        _memory(r),
        "—" if r.max_rel_err is None else f"{r.max_rel_err:.1e}",
        status(r),
    ]


def table(record: Record, page: bool = True) -> str:
    """One Markdown table of a record, then its provenance line (styled and marked on a page)."""
    items = record.spec.get("items", "calls")
    lines = ["| " + " | ".join(tr(h) for h in HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row(r, items)) + " |" for r in record.results]
    text = "\n".join(lines) + "\n\n" + eager_spread(record) + record_line(record, page) + "\n"
    if page:
        from .downloads import links

        text += "\n" + links(record)
    return text


def eager_spread(record: Record) -> str:
    """Say so when eager itself ran at different speeds in different processes."""
    eager = record.result("eager")
    if record.processes_per_mode >= 2 and eager is not None and eager.status == "ok" and eager.samples_s:
        medians = [stats.median(p) for p in eager.process_samples()]
        if max(medians) <= 1.1 * min(medians):
            return ""
        return tr("Eager's processes ran at {low} to {high} per call on this machine: the intervals, drawn over "
                  "processes, include that spread.", low=fmt_time(min(medians)), high=fmt_time(max(medians))) + "\n\n"
    medians = [r.median_s for r in record.results if r.mode == "eager" and r.median_s]
    medians += [r.eager_median_s for r in record.results if r.eager_samples_s]
    if len(medians) < 2 or max(medians) <= 1.1 * min(medians):
        return ""
    return tr("Eager's median differed between processes on this machine ({low} to {high}): compare each mode "
              "with the eager run beside it (the speedup), not absolute times across rows.",
              low=fmt_time(min(medians)), high=fmt_time(max(medians))) + "\n\n"
