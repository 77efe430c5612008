"""The home page: the answer on this machine in one table and one chart."""

from __future__ import annotations

from .. import measure
from . import charts
from .lang import tr, tr_known
from .provenance import (best, breakeven, code, esc, interval, machine_label, speedup, verdict, fmt_time, machine_words,
                         shown, span)


def headline(names: list[str]) -> str:
    """A compact table: the best compiled speedup per workload on this machine."""
    lines = [tr("| Workload | Eager (same process) | Best compiled | Speedup | Compile (cold) | Break-even |"),
             "|---|---|---|---|---|---|"]
    recs = [measure.ensure_record(name) for name in names]
    for rec in recs:
        fastest = best(rec)
        if fastest is None:
            lines.append(f"| {esc(tr_known(rec.title))} | — | " + tr("no compiled mode finished") + " | — | — | — |")
            continue
        lines.append(f"| {esc(tr_known(rec.title))} | {fmt_time(fastest.eager_median_s)} | {code(fastest.mode)} "
                     f"{fmt_time(fastest.median_s)} | {speedup(fastest)}: {verdict(fastest)} | "
                     f"{fmt_time(fastest.compile_cold_s)} | {breakeven(fastest)} |")
    when, _ = span(recs)
    v = recs[0].versions
    note = tr("Measured on {machine} · {when} · torch {torch} · Python {python} · sizes and sample counts per "
              "workload on the [benchmark page](benchmarks/index.md)", machine=machine_words(recs[0].machine),
              when=when, torch=esc(v.get("torch")), python=esc(v.get("python"))) + "\n{: .evc-provenance }\n"
    return "\n".join(lines) + "\n\n" + note + "".join(shown(r) for r in recs)


def speedup_chart(names: list[str]) -> str:
    """Inline SVG: speedup vs eager per workload and compiled mode on this machine."""
    recs = [measure.ensure_record(n) for n in names]
    rows = [(f"{r.workload} · {m.mode}", m.speedup if m.status == "ok" else None,
             interval(m) if m.status == "ok" else None) for r in recs for m in r.results if m.mode != "eager"]
    title = tr("Speedup of torch.compile over eager on {machine}; whiskers: 95% interval",
               machine=machine_label(recs[0].machine))
    return charts.bars(rows, title, tr("speedup vs eager (×)"),
                       "speedups-" + "-".join(names)) + "".join(shown(r) for r in recs)
