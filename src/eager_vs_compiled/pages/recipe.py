"""The ResNet-50 case study's best recipe: the highest throughput found per step, its TFLOP/s, and
where it stands on the roofline of the machine's measured peaks."""

from __future__ import annotations

from .. import machine, peaks, store, workloads
from ..records import Record
from . import charts
from .benchmarks import records_by_machine
from .provenance import ok, speedup, stamp, tab, tab_label, this_machine


def roof(slug: str) -> dict | None:
    """This machine's measured peaks (measured now if missing), another machine's committed ones."""
    if slug == this_machine():
        return peaks.ensure()
    return peaks.load(store.default_root(), slug)


def _step_row(step: str, recs: list[Record], names: list[str], peak_of, points: list) -> str:
    cands = [(m, r) for r in recs if r.spec["step"] == step for m in r.results if ok(m)]
    if not cands:
        profiles = sorted({p for w in workloads.WORKLOADS.values() if w.name in names and w.step == step
                           for p in workloads.PROFILES if w.in_profile(p)})
        return (f"| {step} | not measured on this machine (in the {' and '.join(profiles)} "
                f"profile) | — | — | — | — |")
    m, r = max(cands, key=lambda mr: mr[0].throughput or 0)
    dtype = "float32" if r.spec["dtype"] == "float32" else "bfloat16"
    peak = peak_of(dtype)
    share = f"{m.tflops / peak * 100:.0f} % of {peak:.3g} ({dtype})" if m.tflops and peak else "—"
    vs = speedup(m, bold=False) if m.speedup else "(eager is the best)"
    eager_bytes = next((x.eager_bytes_per_call for x in r.results if x.eager_bytes_per_call), None)
    for mm in r.results:
        if ok(mm) and mm.tflops and eager_bytes and mm.mode in ("eager", m.mode):
            points.append((f"{step} · {mm.mode}", mm.flops_per_call / eager_bytes, mm.tflops))
    if not m.tflops:
        return f"| {step} | `{m.mode}` | {m.throughput:,.1f} images/s | {vs} | — | — |"
    return (f"| {step} | `{m.mode}`, {r.spec['dtype']}, {r.spec['layout']}, batch "
            f"{r.spec['sizes'].get('batch')} | {m.throughput:,.1f} images/s | {vs} | "
            f"{m.tflops:.3g} | {share} |")


def _roofline(arch: str, slug: str, recs: list[Record], top: dict, points: list) -> str:
    dtype = "bfloat16" if "bfloat16" in top["matmul_tflops"] else "float32"
    body = "\n" + charts.roofline(top["matmul_tflops"][dtype], top["copy_gb_s"], points,
                                  f"{arch} on the roofline of {machine.label(recs[0].machine)} "
                                  f"(roof: measured {dtype} matmul and copy bandwidth)", f"roof-{arch}-{slug}")
    return body + (f"\nRoof measured on this machine on {top['date'][:10]}: matmul "
                   + ", ".join(f"{k} {v:.3g} TFLOP/s" for k, v in top["matmul_tflops"].items())
                   + f" ({top['matmul_n']}² matrices), copy {top['copy_gb_s']:.1f} GB/s "
                   f"({top['copy_mib']} MiB, read + write).\n")


def best_recipe(arch: str = "resnet50") -> str:
    """The highest throughput found per step (inference, training), with its share of the roof."""
    names = [w.name for w in workloads.WORKLOADS.values() if w.name.startswith(arch + "_")]
    out = []
    for slug, recs in records_by_machine(names).items():
        top = roof(slug)
        lines = ["| Step | Best recipe | Throughput | vs eager, same recipe | TFLOP/s | Share of measured matmul peak |",
                 "|---|---|---|---|---|---|"]
        points: list = []
        lines += [_step_row(step, recs, names, lambda dt: top["matmul_tflops"].get(dt) if top else None, points)
                  for step in workloads.STEPS]
        body = "\n".join(lines) + "\n"
        counted = [(r, m) for r in recs if r.spec["step"] == "inference" for m in r.results if m.flops_per_call]
        if counted:
            r, m = counted[0]
            batch = r.spec["sizes"].get("batch", 1)
            body += (f"\nFLOP counter (`torch.utils.flop_counter`), one inference call of batch {batch}: "
                     f"{m.flops_per_call / 1e9:.1f} GFLOP, {m.flops_per_call / batch / 1e9:.2f} GFLOP per image.\n")
        if top and points:
            body += _roofline(arch, slug, recs, top, points)
        out.append(tab(tab_label(slug, recs), body + "\n" + stamp(recs)))
    return "\n".join(out)
