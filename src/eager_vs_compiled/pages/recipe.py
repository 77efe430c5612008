"""The best recipe: every recipe measured for a model, ranked by throughput, with its speedup over
fp32 eager at the same batch, compile cost, TFLOP/s and share of the machine's measured peak; the
winner picked by the data, placed on the roofline, and profiled when it stays far from the roof."""

from __future__ import annotations

from datetime import datetime

import hashlib
import json
from pathlib import Path

from .. import data, paths, recipes, stats, workloads
from ..records import ModeResult, Record
from . import charts
from .benchmarks import records_by_machine
from .lang import then, tr
from .ratios import with_interval
from .machines import roof
from .provenance import (median_distribution, breakeven, code, esc, fmt_time, machine_label, noise_floor, ok, speedup, stamp, tab, tab_label,
                         this_machine, verdict)

TARGET_SHARE = 0.80  # below this share of the measured peak, the winner's time is broken down


def _recipe_workloads(arch: str, step: str) -> list[str]:
    return [w.name for w in workloads.WORKLOADS.values()
            if w.name.startswith(f"{arch}_") and w.step == step and "recipes" in w.name]


def _dtype(r: ModeResult, rec: Record) -> str:
    return "bfloat16" if "bf16" in recipes.parse(r.mode).knobs or rec.spec.get("dtype") == "bfloat16" else "float32"


def ranked(recs: list[Record]) -> list[tuple[ModeResult, Record]]:
    """Every correct recipe of these records, fastest (images per second) first."""
    found = [(r, rec) for rec in recs for r in rec.results if ok(r)]
    return sorted(found, key=lambda rr: -(rr[0].throughput or 0))


def _share(r: ModeResult, rec: Record, top: dict | None) -> str:
    peak = top["matmul_tflops"].get(_dtype(r, rec)) if top else None
    return tr("{share:.0%} of {peak:.3g} ({dtype})", share=r.tflops / peak, peak=peak, dtype=_dtype(r, rec)) \
        if r.tflops and peak else "—"


def _row(i: int, r: ModeResult, rec: Record, top: dict | None) -> str:
    batch = rec.spec["sizes"].get("batch")
    checked = ("—" if r.mode == "eager" else
               f"{r.max_rel_err:.1e} ≤ {recipes.tolerance(recipes.parse(r.mode), rec.spec['rtol'], rec.spec['step']):.0e}"
               + (tr(" (bf16 tolerance)") if "bf16" in recipes.parse(r.mode).knobs else ""))
    vs = tr("1× (fp32 eager)") if r.mode == "eager" else f"{speedup(r, bold=False)}: {verdict(r)}"
    return (f"| {i} | {code(r.mode)} | {batch} | {r.throughput:,.1f} | {vs} | "
            + ("—" if r.mode == "eager" else f"{fmt_time(r.compile_cold_s)} / {fmt_time(r.compile_warm_s)}")
            + f" | {breakeven(r) if r.mode != 'eager' else '—'} | {r.tflops:.3g} | {_share(r, rec, top)} | {checked} |"
            if r.tflops else f"| {i} | {code(r.mode)} | {batch} | {r.throughput:,.1f} | {vs} | — | — | — | — | {checked} |")


def versus(winner: ModeResult, w_rec: Record, other: ModeResult, o_rec: Record,
           floor: float) -> tuple[float, float, float, str]:
    """The winner's throughput over another recipe's, measured in other processes: (ratio, low, high,
    words), the words 'faster', 'slower' or 'within the noise' (English: tr them), a difference only
    outside the machine's between-process noise `floor`. Two records are two runs: what whole runs differ
    by (data.run_term of each time) widens the interval; one record's modes shared their run's windows."""
    scale = w_rec.spec["sizes"].get("batch", 1) / o_rec.spec["sizes"].get("batch", 1)
    key = (winner.mode, other.mode, tuple(winner.samples_s))

    def times(m: ModeResult, rec: Record, side: str) -> list[float]:
        if w_rec is o_rec:
            return list(median_distribution(m, key + (side,)))
        return data.rerun_distribution(rec, m.mode, "median_s", key + (side,))
    dist = [scale * o / w for w, o in zip(times(winner, w_rec, "winner"), times(other, o_rec, "other"))]
    lo, hi = stats.percentile_interval(dist)
    point = scale * other.median_s / winner.median_s
    return point, lo, hi, "faster" if lo > 1 + floor else "slower" if hi < 1 / (1 + floor) else "within the noise"


def not_ahead_of(top: ModeResult, top_rec: Record, rivals: list[tuple[ModeResult, Record]],
                 floor: float) -> list[tuple[ModeResult, Record]]:
    """The rivals (mode, its record) whose throughput the top's does not clear (versus): where any is
    left, the top is not the fastest or the best alone."""
    return [(m, r) for m, r in rivals if m is not top and versus(top, top_rec, m, r, floor)[3] != "faster"]


def level(top: ModeResult, top_rec: Record, tied: list[tuple[ModeResult, Record]]) -> str:
    """', within the noise of `b`, `c` (`record`)' for the modes not_ahead_of gave; '' for none."""
    names = [code(m.mode) + (f" ({code(r.workload)})" if r is not top_rec else "") for m, r in tied]
    return tr(", within the noise of {modes}", modes=", ".join(names)) if names else ""


def _versus(winner: ModeResult, w_rec: Record, other: ModeResult, o_rec: Record, floor: float) -> str:
    point, lo, hi, said = versus(winner, w_rec, other, o_rec, floor)
    return f"{with_interval(point, lo, hi)}, {tr(said)}"


def _window(top: dict | None, recs: list[Record]) -> str:
    """When the peak the shares are taken of was measured, against the records: the same run, or
    how far apart (a share across windows mixes this machine's good and bad hours)."""
    if not top:
        return ""
    when = [datetime.fromisoformat(r.date) for r in recs]
    peak = datetime.fromisoformat(top["date"])
    apart = max(abs((peak - w).total_seconds()) for w in when) / 60
    if apart <= 60:
        return tr("The peak was measured in the same window as these recipes ({minutes:.0f} min apart at most).",
                  minutes=apart)
    return tr("The peak was measured {hours:.0f} h away from these recipes: shares mix two windows of this "
              "machine.", hours=apart / 60)


def _skipped(recs: list[Record]) -> str:
    rows = [f"- {code(r.mode)} (" + tr("batch {n}", n=rec.spec["sizes"].get("batch")) + f"): {r.status} — {esc(r.message)}"
            for rec in recs for r in rec.results if r.status != "ok"]
    return (tr("Not in the ranking:") + "\n\n" + "\n".join(rows) + "\n") if rows else ""


def ranking(arch: str = "resnet50") -> str:
    """Every recipe of the model's inference, ranked, one tab per machine, with the winner's margin."""
    names = _recipe_workloads(arch, "inference")
    out = []
    for slug, recs in records_by_machine(names).items():
        top, rows = roof(slug), ranked(recs)
        if not rows:
            continue
        lines = [tr("| # | Recipe | Batch | Images/s | vs fp32 eager, same batch | Compile cold / warm | Break-even | "
                    "TFLOP/s | Share of measured peak | Max rel. error ≤ tolerance |"), "|" + "---|" * 10]
        lines += [_row(i, r, rec, top) for i, (r, rec) in enumerate(rows, 1)]
        (winner, w_rec), floor = rows[0], noise_floor(recs)
        base = next((rr for rr in rows if rr[0].mode == "default" and rr[1].spec["sizes"] == w_rec.spec["sizes"]), None)
        eager = next((rr for rr in rows if rr[0].mode == "eager" and rr[1] is w_rec), None)
        summary = (tr("**Best recipe here: {mode} at batch {batch}**, {rate} images/s, {share} of the measured peak",
                      mode=code(winner.mode), batch=w_rec.spec["sizes"].get("batch"), rate=f"{winner.throughput:,.1f}",
                      share=_share(winner, w_rec, top)) + level(winner, w_rec, not_ahead_of(winner, w_rec, rows[1:], floor))
                   + (tr("; over fp32 eager at the same batch: {x}", x=speedup(winner, bold=False))
                      if winner.mode != "eager" else "")
                   + (tr("; over the default `torch.compile`: {x}", x=_versus(winner, w_rec, base[0], base[1], floor))
                      if base and base[0] is not winner else "")
                   + (tr("; over eager measured in its own process: {x}", x=_versus(winner, w_rec, eager[0], eager[1], floor))
                      if eager and winner.mode != "eager" else "") + tr("."))
        summary += then() + _window(top, recs) if top else ""
        note = (tr("Recipes measured in different processes differ by up to ±{floor:.0%} with nothing changed (the "
                   "largest eager difference between processes in these records): a margin inside that is called "
                   "within the noise.", floor=floor) if floor else
                tr("Each recipe was timed in several fresh processes of its own: a margin is called a difference "
                   "only when its 95% interval, drawn over those processes, leaves out parity."))
        out.append(tab(tab_label(slug, recs), summary + "\n\n" + "\n".join(lines) + "\n\n" + note + "\n\n"
                       + _skipped(recs) + "\n" + _roofline(arch, slug, rows, top) + "\n" + stamp(recs)))
    return "\n".join(out) or _not_measured(names)


def _not_measured(names: list[str]) -> str:
    return (f'!!! note "{tr("No recipe measured yet")}"\n    '
            + tr("The recipes are measured on demand, not by every site build: `./evc.sh measure --family resnet` "
                 "(about a quarter of an hour on two cores) measures {names} and writes their records.",
                 names=", ".join(f"`{n}`" for n in names)) + "\n")


def _roofline(arch: str, slug: str, rows, top: dict | None) -> str:
    if not top:
        return ""
    points = []
    for r, rec in rows[:8]:
        eager_bytes = next((x.eager_bytes_per_call for x in rec.results if x.eager_bytes_per_call), None)
        if r.tflops and eager_bytes:
            points.append((f"{r.mode} · b{rec.spec['sizes'].get('batch')}", r.flops_per_call / eager_bytes, r.tflops))
    if not points:
        return ""
    dtype = "float32"
    return charts.roofline(top["matmul_tflops"][dtype], top["copy_gb_s"], points,
                           tr("{arch} recipes on the roofline of {machine} (roof: measured {dtype} matmul and copy "
                              "bandwidth; bf16 recipes can pass it)", arch=arch, machine=machine_label(rows[0][1].machine),
                              dtype=dtype), f"roof-{arch}-{slug}") + "\n" + tr(
        "Roof measured on this machine on {date}: matmul {matmul} ({n}² matrices), copy {copy:.1f} GB/s ({mib} MiB, "
        "read + write).", date=top["date"][:10], matmul=", ".join(f"{k} {v:.3g} TFLOP/s" for k, v in top["matmul_tflops"].items()),
        n=top["matmul_n"], copy=top["copy_gb_s"], mib=top["copy_mib"]) + "\n"


def profile_target(arch: str = "resnet50") -> tuple[ModeResult, Record, float | None] | None:
    """This machine's winning recipe, its record and its share of the peak (None without a roof), or
    None where no recipe is measured here: what `where_the_time_goes` breaks down when the share is
    under TARGET_SHARE (the `prepare` step runs the profiler for it before the build)."""
    rows = ranked(records_by_machine(_recipe_workloads(arch, "inference")).get(this_machine()) or [])
    if not rows:
        return None
    (winner, rec), top = rows[0], roof(this_machine())
    peak = top["matmul_tflops"].get(_dtype(winner, rec)) if top else None
    return winner, rec, (winner.tflops / peak if winner.tflops and peak else None)


def profile_path(rec: Record, mode: str) -> Path:
    """Where the profile of a record's mode is kept (in the build's cache: per record, machine and torch)."""
    key = hashlib.sha256(json.dumps([rec.spec_hash, mode, rec.versions, rec.machine.get("fingerprint")]).encode())
    return paths.cache() / "profiles" / f"{key.hexdigest()[:20]}.json"


def where_the_time_goes(arch: str = "resnet50") -> str:
    """When this machine's winner stays under TARGET_SHARE of the peak: a torch.profiler breakdown of
    it, run by the `prepare` step before the build (cached per record, machine and torch)."""
    found = profile_target(arch)
    if found is None:
        return _not_measured(_recipe_workloads(arch, "inference"))
    winner, rec, share = found
    if share is not None and share >= TARGET_SHARE:
        return tr("The winner reaches {share:.0%} of the measured peak: no breakdown needed.", share=share) + "\n"
    path = profile_path(rec, winner.mode)
    if not path.exists():
        return (f'!!! note "{tr("Not profiled on this machine yet")}"\n    '
                + tr("`./evc.sh site` profiles the winner, {mode}, before it builds (its prepare step: "
                     "`python -m eager_vs_compiled prepare`).", mode=code(winner.mode)) + "\n")
    prof = json.loads(path.read_text())
    lines = [tr("| Op | Self CPU time | Share | Calls |"), "|---|---|---|---|"]
    lines += [f"| {code(op['name'])} | {fmt_time(op['self_s'])} | {op['share']:.0%} | {op['calls']} |" for op in prof["top"]]
    return (tr("The winner, {mode}, reaches {share:.0%} of the measured peak. A `torch.profiler` run of {calls} of its "
               "calls, in a fresh process, on this machine, by this build:", mode=code(winner.mode), share=share,
               calls=prof["calls"]) + "\n\n" + "\n".join(lines) + "\n\n"
            + tr("Convolutions (oneDNN) take **{conv:.0%}** of the profiled CPU time; the generated Inductor kernels "
                 "{inductor:.0%}.", conv=prof["conv_share"], inductor=prof["inductor_share"]) + "\n{: .evc-provenance }\n")
