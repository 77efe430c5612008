"""The home page: the answer on this machine in one table and one chart."""

from __future__ import annotations

from .. import workloads
from ..records import ModeResult, Record
from . import charts
from .context import current, fresh_record, measure_command
from .lang import tr, tr_known
from .provenance import (best, breakeven, code, esc, interval, machine_label, noise_floor, ranked, speedup, verdict,
                         fmt_time, machine_words, shown, span)
from .recipe import level, not_ahead_of


def siblings(name: str) -> list[str]:
    """The other workloads that measure the same model, sizes and step as `name` on this machine's
    profile (the recipes and the engines of a benchmark model): where a faster correct way may be."""
    w, profile = workloads.get(name), current().profile
    if not w.in_profile(profile):
        return []
    return [o.name for o in workloads.WORKLOADS.values()
            if o.name != name and o.builder == w.builder and (o.step, o.dtype, o.layout) == (w.step, w.dtype, w.layout)
            and o.in_profile(profile) and o.sizes[profile] == w.sizes[profile]]


def fastest(rec: Record) -> tuple[ModeResult | None, Record, list[Record]]:
    """The correct mode, recipe or engine with the largest speedup over its own eager, looked for in
    `rec` and in this machine's fresh records of its siblings: (the mode, the record it comes from,
    the sibling records that were read)."""
    others = [r for r in map(fresh_record, siblings(rec.workload)) if r]
    found = [(m, r) for r in [rec, *others] if (m := best(r)) is not None]
    top = max(found, key=lambda mr: mr[0].speedup, default=(None, rec))
    return top[0], top[1], others


def headline(names: list[str]) -> str:
    """A compact table: the fastest correct way to run each workload on this machine (a compile mode,
    a recipe or an engine, from the workload's record or a sibling's), with its speedup."""
    lines = [tr("| Workload | Eager | Best compiled or converted way measured here | Speedup | "
                "Compile or conversion (cold) | Break-even | From record |"), "|---|---|---|---|---|---|---|"]
    found = {name: fresh_record(name) for name in names}
    recs = [r for r in found.values() if r is not None]
    used: list[Record] = []
    for name, rec in found.items():
        if rec is None:
            lines.append(f"| {code(name)} | — | " + tr("not measured on this machine ({command})",
                                                      command=measure_command(name)) + " | — | — | — | — |")
            continue
        top, source, others = fastest(rec)
        if top is None:
            lines.append(f"| {esc(tr_known(rec.title))} | — | " + tr("no compiled mode finished") + " | — | — | — | — |")
            continue
        if source is not rec:
            used.append(source)
        tied = not_ahead_of(top, source, [(m, r) for r in [rec, *others] for m in ranked(r)], noise_floor([rec, *others]))
        used += [r for r in others if r is not source and any(t is r for _, t in tied)]
        qualifier = level(top, source, tied)
        lines.append(f"| {esc(tr_known(rec.title))} | {fmt_time(top.eager_median_s)} | {code(top.mode)} "
                     f"{fmt_time(top.median_s)}{qualifier} | "
                     f"{speedup(top)}: {verdict(top)} | "
                     f"{fmt_time(top.compile_cold_s)} | {breakeven(top)} | {code(source.workload)} |")
    if not recs:
        return "\n".join(lines) + "\n"
    when, _ = span(recs + used)
    v = recs[0].versions
    note = tr("Measured on {machine} · {when} · torch {torch} · Python {python} · sizes and sample counts per "
              "workload on the [benchmark page](benchmarks/index.md)", machine=machine_words(recs[0].machine),
              when=when, torch=esc(v.get("torch")), python=esc(v.get("python"))) + "\n{: .evc-provenance }\n"
    return "\n".join(lines) + "\n\n" + note + "".join(shown(r) for r in recs + used)


def speedup_chart(names: list[str]) -> str:
    """Inline SVG: speedup vs eager per workload and compiled mode on this machine."""
    recs = [r for r in map(fresh_record, names) if r is not None]
    if not recs:
        return tr("Not measured on this machine yet: `./evc.sh site` measures what is missing before it builds.") + "\n"
    rows = [(f"{r.workload} · {m.mode}", m.speedup if m.status == "ok" else None,
             interval(m) if m.status == "ok" else None) for r in recs for m in r.results if m.mode != "eager"]
    title = tr("Speedup of torch.compile over eager on {machine}; whiskers: 95% interval",
               machine=machine_label(recs[0].machine))
    return charts.bars(rows, title, tr("speedup vs eager (×)"),
                       "speedups-" + "-".join(names)) + "".join(shown(r) for r in recs)
