"""The report on a reader's model: the verdict in one line, the compile-readiness check, the table
of every mode, as Markdown (terminal, the how-to page) and as one standalone HTML file (no network,
no web fonts). Standard library; the chart is added when matplotlib is installed."""

from __future__ import annotations

import functools
import re

from ..recipes import kind
from ..records import Record
from .ratios import with_interval
from .provenance import best, esc, fmt_bytes, interval, noise_floor, ok, ranked, verdict
from .recipe import not_ahead_of
from .tables import table


def one_line(rec: Record) -> str:
    """'compile with `default`: 1.31× faster (1.22–1.40), pays off after 420 calls, costs 96 MiB more'
    or 'do not compile: ...', following the interval rules of the site."""
    wrong = [r.mode for r in rec.results if r.status == "mismatch"]
    fastest = best(rec)
    if fastest is None:
        failed = ", ".join(f"{r.mode}: {r.status}" for r in rec.results if r.mode != "eager")
        return f"do not compile: no compiled mode finished and matched eager ({esc(failed)})"
    lo, hi = interval(fastest) or (fastest.speedup, fastest.speedup)
    said = with_interval(fastest.speedup, lo, hi)
    if verdict(fastest) != "faster":
        why = "slower" if verdict(fastest) == "slower" else "no measurable difference"
        return (f"do not compile: the best mode, `{esc(fastest.mode)}`, is {said} against eager — {why}"
                + (f"; outputs differ from eager in {', '.join(map(esc, wrong))}" if wrong else ""))
    eager = rec.result("eager")
    more = (fastest.peak_memory_bytes or 0) - (eager.peak_memory_bytes or 0) if eager else 0
    memory = f"costs {fmt_bytes(more)} more memory" if more > 0 else f"saves {fmt_bytes(-more)} of memory"
    pays = f"pays off after {fastest.breakeven_iters:,.0f} calls" if fastest.breakeven_iters else "pays off at once"
    how = "compile with" if kind(fastest.mode) == "compile" else "convert to"
    tied = [f"`{esc(m.mode)}`" for m, _ in not_ahead_of(fastest, rec, [(r, rec) for r in ranked(rec)], noise_floor([rec]))]
    level = f" (within the noise of {', '.join(tied)})" if tied else ""  # it is not the best alone
    return f"{how} `{esc(fastest.mode)}`: {said} faster{level}, {pays}, {memory}"


KIND_WORDS = {"eager": "eager", "compile": "torch.compile", "aot": "torch.export + AOTInductor", "engine": "engine",
              "other": "unknown mode"}


def _kind(mode: str) -> str:
    return KIND_WORDS[kind(mode)]


def ranking_lines(rec: Record) -> str:
    """Every mode measured, fastest correct first (speedup over the eager run beside it, with its
    interval and the word it allows), then the modes that did not finish, with why."""
    lines = []
    for i, r in enumerate(ranked(rec), 1):
        lo, hi = interval(r) or (r.speedup, r.speedup)
        lines.append(f"{i}. `{esc(r.mode)}` ({_kind(r.mode)}): {with_interval(r.speedup, lo, hi)}, {verdict(r)}")
    lines += [f"- `{esc(r.mode)}`: {esc(r.status)}" + (f" ({esc(r.message)})" if r.message else "")
              for r in rec.results if r.mode != "eager" and r.status != "ok"]
    return "\n".join(lines) + "\n" if lines else "- no mode beside eager was measured\n"


def readiness_lines(ready: dict) -> str:
    if "error" in ready:
        return f"- the readiness check failed: {esc(ready['error'])}\n"
    lines = [f"- graphs: {ready['graphs']}, graph breaks: {ready['graph_breaks']} (`torch._dynamo.explain`)"]
    lines += [f"    - break: {esc(reason)}" for reason in ready.get("break_reasons", [])]
    if "recompiles_on_second_shape" in ready:
        lines.append(f"- recompiles when called with the second input shape: {ready['recompiles_on_second_shape']}")
    checked = ready.get("max_rel_err", {})
    lines += [f"- `{esc(mode)}`: largest relative difference from eager {err:.1e}" for mode, err in checked.items()]
    return "\n".join(lines) + "\n"


def markdown(rec: Record, ready: dict) -> str:
    """The report as Markdown: what the terminal prints and the how-to page shows."""
    errors = {r.mode: r.max_rel_err for r in rec.results if r.max_rel_err is not None}
    return (f"**Verdict:** {one_line(rec)}.\n\n### Every way measured, fastest correct first\n\n"
            + ranking_lines(rec) + "\n### Compile readiness\n\n"
            + readiness_lines({**ready, "max_rel_err": errors})
            + f"\n### Every mode\n\n{table(rec, page=False)}\n")


def _inline(text: str) -> str:
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"`([^`]+)`", lambda m: f"<code>{m.group(1)}</code>", text)


def standalone_html(rec: Record, ready: dict) -> str:
    """One HTML file with everything inline: it opens offline, without a request to any host."""
    body = []
    for block in markdown(rec, ready).split("\n\n"):
        lines = block.strip().splitlines()
        if not lines:
            continue
        if lines[0].startswith("### "):
            body.append(f"<h2>{_inline(lines[0][4:])}</h2>")
        elif lines[0].startswith("|"):
            rows = [[c.strip() for c in ln.strip("|").split(" | ")] for ln in lines if not ln.startswith("|---")]
            head = "".join(f"<th>{_inline(c)}</th>" for c in rows[0])
            cells = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
            body.append(f'<table tabindex="0"><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table>')  # it scrolls
        elif all(re.match(r"(- |\d+\. )", ln.strip()) for ln in lines):  # bullets, or the ranking
            tag = "ol" if lines[0][0].isdigit() else "ul"
            items = [re.sub(r"^(- |\d+\. )", "", ln.strip()) for ln in lines]
            body.append(f"<{tag}>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + f"</{tag}>")
        else:
            body.append(f"<p>{_inline(' '.join(lines))}</p>")
    body.append(_chart(rec))
    title = esc(f"torch.compile on {rec.title}")
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{title}</title>'
            # no icon to fetch: the file is opened on its own, often from disk, and asks nothing of a server
            f'<link rel="icon" href="data:,"><style>{CSS}</style></head>'
            f"<body><main><h1>{title}</h1>\n" + "\n".join(body) + "\n</main></body></html>\n")


def _chart(rec: Record) -> str:
    try:
        from . import charts

        rows = [(r.mode, r.speedup if ok(r) else None, interval(r) if ok(r) else None)
                for r in rec.results if r.mode != "eager"]
        return charts.bars(rows, f"Speedup over eager, {rec.title}", "speedup vs eager (×)", f"report-{rec.workload}")
    except ImportError:  # a bare image without matplotlib: the tables say it all
        return ""


CSS = ("body{font-family:system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}main{max-width:60rem;"
       "margin:auto;padding:1rem}table{border-collapse:collapse;display:block;overflow-x:auto}td,th{border:1px "
       "solid #bbb;padding:.3rem .5rem;text-align:left}code{background:#f1f1f1;padding:0 .2rem}"
       "@media (prefers-color-scheme:dark){body{background:#111;color:#eee}code{background:#333}}"
       "svg{max-width:100%;height:auto}")



REPORTS = "model-reports"  # beside a release's records: the example report this machine measured
REPORT_FILES = ("json", "md", "html")


def report_target(rel_target: str) -> str:
    """A factory under snippets/ (`FILE.py:FUNCTION`) as the CLI names it: relative to the project's
    root (the CLI runs there), so the record names no checkout path and a clone anywhere finds it."""
    from .. import paths, snippets

    rel_file, _, function = rel_target.rpartition(":")
    path, here = (snippets.root() / rel_file).resolve(), paths.root()
    return f"{path.relative_to(here) if path.is_relative_to(here) else path}:{function}"


def model_report(rel_target: str, modes: list[str] | None = None) -> str:
    """The how-to page's report: the real CLI run on a factory under snippets/ (`FILE.py:FUNCTION`),
    with `modes` (`--mode` each; default: the command's), its Markdown report shown and its standalone
    HTML linked. The run is kept beside this machine's records (<release>/model-reports/, committed like
    them), written there by the `prepare` step (prepare.py) when missing or stale: this only reads it."""
    from .. import store
    from .context import current
    from .downloads import SCHEME
    from .lang import tr
    from .provenance import _marker, shown

    ctx, target = current(), report_target(rel_target)
    name = store.model_name(target)
    kept = store.release_dir(store.default_root(), ctx.slug, ctx.release) / REPORTS
    if not all((kept / f"{name}.{ext}").exists() for ext in REPORT_FILES):
        return (f'!!! note "{tr("Not measured on this machine")}"\n    '
                + tr("This report has not been measured on {machine} with torch {torch}: `./evc.sh site` measures it "
                     "before it builds (its first step, `python -m eager_vs_compiled prepare`).", machine=f"`{ctx.slug}`",
                     torch=ctx.torch) + "\n")
    rec = records_load(kept / f"{name}.json")
    text = (kept / f"{name}.md").read_text(encoding="utf-8")
    dest = f"reports/{name}.html"
    link = "\n" + tr("The same report as a standalone HTML file, as the command wrote it: {link}.",
                     link=f'<a href="{SCHEME}{dest}">{name}.html</a>') + "\n"
    return (text.replace("### ", "#### ") + link + shown(rec)
            + _marker(kind="file", src=(kept / f"{name}.html").relative_to(store.default_root()).as_posix(),
                      dest=dest, machine="", date="", torch="", key=dest))


def records_load(path):
    from ..records import load

    return load(path)
