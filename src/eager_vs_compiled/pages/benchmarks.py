"""The benchmark pages: each workload's tables, the overview charts, compile times, the pointwise sweep.

Everything here renders records: this machine's fresh ones for the installed torch release (measured
by the `prepare` step before the build; a missing one is said to be missing, with its command) and
the committed records of other machines; nothing is typed, nothing is measured here.
"""

from __future__ import annotations

from collections import defaultdict

from .. import store, workloads
from . import charts
from .context import current, fresh_record, measure_command
from ..records import Record
from .provenance import (best, breakeven, code, direction, esc, fmt_bytes, fmt_time, interval, machine_label, ok, record_line,
                         skipped_note, speedup, stamp, tab, tab_label, this_machine, built_here)
from .lang import then, tr, tr_known
from .machines import roof
from .tables import RSS_KINDS, table

PAGE = {f: f"{f}.md" for f in workloads.FAMILIES} | {"engines": "compile-or-convert.md"}  # family -> its page


def records_by_machine(names: list[str]) -> dict[str, list[Record]]:
    """slug -> records of `names` (this machine's fresh one first, where it has one)."""
    me = this_machine()
    out: dict[str, list[Record]] = defaultdict(list)
    for name in names:
        mine = fresh_record(name)
        if mine is not None:
            out[me].append(mine)
        for rec in store.records_for(name, mine=me):
            # This machine's committed record that the build did not take as fresh (an on-demand workload
            # measured with an older harness or torch) is shown as what it is, as another machine's would be.
            if rec.machine.get("slug") != me or mine is None:
                out[rec.machine["slug"]].append(rec)
    return dict(sorted(out.items(), key=lambda kv: kv[0] != me))


def workload(name: str) -> str:
    """The section for one workload: every machine's table, each in its tab (this machine first).

    A workload outside this machine's profile shows the committed records of other machines, or
    says none exist yet."""
    w, profile = workloads.get(name), current().profile
    by_machine = records_by_machine([name])
    if not by_machine and w.scheduled(profile):  # this machine measures it on every build: say so
        return missing_here([name])
    if not by_machine:
        profiles = tr(" and ").join(p for p in workloads.PROFILES if w.in_profile(p))
        how = (measure_command(w.name) if w.in_profile(profile)
               else "`python -m eager_vs_compiled measure --profile gpu`")
        on_demand = not w.scheduled(profile) and w.in_profile(profile)
        text = tr("This workload is measured in the {profiles} profile only when asked for, and no machine has "
                  "committed a record of it yet ({how} writes one; see [add your machine](add-your-machine.md))."
                  if on_demand else
                  "This workload is in the {profiles} profile only, and no machine has committed a record of it "
                  "yet ({how} writes one; see [add your machine](add-your-machine.md)).", profiles=profiles, how=how)
        return f'!!! note "{tr("Not measured yet")}"\n    {text}\n'
    return missing_here([name]) + "\n".join(
        tab(tab_label(slug, recs), table(recs[0]) + history_note(recs[0]) + _older_note(slug, recs[0]))
        for slug, recs in by_machine.items()) + skipped_note(f"/{name}.json")


def missing_here(names: list[str]) -> str:
    """A note naming the workloads this machine measures on every build but has no fresh record of
    (the build reads, it does not measure), with the command that measures them; empty otherwise."""
    ctx = current()
    lacking = [n for n in names if workloads.get(n).scheduled(ctx.profile) and fresh_record(n) is None]
    if not lacking:
        return ""
    return (f'!!! warning "{tr("Not measured on this machine")}"\n    '
            + tr("{machine} has no fresh record of {names} for torch {torch}: `./evc.sh site` measures what is missing "
                 "before it builds, or {command}.", machine=f"`{ctx.slug}`", names=", ".join(f"`{n}`" for n in lacking),
                 torch=ctx.torch, command=measure_command(lacking[0]) if len(lacking) == 1
                 else "`./evc.sh measure`") + "\n\n")


def _older_note(slug: str, rec: Record) -> str:
    """Under this machine's committed record that the build did not measure again (on demand only)."""
    if slug != this_machine() or built_here(rec):
        return ""
    if workloads.get(rec.workload).scheduled(current().profile):
        return "\n" + tr("This machine's committed record, measured with harness {v} and torch {torch}, not the current "
                         "ones: shown as it is, as history, until `./evc.sh site` measures it again.",
                         v=rec.harness_version, torch=code(rec.versions.get("torch", "?"))) + "\n"
    return "\n" + tr("This machine's committed record, measured with harness {v} and torch {torch}, not the current "
                     "ones: shown as it is, as history. This workload is measured only when asked for: "
                     "`./evc.sh measure --workload {name}` measures it again.", v=rec.harness_version,
                     torch=code(rec.versions.get("torch", "?")), name=rec.workload) + "\n"


def history_note(rec: Record) -> str:
    """Other torch releases this machine measured the workload with, kept as history."""
    slug, shown_rel = rec.machine.get("slug", ""), store.release(rec.versions.get("torch", ""))
    older = [rel for rel in store.releases(None, slug) if rel != shown_rel
             and store.path_for(store.default_root(), slug, rec.workload, rel).exists()]
    if not older:
        return ""
    return "\n" + tr("This machine also measured it with torch {releases}, kept as history: "
                     "[torch releases compared](releases.md).", releases=", ".join(older)) + "\n"


def family(name: str) -> str:
    """Every workload of a family: a heading, what it measures, one tab per machine."""
    return "\n".join(f"## {tr(w.title)}\n\n{tr(w.about)}{then()}" + tr("Workload `{name}`.", name=w.name)
                     + f"\n\n{workload(w.name)}\n" for w in workloads.family(name))


def overview_speedups() -> str:
    """Speedup bars per workload and mode, one tab per machine."""
    out = []
    for slug, recs in records_by_machine(list(workloads.WORKLOADS)).items():
        rows = [(f"{r.workload} · {m.mode}", m.speedup if ok(m) else None, interval(m) if ok(m) else None)
                for r in recs for m in r.results if m.mode != "eager" and m.status != "skipped"]
        chart = charts.bars(rows, tr("Speedup of torch.compile over eager, every workload, on {machine}; "
                                     "whiskers: 95% interval; grey: no measurable difference", machine=machine_label(recs[0].machine)),
                            tr("speedup vs eager (×)"), f"overview-{slug}")
        out.append(tab(tab_label(slug, recs), chart + "\n" + stamp(recs)))
    return "\n".join(out)


def overview_memory() -> str:
    """Peak memory of eager beside the fastest compiled mode, one tab per machine."""
    out = []
    for slug, recs in records_by_machine(list(workloads.WORKLOADS)).items():
        rows = []
        for r in recs:
            eager, fastest = r.result("eager"), best(r)
            if eager and fastest and eager.peak_memory_bytes and fastest.peak_memory_bytes:
                rows.append((f"{r.workload} ({fastest.mode})", eager.peak_memory_bytes / 2**20,
                             fastest.peak_memory_bytes / 2**20))
        kind = {m.memory_kind for r in recs for m in r.results if m.memory_kind}
        what = tr("process peak RSS") if kind <= set(RSS_KINDS) else tr("peak CUDA memory allocated")
        chart = charts.paired_bars(rows, tr("Peak memory, eager vs fastest compiled mode ({what}, MiB), on {machine}",
                                            what=what, machine=machine_label(recs[0].machine)), f"MiB ({what})", f"memory-{slug}")
        out.append(tab(tab_label(slug, recs), chart + "\n" + stamp(recs)))
    return "\n".join(out)


def amortisation(name: str, mode: str = "default") -> str:
    """Cumulative time of eager and of a compiled mode, cold compile first: where they cross."""
    out = []
    for slug, recs in records_by_machine([name]).items():
        rec = recs[0]
        r = rec.result(mode)
        if not ok(r) or r.compile_cold_s is None:
            out.append(tab(tab_label(slug, recs), tr("`{mode}` was not measured here ({status}).", mode=mode,
                                                     status=r.status if r else tr("absent"))))
            continue
        chart = charts.amortisation(r.eager_median_s, r.median_s, r.compile_cold_s, r.breakeven_iters,
                                    tr("{title}: cumulative time of eager vs `{mode}` (cold compile first) on {machine}",
                                       title=tr_known(rec.title), mode=mode, machine=machine_label(rec.machine)),
                                    f"amortise-{name}-{mode}-{slug}")
        crossing = {"faster": tr("they cross after **{calls}**", calls=breakeven(r)),
                    "slower": tr("the compiled line never catches up: compiled is slower here"),
                    }.get(direction(r), tr("the difference per call is inside the noise, so no break-even is given"))
        text = tr("Eager {eager} per call; `{mode}` {compiled} per call after a {cold} cold compile ({warm} with a "
                  "warm cache): {crossing}.", eager=fmt_time(r.eager_median_s), mode=mode, compiled=fmt_time(r.median_s),
                  cold=fmt_time(r.compile_cold_s), warm=fmt_time(r.compile_warm_s), crossing=crossing)
        out.append(tab(tab_label(slug, recs), chart + "\n" + text + "\n\n" + record_line(rec)))
    return "\n".join(out)


def compile_times() -> str:
    """Cold / warm / Mega-Cache compile time of every compiled mode, this machine and others."""
    out = []
    for slug, recs in records_by_machine(list(workloads.WORKLOADS)).items():
        lines = [tr("| Workload | Mode | Cold cache | Warm cache | Mega-Cache artifacts | Break-even |"),
                 "|---|---|---|---|---|---|"]
        for r in recs:
            for m in r.results:
                if m.mode != "eager" and ok(m):
                    lines.append(f"| {esc(tr_known(r.title))} | {code(m.mode)} | {fmt_time(m.compile_cold_s)} | "
                                 f"{fmt_time(m.compile_warm_s)} | {fmt_time(m.compile_mega_s)} | {breakeven(m)} |")
        out.append(tab(tab_label(slug, recs), "\n".join(lines) + "\n\n" + stamp(recs)))
    return "\n".join(out)


def _pointwise_row(r: Record, eager_pts: list, comp_pts: list) -> str:
    n, numel = r.spec["sizes"]["depth"], r.spec["sizes"]["numel"]
    c = r.result("default")
    e_s = c.eager_median_s if ok(c) else None
    eager_bytes = next((m.eager_bytes_per_call for m in r.results if m.eager_bytes_per_call), None)
    fused = 2 * numel * 4  # read the input once, write the result once (float32)
    if e_s:
        eager_pts.append((n, e_s * 1e3))
    if ok(c):
        comp_pts.append((n, c.median_s * 1e3))

    def gbs(b, s):
        return f"{b / s / 1e9:.1f}" if b and s else "—"

    comp_s = c.median_s if ok(c) else None
    return (f"| {n} | {fmt_time(e_s)} | {fmt_bytes(eager_bytes)} | {gbs(eager_bytes, e_s)} | "
            f"{fmt_time(comp_s)} | {fmt_bytes(fused)} | {gbs(fused, comp_s)} | "
            f"{speedup(c, bold=False) if ok(c) else (c.status if c else '—')} |")


def pointwise() -> str:
    """Time per call and effective bandwidth against the chain length N."""
    names = [w.name for w in workloads.family("pointwise")]
    out = []
    for slug, recs in records_by_machine(names).items():
        eager_pts, comp_pts = [], []
        lines = [tr("| N (eager kernels) | Eager time | Eager traffic | Eager GB/s | Compiled time | "
                    "Fused traffic (read + write once) | Compiled GB/s | Speedup |"), "|---|---|---|---|---|---|---|---|"]
        lines += [_pointwise_row(r, eager_pts, comp_pts) for r in sorted(recs, key=lambda r: r.spec["sizes"]["depth"])]
        chart = charts.lines({"eager": eager_pts, tr("compiled (default)"): comp_pts},
                             tr("Time per call vs chain length on {machine}", machine=machine_label(recs[0].machine)),
                             tr("N, elementwise ops in the chain"), tr("ms per call"), f"pointwise-{slug}")
        top = roof(slug)
        bw = tr("This machine's measured copy bandwidth: **{bw} GB/s**. ", bw=f"{top['copy_gb_s']:.1f}") if top else ""
        out.append(tab(tab_label(slug, recs), chart + "\n" + "\n".join(lines) + "\n\n" + bw + stamp(recs)))
    return "\n".join(out)
