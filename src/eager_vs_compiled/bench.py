"""The benchmark pages: overview charts, family tables, pointwise sweep, methodology check, roofline.

Everything here renders records (this machine's, measured now when missing or stale, and the
committed records of other machines); nothing is typed. Called from markdown-exec blocks.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from pathlib import Path

from . import charts, machine, measure, peaks, records, render, store, workloads
from .records import Record
from .render import fmt_bytes, fmt_time

PAGE = {f: f"{f}.md" for f in workloads.FAMILIES}
TIMER_AGREEMENT = 0.05  # harness median vs Timer.blocked_autorange median, CPU


def _tab(label: str, body: str) -> str:
    return f'=== "{label}"\n\n    ' + body.replace("\n", "\n    ") + "\n"


def records_by_machine(names: list[str]) -> dict[str, list[Record]]:
    """slug -> records of `names` (this machine first, measured now if in its profile)."""
    me = machine.describe()["slug"]
    profile = workloads.default_profile()
    out: dict[str, list[Record]] = defaultdict(list)
    for name in names:
        if workloads.get(name).in_profile(profile):
            out[me].append(render._shown_record(measure.ensure_record(name)))
        for rec in store.records_for(name):
            if rec.machine.get("slug") != me:
                out[rec.machine["slug"]].append(render._shown_record(rec))
    return dict(sorted(out.items(), key=lambda kv: kv[0] != me))


def _label(slug: str, recs: list[Record]) -> str:
    tag = "this build" if slug == machine.describe()["slug"] else "committed"
    return f"{machine.label(recs[0].machine)} ({tag})"


def _span(recs: list[Record]) -> tuple[str, str]:
    """(the day or range of days the records were measured, their torch versions)."""
    dates = sorted({r.date[:10] for r in recs})
    torch_v = ", ".join(sorted({r.versions.get("torch", "?") for r in recs}))
    return (dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"), torch_v


def _stamp(recs: list[Record]) -> str:
    m = recs[0].machine
    when, torch_v = _span(recs)
    return (f"Measured on **{machine.label(m)}** (`{m.get('slug')}`) · {when} · torch {torch_v} · "
            f"{recs[0].profile} profile; conditions of each workload beside its table on its family page\n"
            "{: .evc-provenance }\n")


def family(name: str) -> str:
    """Every workload of a family: a heading, what it measures, one tab per machine."""
    out = []
    for w in workloads.family(name):
        out.append(f"## {w.title}\n\n{w.about} Workload `{w.name}`.\n\n{render.workload(w.name)}\n")
    return "\n".join(out)


def _roof(slug: str) -> dict | None:
    """This machine's measured peaks (measured now if missing), another machine's committed ones."""
    if slug == machine.describe()["slug"]:
        return peaks.ensure()
    return peaks.load(store.default_root(), slug)


def _ok(r) -> bool:
    return r is not None and r.status == "ok" and r.median_s is not None


def overview_speedups() -> str:
    """Speedup bars per workload and mode, one tab per machine."""
    by_machine = records_by_machine(list(workloads.WORKLOADS))
    out = []
    for slug, recs in by_machine.items():
        rows = [(f"{r.workload} · {m.mode}", m.speedup if _ok(m) else None)
                for r in recs for m in r.results if m.mode != "eager" and m.status != "skipped"]
        chart = charts.bars(rows, f"Speedup of torch.compile over eager, every workload, on {machine.label(recs[0].machine)}",
                            "speedup vs eager (×), same process; dashed line: eager", f"overview-{slug}")
        out.append(_tab(_label(slug, recs), chart + "\n" + _stamp(recs)))
    return "\n".join(out)


def overview_memory() -> str:
    by_machine = records_by_machine(list(workloads.WORKLOADS))
    out = []
    for slug, recs in by_machine.items():
        rows = []
        for r in recs:
            eager, best = r.result("eager"), render._best(r)
            if eager and best and eager.peak_memory_bytes and best.peak_memory_bytes:
                rows.append((f"{r.workload} ({best.mode})", eager.peak_memory_bytes / 2**20,
                             best.peak_memory_bytes / 2**20))
        kind = {m.memory_kind for r in recs for m in r.results if m.memory_kind}
        what = "process peak RSS" if kind == {"process_peak_rss"} else "peak CUDA memory allocated"
        chart = charts.paired_bars(rows, f"Peak memory, eager vs fastest compiled mode ({what}, MiB), on "
                                   f"{machine.label(recs[0].machine)}", f"MiB ({what})", f"memory-{slug}")
        out.append(_tab(_label(slug, recs), chart + "\n" + _stamp(recs)))
    return "\n".join(out)


def amortisation(name: str, mode: str = "default") -> str:
    out = []
    for slug, recs in records_by_machine([name]).items():
        rec = recs[0]
        r = rec.result(mode)
        if not _ok(r) or r.compile_cold_s is None:
            out.append(_tab(_label(slug, recs), f"`{mode}` was not measured here ({r.status if r else 'absent'})."))
            continue
        eager_s = r.eager_median_s
        chart = charts.amortisation(eager_s, r.median_s, r.compile_cold_s, r.breakeven_iters,
                                    f"{rec.title}: cumulative time of eager vs `{mode}` (cold compile first) on "
                                    f"{machine.label(rec.machine)}", f"amortise-{name}-{mode}-{slug}")
        be = (f"they cross after **{r.breakeven_iters:,.0f} calls**" if r.breakeven_iters
              else "the compiled line never catches up: compiled is not faster here")
        text = (f"Eager {fmt_time(eager_s)} per call; `{mode}` {fmt_time(r.median_s)} per call after a "
                f"{fmt_time(r.compile_cold_s)} cold compile ({fmt_time(r.compile_warm_s)} with a warm cache): {be}.")
        out.append(_tab(_label(slug, recs), chart + "\n" + text + "\n\n" + render.provenance(rec)))
    return "\n".join(out)


def compile_times() -> str:
    """Cold / warm / Mega-Cache compile time of every compiled mode, this machine and others."""
    out = []
    for slug, recs in records_by_machine(list(workloads.WORKLOADS)).items():
        lines = ["| Workload | Mode | Cold cache | Warm cache | Mega-Cache artifacts | Break-even |",
                 "|---|---|---|---|---|---|"]
        for r in recs:
            for m in r.results:
                if m.mode != "eager" and _ok(m):
                    be = f"{m.breakeven_iters:,.0f} calls" if m.breakeven_iters else "never (not faster)"
                    lines.append(f"| {r.title} | `{m.mode}` | {fmt_time(m.compile_cold_s)} | "
                                 f"{fmt_time(m.compile_warm_s)} | {fmt_time(m.compile_mega_s)} | {be} |")
        out.append(_tab(_label(slug, recs), "\n".join(lines) + "\n\n" + _stamp(recs)))
    return "\n".join(out)


def pointwise() -> str:
    """Time per call and effective bandwidth against the chain length N."""
    names = [w.name for w in workloads.family("pointwise")]
    out = []
    for slug, recs in records_by_machine(names).items():
        eager_pts, comp_pts = [], []
        lines = ["| N (eager kernels) | Eager time | Eager traffic | Eager GB/s | Compiled time | "
                 "Fused traffic (read + write once) | Compiled GB/s | Speedup |", "|---|---|---|---|---|---|---|---|"]
        for r in sorted(recs, key=lambda r: r.spec["sizes"]["depth"]):
            n, numel = r.spec["sizes"]["depth"], r.spec["sizes"]["numel"]
            c = r.result("default")
            e_s = c.eager_median_s if _ok(c) else None
            eager_bytes = next((m.eager_bytes_per_call for m in r.results if m.eager_bytes_per_call), None)
            fused = 2 * numel * 4
            if e_s:
                eager_pts.append((n, e_s * 1e3))
            if _ok(c):
                comp_pts.append((n, c.median_s * 1e3))
            gbs = (lambda b, s: f"{b / s / 1e9:.1f}" if b and s else "—")
            lines.append(f"| {n} | {fmt_time(e_s)} | {fmt_bytes(eager_bytes)} | {gbs(eager_bytes, e_s)} | "
                         f"{fmt_time(c.median_s if _ok(c) else None)} | {fmt_bytes(fused)} | "
                         f"{gbs(fused, c.median_s if _ok(c) else None)} | "
                         f"{f'{c.speedup:.2f}×' if _ok(c) else (c.status if c else '—')} |")
        chart = charts.lines({"eager": eager_pts, "compiled (default)": comp_pts},
                             f"Time per call vs chain length on {machine.label(recs[0].machine)}",
                             "N, elementwise ops in the chain", "ms per call", f"pointwise-{slug}")
        roof = _roof(slug)
        bw = f"This machine's measured copy bandwidth: **{roof['copy_gb_s']:.1f} GB/s**. " if roof else ""
        out.append(_tab(_label(slug, recs), chart + "\n" + "\n".join(lines) + "\n\n" + bw + _stamp(recs)))
    return "\n".join(out)


def timer_agreement() -> str:
    """Our harness's median vs torch.utils.benchmark's blocked_autorange, same process and inputs."""
    names = [w.name for w in workloads.WORKLOADS.values() if w.extra.get("timer_check")]
    out = []
    for slug, recs in records_by_machine(names).items():
        lines = ["| Workload | Mode | Harness | `Timer.blocked_autorange` | Difference | "
                 "Harness, main run (for reference) |", "|---|---|---|---|---|---|"]
        worst = 0.0
        for r in recs:
            for m in r.results:
                if _ok(m) and m.timer_median_s and m.timer_harness_s:
                    diff = (m.timer_harness_s - m.timer_median_s) / m.timer_median_s
                    worst = max(worst, abs(diff))
                    lines.append(f"| {r.title} | `{m.mode}` | {fmt_time(m.timer_harness_s)} | "
                                 f"{fmt_time(m.timer_median_s)} | {diff:+.1%} | {fmt_time(m.median_s)} |")
        verdict = (f"Largest difference: **{worst:.1%}**; tolerance {TIMER_AGREEMENT:.0%} — "
                   + ("the harness agrees with `Timer`." if worst <= TIMER_AGREEMENT else
                      "**outside** the tolerance: read the noisy flags in the tables before trusting "
                      "small differences on this machine."))
        out.append(_tab(_label(slug, recs), "\n".join(lines) + "\n\n" + verdict + "\n\n" + _stamp(recs)))
    return "\n".join(out)


def best_recipe(arch: str = "resnet50") -> str:
    """The highest throughput found per step (inference, training), with its share of the roof."""
    names = [w.name for w in workloads.WORKLOADS.values() if w.name.startswith(arch + "_")]
    out = []
    for slug, recs in records_by_machine(names).items():
        roof = _roof(slug)
        lines = ["| Step | Best recipe | Throughput | vs eager, same recipe | TFLOP/s | Share of measured matmul peak |",
                 "|---|---|---|---|---|---|"]
        points = []
        for step in workloads.STEPS:
            cands = [(m, r) for r in recs if r.spec["step"] == step for m in r.results if _ok(m)]
            if not cands:
                profiles = sorted({p for w in workloads.WORKLOADS.values() if w.name in names and w.step == step
                                   for p in workloads.PROFILES if w.in_profile(p)})
                lines.append(f"| {step} | not measured on this machine (in the {' and '.join(profiles)} "
                             f"profile) | — | — | — | — |")
                continue
            m, r = max(cands, key=lambda mr: mr[0].throughput or 0)
            dtype = "float32" if r.spec["dtype"] == "float32" else "bfloat16"
            peak = roof["matmul_tflops"].get(dtype) if roof else None
            share = f"{m.tflops / peak * 100:.0f} % of {peak:.3g} ({dtype})" if m.tflops and peak else "—"
            vs = f"{m.speedup:.2f}×" if m.speedup else "(eager is the best)"
            lines.append(f"| {step} | `{m.mode}`, {r.spec['dtype']}, {r.spec['layout']}, batch "
                         f"{r.spec['sizes'].get('batch')} | {m.throughput:,.1f} images/s | {vs} | "
                         f"{m.tflops:.3g} | {share} |" if m.tflops else f"| {step} | `{m.mode}` | "
                         f"{m.throughput:,.1f} images/s | {vs} | — | — |")
            for mm in r.results:
                eb = next((x.eager_bytes_per_call for x in r.results if x.eager_bytes_per_call), None)
                if _ok(mm) and mm.tflops and eb and mm.mode in ("eager", m.mode):
                    points.append((f"{step} · {mm.mode}", mm.flops_per_call / eb, mm.tflops))
        body = "\n".join(lines) + "\n"
        counted = [(r, m) for r in recs if r.spec["step"] == "inference" for m in r.results if m.flops_per_call]
        if counted:
            r, m = counted[0]
            batch = r.spec["sizes"].get("batch", 1)
            body += (f"\nFLOP counter (`torch.utils.flop_counter`), one inference call of batch {batch}: "
                     f"{m.flops_per_call / 1e9:.1f} GFLOP, {m.flops_per_call / batch / 1e9:.2f} GFLOP per image.\n")
        if roof and points:
            dtype = "bfloat16" if "bfloat16" in roof["matmul_tflops"] else "float32"
            body += "\n" + charts.roofline(roof["matmul_tflops"][dtype], roof["copy_gb_s"], points,
                                           f"{arch} on the roofline of {machine.label(recs[0].machine)} "
                                           f"(roof: measured {dtype} matmul and copy bandwidth)", f"roof-{arch}-{slug}")
            body += (f"\nRoof measured on this machine on {roof['date'][:10]}: matmul "
                     + ", ".join(f"{k} {v:.3g} TFLOP/s" for k, v in roof["matmul_tflops"].items())
                     + f" ({roof['matmul_n']}² matrices), copy {roof['copy_gb_s']:.1f} GB/s "
                     f"({roof['copy_mib']} MiB, read + write).\n")
        out.append(_tab(_label(slug, recs), body + "\n" + _stamp(recs)))
    return "\n".join(out)



def machines() -> str:
    """Every machine and torch release under measurements/: who measured what, when.

    Reads the committed folders as they are (this machine's included, as far as it is measured).
    """
    root = store.default_root()
    me = machine.describe()["slug"]
    mine = store.release(machine.versions()["torch"])
    lines = ["| machine | folder | profile | workloads measured | dates | torch | files |",
             "|---|---|---|---|---|---|---|"]
    for slug in sorted(store.machines(root), key=lambda s: (s != me, s)):
        for rel in reversed(store.releases(root, slug)):
            recs = [records.load(store.path_for(root, slug, n, rel)) for n in store.workload_names(root, slug, rel)]
            if not recs:
                continue
            planned = len(workloads.in_profile(recs[0].profile))
            ok = sum(1 for r in recs if any(_ok(m) for m in r.results if m.mode != "eager"))
            when, torch_v = _span(recs)
            extra = f" + `{peaks.FILE}`" if peaks.load(root, slug, rel) else ""
            tag = ""
            if slug == me:
                tag = " (this build's machine and torch)" if rel == mine else " (this build's machine; history)"
            folder = store.release_dir(root, slug, rel).relative_to(root).as_posix()
            lines.append(f"| {machine.label(recs[0].machine)}{tag} | `{folder}/` | {recs[0].profile} | "
                         f"{ok} of {planned} with a compiled result | {when} | {torch_v} | "
                         f"{len(recs)} records{extra} |")
    if len(lines) == 2:
        return "No machine has committed records yet.\n"
    return "\n".join(lines) + "\n"


def _raw(value, nested: bool = False) -> str:
    """A field's value as the JSON file holds it, shortened: samples by count, floats to 4 digits."""
    if isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value):
        return f"{len(value)} values"
    if isinstance(value, list):
        return "[" + ", ".join(_raw(v, True) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{k}: {_raw(v, True)}" for k, v in value.items())
        return "{" + inner + "}" if nested else inner
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4g}"
    if value is None or value == "":
        return "null" if value is None else '""'
    return str(value).replace("|", "\\|")


def record_outline(name: str = "resnet50_infer_fp32", slug: str | None = None) -> str:
    """Every field of one committed record, as the file holds it, with one compiled mode's results.

    The rows come from the record's own fields, so a field added to the schema appears here too.
    """
    recs = store.records_for(name)
    if not recs:
        return f"No committed record of `{name}` yet.\n"
    slug = slug or machine.describe()["slug"]  # this build's machine where it has one, else the first
    rec = next((r for r in recs if r.machine.get("slug") == slug), recs[0])
    res = next((m for m in rec.results if m.mode != "eager" and _ok(m)), rec.results[0])
    where = store.release_dir(Path(), rec.machine.get("slug", "?"), store.release(rec.versions["torch"]))
    out = [f"`{where.as_posix()}/{name}.json` (units as stored: seconds, bytes):\n",
           "| field | value in this record |", "|---|---|"]
    for f in dataclasses.fields(rec):
        value = getattr(rec, f.name)
        if f.name == "results":
            out.append("| `results` | one entry per mode: " + ", ".join(f"`{m.mode}`" for m in value) + " |")
        else:
            out.append(f"| `{f.name}` | {_raw(value)} |")
    out += [f"| `results[{res.mode}].{f.name}` | {_raw(getattr(res, f.name))} |" for f in dataclasses.fields(res)]
    return "\n".join(out) + "\n"
