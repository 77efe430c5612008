"""What every page shares: units, the words for a machine and a break-even, the provenance line of
a record, tabs per machine, and the markers that tell the build what a page showed.

A marker is a comment written next to every number or output a page function renders (`<!-- evc:shown
{...} -->`), so that what it showed travels with its Markdown, cached or not. The build hook takes the markers
out of each directive's Markdown (`split_markers`), the page's data for its footer stamp and the build report:
no published page carries one."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from .. import machine, snippets, store
# One speedup interval and noise floor, readers' too (eager_vs_compiled.data): pages and notebooks agree.
from ..data import (eager_processes, median_distribution, noise_floor, one_process,  # noqa: F401 (used by the pages)
                    speedup_distribution, speedup_interval as interval)
from . import context
from .lang import is_zh, tr
from .ratios import ratio
from ..records import ModeResult, Record

MARKER = re.compile(r"<!-- evc:shown (\{.*?\}) -->")


# --- units -----------------------------------------------------------------------------------------
def fmt_time(s: float | None) -> str:
    if s is None:
        return "—"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale or unit == "µs":
            v = s / scale
            return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"
    raise AssertionError("unreachable")


def fmt_bytes(b: int | None) -> str:
    return "—" if b is None else f"{b / 2**30:.2f} GiB" if b >= 2**30 else f"{b / 2**20:.0f} MiB"


def esc(text) -> str:
    """Text that comes from a record or a run (anyone's fork) as Markdown shows it literally: HTML
    escaped (`<script>` stays text, `<built-in function add>` stays visible), one line, no pipe that
    would end a table cell, repository-relative paths."""
    text = re.sub(r"\s+", " ", snippets.relative_paths(str(text)))
    # `[` and `]` too: a link built by a record, [x](javascript:...), must stay text, and so must a
    # record's `](url)` after a template's `[`.
    return html.escape(text, quote=True).replace("|", "&#124;").replace("[", "&#91;").replace("]", "&#93;")


def cell(text: str) -> str:
    """A record's or a run's text for a table cell (see `esc`)."""
    return esc(text)


def code(text) -> str:
    """A name from a record (a mode, a slug) set as code, escaped."""
    return f"<code>{esc(text)}</code>"


def fence(text: str, info: str = "text") -> str:
    """A fenced block that nothing inside can close: longer than any run of backticks in `text`."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return f"{(ticks := '`' * max(4, longest + 1))}{info}\n{text}\n{ticks}\n"


def machine_label(m: dict) -> str:
    """A machine's label from its record, in the page's language (not escaped: for charts)."""
    if is_zh() and not m.get("gpus"):
        return f"{m.get('cpu', '?')}，{m.get('cores', '?')} 核"
    return machine.label(m)


def label(m: dict) -> str:
    """A machine's label from its record, escaped (in the page's language)."""
    return esc(machine_label(m))


# --- words -----------------------------------------------------------------------------------------
def ok(r: ModeResult | None) -> bool:
    """A mode that finished, was checked against eager and has a time."""
    return r is not None and r.status == "ok" and r.median_s is not None


def ranked(rec: Record, with_eager: bool = False) -> list[ModeResult]:
    """The record's modes that finished and were checked against eager, fastest first: by the speedup
    over the record's eager (eager itself 1×). The one ranking of every page and of the model report."""
    done = [r for r in rec.results if r.status == "ok" and r.median_s is not None
            and (r.speedup if r.mode != "eager" else with_eager)]
    return sorted(done, key=lambda r: -(r.speedup if r.mode != "eager" else 1.0))


def best(rec: Record) -> ModeResult | None:
    """The fastest compiled mode that finished and was checked against eager, or None."""
    return next(iter(ranked(rec)), None)


def direction(r: ModeResult) -> str | None:
    """'faster', 'slower' or 'no measurable difference' (None without an interval): the words follow
    the interval, not the point."""
    ci = interval(r)
    if ci is None:
        return None
    lo, hi = ci
    return "faster" if lo > 1 else "slower" if hi < 1 else "no measurable difference"


def verdict(r: ModeResult) -> str:
    """The direction in the page's language ('—' without an interval)."""
    return tr(words) if (words := direction(r)) else "—"


def speedup(r: ModeResult, bold: bool = True) -> str:
    """'1.23× (1.15–1.31)': the point and its 95% interval."""
    if r.speedup is None:
        return "—"
    ci = interval(r)
    point = f"**{ratio(r.speedup)}×**" if bold else f"{ratio(r.speedup)}×"
    return point + (f" ({ratio(ci[0])}–{ratio(ci[1])})" if ci else "")


def breakeven(r: ModeResult) -> str:
    """How many calls repay the compile, in the one wording every page uses: a number only when the
    interval says compiled is faster; otherwise why there is none."""
    words = direction(r)
    if words == "faster" and r.breakeven_iters is not None:
        return tr("{n} calls", n=f"{r.breakeven_iters:,.0f}")
    if words == "slower":
        return tr("never (slower)")
    if words == "no measurable difference":
        return tr("— (no measurable difference)")
    return "—"


def machine_words(m: dict) -> str:
    """'**AMD EPYC, 2 cores** (`cpu-amd-epyc-2c`)': a machine as every page names it."""
    return f"**{label(m)}** (<code>{esc(m.get('slug', '?'))}</code>)"


def span(recs: list[Record]) -> tuple[str, str]:
    """(the day or range of days the records were measured, their torch versions)."""
    dates = sorted({esc(r.date[:10]) for r in recs})
    torch_v = ", ".join(sorted({esc(r.versions.get("torch", "?")) for r in recs}))
    return (dates[0] if len(dates) == 1 else tr("{first} to {last}", first=dates[0], last=dates[-1])), torch_v


def this_machine() -> str:
    return context.current().slug


def built_here(rec: Record) -> bool:
    """Whether a record of this machine is one this build takes as fresh: the current harness and the
    installed torch release (an older one is committed history, like another machine's)."""
    from ..rounds import HARNESS_VERSION

    return (rec.harness_version == HARNESS_VERSION
            and store.release(rec.versions.get("torch", "")) == context.current().release)


def tab_label(slug: str, recs: list[Record]) -> str:
    """'AMD EPYC, 2 cores (this build)' or '(committed)': the tab of one machine. A tab of this machine
    that holds only its older committed records is '(committed)'; one that mixes them with this build's
    (an overview chart) is this build's, each record's own line saying which harness measured it."""
    here = slug == this_machine() and any(built_here(r) for r in recs)
    return tr("{label} (this build)" if here else "{label} (committed)", label=label(recs[0].machine))


def tab(label: str, body: str) -> str:
    """One tab of a pymdownx.tabbed set (linked across the page by its label)."""
    return f'=== "{label}"\n\n    ' + body.replace("\n", "\n    ") + "\n"


def stamp(recs: list[Record], what: str | None = None) -> str:
    """The provenance line under a chart or table drawn from several records of one machine."""
    when, torch_v = span(recs)
    what = what if what is not None else tr("conditions of each workload beside its table on its family page")
    line = tr("Measured on {machine} · {when} · torch {torch} · {profile} profile; {what}",
              machine=machine_words(recs[0].machine), when=when, torch=torch_v, profile=esc(recs[0].profile), what=what)
    return line + "\n{: .evc-provenance }\n" + "".join(shown(r) for r in recs)


def protocol_words(record: Record) -> str:
    """How the record's modes were timed: alone or beside eager, in how many processes each."""
    k, beside = record.processes_per_mode, any(r.eager_samples_s for r in record.results)
    if k < 2:
        return tr("one process per mode, eager timed beside it")
    sds = sorted({f"{r.run_sd:.2%}" for r in record.results if r.run_sd is not None}, key=lambda t: float(t[:-1]))
    return ((tr("each mode timed beside eager in {k} or more fresh processes", k=k) if beside else
             tr("each mode timed alone in {k} or more fresh processes", k=k))
            + ("" if not sds else tr(", intervals with the run-to-run term ±{sd}", sd=sds[0]) if len(sds) == 1
               else tr(", intervals with the run-to-run terms ±{lo} to ±{hi}", lo=sds[0], hi=sds[-1]))
            + (tr(", speedups set to the machine's usual speed") if any(r.host for r in record.results) else ""))


def record_line(record: Record, page: bool = True) -> str:
    """The provenance line of one record: machine, date, versions, threads, samples, sizes, harness."""
    v, m = record.versions, record.machine
    threads = {r.threads for r in record.results if r.threads}
    ns = [r.n for r in record.results if r.n]
    sizes = ", ".join(f"{k} {val}" for k, val in record.spec.get("sizes", {}).items())
    spec = record.spec
    parts = [
        tr("Measured on {machine}", machine=machine_words(m)),
        esc(record.date[:10]),
        f"torch {esc(v.get('torch'))}" + (f", CUDA {esc(v.get('cuda'))}" if record.device == "cuda" else ""),
        f"Python {esc(v.get('python'))}",
        tr("{threads} threads", threads="/".join(map(str, sorted(threads)))) if threads else "",
        tr("n = {lo}–{hi} samples per mode", lo=min(ns), hi=max(ns)) if ns else tr("no samples"),
        protocol_words(record) if ns else "",
        esc(tr("{profile} profile", profile=record.profile) + f" ({sizes}, {spec.get('dtype')}, "
            f"{spec.get('layout', 'contiguous')}, {spec.get('step')}" + (f": {spec['how']}" if spec.get("how") else "") + ")"),
        tr("harness v{version}", version=record.harness_version)
        + (tr(", commit {commit}", commit=f"<code>{esc(record.git_commit)}</code>") if record.git_commit else ""),
    ]
    line = " · ".join(p for p in parts if p)
    return line + "\n{: .evc-provenance }\n" + shown(record) if page else line


def skipped_note(suffix: str = ".json") -> str:
    """A note naming the committed records of other machines this version could not read (and why)."""
    found = {path: why for path, why in store.SKIPPED.items() if path.endswith(suffix)}
    if not found:
        return ""
    root = store.default_root()
    lines = "\n".join(f"    - `{esc(Path(path).relative_to(root).as_posix() if Path(path).is_relative_to(root) else path)}`: "
                      f"{esc(why)}" for path, why in sorted(found.items()))
    return (f'\n!!! warning "{tr("Committed records skipped")}"\n    '
            + tr("These records of other machines cannot be read by this version of the site, so they are not shown:")
            + f"\n\n{lines}\n")


# --- markers ---------------------------------------------------------------------------------------
# A record's text in a marker must not end the comment (`-->`) nor open a tag, and Markdown must leave
# the JSON whole (in a tab the comment is indented and Markdown reads it: no link, no code span): JSON's
# own escapes for those characters, which json.loads reads back unchanged.
_INERT = str.maketrans({c: f"\\u{ord(c):04x}" for c in "<>&[]`"})


def _marker(**fields) -> str:
    return f"\n<!-- evc:shown {json.dumps(fields, sort_keys=True).translate(_INERT)} -->\n"


def shown(rec: Record) -> str:
    """Marker: this page shows numbers of this record."""
    mine = rec.machine.get("slug") == this_machine() and \
        store.release(rec.versions.get("torch", "")) == context.current().release
    return _marker(kind="measured", machine=rec.machine.get("slug", "?"), date=rec.date,
                   torch=rec.versions.get("torch", "?"), key=f"{rec.machine.get('slug')}/{rec.workload}",
                   mine=mine)


def shown_run(result) -> str:
    """Marker: this page shows what a snippet printed (or that it was not run here)."""
    how = "skipped" if result.skipped else ("cached" if result.cached else "ran")
    return _marker(kind="ran", machine=result.machine, date=result.date, torch=result.torch,
                   key=result.path, how=how)


def shown_capture(capture: dict) -> str:
    """Marker: this page shows a symptom captured on another machine or release."""
    return _marker(kind="captured", machine=capture.get("machine", "?"), date=capture.get("date", "?"),
                   torch=capture.get("torch", "?"), key=capture.get("snippet", "?"))


def split_markers(text: str) -> tuple[str, list[dict]]:
    """A directive's Markdown without its markers, and the markers: the hook keeps them as the page's
    data (page.meta), so the published page carries none."""
    return MARKER.sub("", text), markers(text)


def markers(html: str) -> list[dict]:
    """Every marker a finished page carries (HTML-escaped or not)."""
    text = html.replace("&quot;", '"')
    return [json.loads(m) for m in MARKER.findall(text)]


def freshness(this_slug: str, this_torch: str, today: str, shown_on_page: list[dict]) -> str:
    """The footer line of a page: when and where its numbers and outputs were produced."""
    parts = []
    for kind, verb in (("measured", tr("Numbers measured")), ("ran", tr("Snippets run")),
                       ("captured", tr("Errors captured"))):
        rows = {(esc(s["machine"]), esc(s["date"][:10]), esc(s["torch"])) for s in shown_on_page  # records' text
                if s["kind"] == kind and s.get("how") != "skipped"}
        if not rows:
            continue
        by_machine: dict[tuple[str, str], list[str]] = {}
        for m, d, t in rows:
            by_machine.setdefault((m, t), []).append(d)
        said = []
        for (m, t), dates in sorted(by_machine.items()):
            lo, hi = min(dates), max(dates)
            when = lo if lo == hi else tr("{first} to {last}", first=lo, last=hi)
            said.append(tr("on {machine} ({when}, torch {torch})", machine=m, when=when, torch=t))
        parts.append(f"{verb} " + tr("; ").join(said))
    if not parts:
        parts.append(tr("No measured numbers on this page"))
    return tr(". ").join(parts) + tr(". Built {today} on {slug} with torch {torch}.", today=today, slug=this_slug,
                                      torch=this_torch)
