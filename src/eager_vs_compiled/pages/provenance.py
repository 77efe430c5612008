"""What every page shares: units, the words for a machine and a break-even, the provenance line of
a record, tabs per machine, and the markers that tell the build what a page showed.

A marker is an HTML comment written next to every number or output a page shows
(`<!-- evc:shown {...} -->`): the build hook reads them from the finished page for its footer stamp
and its build report, so what a page says about its sources travels with the page itself.
"""

from __future__ import annotations

import json
import re

from .. import machine, snippets, store
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
    if b is None:
        return "—"
    return f"{b / 2**30:.2f} GiB" if b >= 2**30 else f"{b / 2**20:.0f} MiB"


def cell(text: str) -> str:
    """Text from a record or a run, safe inside a Markdown table cell: one line, no pipe."""
    return re.sub(r"\s+", " ", snippets.relative_paths(text)).replace("|", "\\|")


# --- words -----------------------------------------------------------------------------------------
def ok(r: ModeResult | None) -> bool:
    """A mode that finished, was checked against eager and has a time."""
    return r is not None and r.status == "ok" and r.median_s is not None


def best(rec: Record) -> ModeResult | None:
    """The fastest compiled mode that finished and was checked against eager, or None."""
    done = [r for r in rec.results if r.mode != "eager" and r.status == "ok" and r.speedup]
    return max(done, key=lambda r: r.speedup, default=None)


def breakeven(r: ModeResult) -> str:
    """How many calls repay the compile, in the one wording every page uses."""
    if r.breakeven_iters is not None:
        return f"{r.breakeven_iters:,.0f} calls"
    if r.mode != "eager" and r.median_s is not None and r.speedup is not None:
        return "never (not faster)"
    return "—"


def machine_words(m: dict) -> str:
    """'**AMD EPYC, 2 cores** (`cpu-amd-epyc-2c`)': a machine as every page names it."""
    return f"**{machine.label(m)}** (`{m.get('slug', '?')}`)"


def span(recs: list[Record]) -> tuple[str, str]:
    """(the day or range of days the records were measured, their torch versions)."""
    dates = sorted({r.date[:10] for r in recs})
    torch_v = ", ".join(sorted({r.versions.get("torch", "?") for r in recs}))
    return (dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"), torch_v


def this_machine() -> str:
    return machine.describe()["slug"]


def tab_label(slug: str, recs: list[Record]) -> str:
    """'AMD EPYC, 2 cores (this build)' or '(committed)': the tab of one machine."""
    return f"{machine.label(recs[0].machine)} ({'this build' if slug == this_machine() else 'committed'})"


def tab(label: str, body: str) -> str:
    """One tab of a pymdownx.tabbed set (linked across the page by its label)."""
    return f'=== "{label}"\n\n    ' + body.replace("\n", "\n    ") + "\n"


def stamp(recs: list[Record], what: str = "conditions of each workload beside its table on its family page") -> str:
    """The provenance line under a chart or table drawn from several records of one machine."""
    when, torch_v = span(recs)
    return (f"Measured on {machine_words(recs[0].machine)} · {when} · torch {torch_v} · {recs[0].profile} "
            f"profile; {what}\n{{: .evc-provenance }}\n" + "".join(shown(r) for r in recs))


def record_line(record: Record, page: bool = True) -> str:
    """The provenance line of one record: machine, date, versions, threads, samples, sizes, harness."""
    v, m = record.versions, record.machine
    threads = {r.threads for r in record.results if r.threads}
    ns = [r.n for r in record.results if r.n]
    sizes = ", ".join(f"{k} {val}" for k, val in record.spec.get("sizes", {}).items())
    parts = [
        f"Measured on {machine_words(m)}",
        f"{record.date[:10]}",
        f"torch {v.get('torch')}" + (f", CUDA {v['cuda']}" if record.device == "cuda" else ""),
        f"Python {v.get('python')}",
        f"{'/'.join(map(str, sorted(threads)))} threads" if threads else "",
        f"n = {min(ns)}–{max(ns)} samples per mode" if ns else "no samples",
        f"{record.profile} profile ({sizes}, {record.spec.get('dtype')}, {record.spec.get('layout', 'contiguous')}, "
        f"{record.spec.get('step')}" + (f": {record.spec['how']}" if record.spec.get("how") else "") + ")",
        f"harness v{record.harness_version}" + (f", commit `{record.git_commit}`" if record.git_commit else ""),
    ]
    line = " · ".join(p for p in parts if p)
    return line + "\n{: .evc-provenance }\n" + shown(record) if page else line


# --- markers ---------------------------------------------------------------------------------------
def _marker(**fields) -> str:
    return f"\n<!-- evc:shown {json.dumps(fields, sort_keys=True)} -->\n"


def shown(rec: Record) -> str:
    """Marker: this page shows numbers of this record."""
    mine = rec.machine.get("slug") == this_machine() and \
        store.release(rec.versions.get("torch", "")) == store.release(machine.versions()["torch"])
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


def markers(html: str) -> list[dict]:
    """Every marker a finished page carries (HTML-escaped or not)."""
    text = html.replace("&quot;", '"')
    return [json.loads(m) for m in MARKER.findall(text)]


def freshness(this_slug: str, this_torch: str, today: str, shown_on_page: list[dict]) -> str:
    """The footer line of a page: when and where its numbers and outputs were produced."""
    parts = []
    for kind, verb in (("measured", "Numbers measured"), ("ran", "Snippets run"), ("captured", "Errors captured")):
        rows = {(s["machine"], s["date"][:10], s["torch"]) for s in shown_on_page
                if s["kind"] == kind and s.get("how") != "skipped"}
        if not rows:
            continue
        by_machine: dict[tuple[str, str], list[str]] = {}
        for m, d, t in rows:
            by_machine.setdefault((m, t), []).append(d)
        said = []
        for (m, t), dates in sorted(by_machine.items()):
            lo, hi = min(dates), max(dates)
            said.append(f"on {m} ({lo if lo == hi else f'{lo} to {hi}'}, torch {t})")
        parts.append(f"{verb} " + "; ".join(said))
    if not parts:
        parts.append("No measured numbers on this page")
    return ". ".join(parts) + f". Built {today} on {this_slug} with torch {this_torch}."
