"""The machines: which ones measured what (the add-your-machine page), the fields of a record, and
this build's own machine in words, so that no page types a sentence about the hardware it ran on."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .. import peaks, store, workloads
from .context import current
from .lang import is_zh, tr
from .provenance import esc, label, ok, record_line, span, this_machine


def roof(slug: str) -> dict | None:
    """This machine's measured peaks where they hold for this build (measured by the `prepare` step),
    another machine's committed ones; None where there are none."""
    if slug == this_machine():
        ctx = current()
        top = peaks.load(store.default_root(), slug, ctx.release)
        return top if top and peaks.fresh(top, ctx.machine, ctx.torch, workloads.device_type(ctx.profile)) else None
    return peaks.load(store.default_root(), slug)


def build_machine() -> str:
    """This build's machine in words, from its machine facts: 'Intel Xeon, 2 cores (`slug`), with no
    CUDA GPU' or '..., with 1 CUDA GPU (NVIDIA H200)'."""
    me = current().machine
    gpus = me.get("gpus") or []
    has = (tr("{n} CUDA GPU{s} ({names})", n=len(gpus), s="s" if len(gpus) > 1 else "",
              names=", ".join(g["name"] for g in gpus)) if gpus else tr("no CUDA GPU"))
    return tr("**{cpu}, {cores} cores** (`{slug}`), with {has}", cpu=me["cpu"], cores=me["cores"], slug=me["slug"],
              has=has)


def needs_gpu(what: str, evidence: tuple = ()) -> str:
    """On a build with a CUDA GPU, the evidence line (claims.evidence(*evidence)); elsewhere a note
    that `what` needs one, naming this build's machine."""
    if current().machine.get("gpus"):
        from .claims import evidence as line

        return line(*evidence) if evidence else ""
    what = tr(what)
    what = what if is_zh() else what[0].upper() + what[1:]
    return (f'!!! note "{tr("Needs a CUDA GPU")}"\n    '
            + tr("{what} needs a CUDA GPU. This build ran on {machine}, so it is not measured on this page; a build "
                 "on a machine with one measures it ([add your machine](../benchmarks/add-your-machine.md)).",
                 what=what, machine=build_machine()) + "\n")


def machines() -> str:
    """Every machine and torch release under measurements/: who measured what, when.

    Reads the committed folders as they are (this machine's included, as far as it is measured).
    """
    root = store.default_root()
    me = this_machine()
    mine = current().release
    lines = [tr("| machine | folder | profile | workloads measured | dates | torch | files |"),
             "|---|---|---|---|---|---|---|"]
    for slug in sorted(store.machines(root), key=lambda s: (s != me, s)):
        for rel in reversed(store.releases(root, slug)):
            recs = [r for n in store.workload_names(root, slug, rel)
                    if (r := store.read(store.path_for(root, slug, n, rel), root, me)) is not None]
            if not recs:
                continue
            scheduled = {w.name for w in workloads.in_profile(recs[0].profile)}
            planned = len(scheduled)
            done = sum(1 for r in recs if r.workload in scheduled and any(ok(m) for m in r.results if m.mode != "eager"))
            asked = sum(1 for r in recs if r.workload not in scheduled)
            when, torch_v = span(recs)
            extra = f" + `{peaks.FILE}`" if peaks.load(root, slug, rel) else ""
            tag = ""
            if slug == me:
                tag = tr(" (this build's machine and torch)") if rel == mine else tr(" (this build's machine; history)")
            folder = store.release_dir(root, slug, rel).relative_to(root).as_posix()
            lines.append(f"| {label(recs[0].machine)}{tag} | `{folder}/` | {esc(recs[0].profile)} | "
                         + tr("{done} of {planned} with a compiled result", done=done, planned=planned)
                         + (tr(", {asked} on demand", asked=asked) if asked else "")
                         + f" | {when} | {torch_v} | " + tr("{n} records", n=len(recs)) + f"{extra} |")
    if len(lines) == 2:
        return tr("No machine has committed records yet.") + "\n"
    from .downloads import archive_link

    downloads = " · ".join(f"`{slug}`: {archive_link(slug)}" for slug in sorted(store.machines(root)))
    return "\n".join(lines) + "\n\n" + tr(
        "Read by this build from `measurements/` (this machine's folder as far as it is measured); each row's "
        "dates and torch are its own records'. Every record of each machine, all releases, as one archive: {links}",
        links=downloads) + "\n{: .evc-provenance }\n"


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
    return esc(value)  # a record's text (anyone's fork): never markup


def record_outline(name: str = "resnet50_infer_fp32", slug: str | None = None) -> str:
    """Every field of one committed record, as the file holds it, with one compiled mode's results.

    The rows come from the record's own fields, so a field added to the schema appears here too.
    """
    recs = store.records_for(name, mine=this_machine())
    if not recs:
        return tr("No committed record of `{name}` yet.", name=name) + "\n"
    slug = slug or this_machine()  # this build's machine where it has one, else the first
    rec = next((r for r in recs if r.machine.get("slug") == slug), recs[0])
    res = next((m for m in rec.results if m.mode != "eager" and ok(m)), rec.results[0])
    where = store.release_dir(Path(), rec.machine.get("slug", "?"), store.release(rec.versions["torch"]))
    out = [f"`{esc(where.as_posix())}/{name}.json` " + tr("(units as stored: seconds, bytes):") + "\n",
           tr("| field | value in this record |"), "|---|---|"]
    for f in dataclasses.fields(rec):
        value = getattr(rec, f.name)
        if f.name == "results":
            out.append("| `results` | " + tr("one entry per mode: ") + ", ".join(f"`{esc(m.mode)}`" for m in value) + " |")
        else:
            out.append(f"| `{f.name}` | {_raw(value)} |")
    out += [f"| `results[{esc(res.mode)}].{f.name}` | {_raw(getattr(res, f.name))} |" for f in dataclasses.fields(res)]
    return "\n".join(out) + "\n\n" + record_line(rec)
