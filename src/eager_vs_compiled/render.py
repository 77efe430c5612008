"""Markdown and SVG for the pages, generated from records and snippet runs (never typed).

Pages call these from markdown-exec blocks, e.g. `print(render.workload("resnet50_infer_fp32"))`.
Tables need only the standard library; charts import matplotlib lazily (a docs dependency).
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from . import captures, machine, measure, snippets, store
from .records import ModeResult, Record


# What the page being rendered showed: (kind, machine slug, date, torch). The build hook reads and
# clears it per page to write the footer's freshness stamp.
SHOWN: list[tuple[str, str, str, str]] = []


def _shown_record(rec: Record) -> Record:
    SHOWN.append(("measured", rec.machine.get("slug", "?"), rec.date[:10], rec.versions.get("torch", "?")))
    return rec


def _shown_run(result) -> None:
    if not result.skipped:
        SHOWN.append(("ran", result.machine, result.date, result.torch))


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


def _status(r: ModeResult) -> str:
    if r.status == "ok":
        return "ok ⚠ noisy" if r.noisy else "ok"
    msg = re.sub(r"\s+", " ", snippets.relative_paths(r.message)).replace("|", "\\|")[:160]
    return f"**{r.status}**: {msg}" if msg else f"**{r.status}**"


def _row(r: ModeResult, items: str) -> list[str]:
    has_time = r.median_s is not None
    baseline = r.mode == "eager"
    memory = fmt_bytes(r.peak_memory_bytes)
    if r.memory_kind == "process_peak_rss" and r.peak_memory_bytes is not None:
        memory += " RSS"
    if r.breakeven_iters is not None:
        breakeven = f"{r.breakeven_iters:,.0f} calls"
    elif has_time and not baseline and r.speedup is not None:
        breakeven = "never (not faster)"
    else:
        breakeven = "—"
    if r.status == "mismatch":  # a wrong answer's speed is not a result: show why, not how fast
        why = "not shown: output differs from eager"
        return [f"`{r.mode}`", why, "—", "—", "—", "—", memory,
                "—" if r.max_rel_err is None else f"**{r.max_rel_err:.1e}**", _status(r)]
    return [
        f"`{r.mode}`",
        f"{fmt_time(r.median_s)} ± {fmt_time(r.iqr_s / 2)} (n={r.n})" if has_time else "—",
        (f"{r.throughput:,.1f} {items}/s" if r.throughput else "—")
        + (f" ({r.tflops:.3g} TFLOP/s)" if r.tflops else ""),
        "1× (baseline)" if baseline and has_time else (
            f"**{r.speedup:.2f}×** (eager {fmt_time(r.eager_median_s)})" if r.speedup else "—"),
        "—" if baseline else f"{fmt_time(r.compile_cold_s)} / {fmt_time(r.compile_warm_s)}"
        + (f" / {fmt_time(r.compile_mega_s)} Mega-Cache" if r.compile_mega_s is not None else ""),
        breakeven,
        memory,
        "—" if r.max_rel_err is None else f"{r.max_rel_err:.1e}",
        _status(r),
    ]


HEADER = ["Mode", "Median ± ½ IQR (n)", "Throughput", "Speedup vs eager", "Compile cold / warm",
          "Break-even", "Peak memory", "Max rel. error", "Status"]


def table(record: Record, page: bool = True) -> str:
    """One Markdown table of a record, then its provenance line (styled on a page)."""
    items = record.spec.get("items", "calls")
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(_row(r, items)) + " |" for r in record.results]
    return "\n".join(lines) + "\n\n" + _eager_spread(record) + provenance(record, page) + "\n"


def _eager_spread(record: Record) -> str:
    """Say so when eager itself ran at different speeds in different processes."""
    medians = [r.median_s for r in record.results if r.mode == "eager" and r.median_s]
    medians += [r.eager_median_s for r in record.results if r.eager_samples_s]
    if len(medians) < 2 or max(medians) <= 1.1 * min(medians):
        return ""
    return (f"Eager's median differed between processes on this machine ({fmt_time(min(medians))} to "
            f"{fmt_time(max(medians))}): compare each mode with the eager run beside it (the speedup), "
            "not absolute times across rows.\n\n")


def provenance(record: Record, page: bool = True) -> str:
    v, m = record.versions, record.machine
    threads = {r.threads for r in record.results if r.threads}
    ns = [r.n for r in record.results if r.n]
    sizes = ", ".join(f"{k} {val}" for k, val in record.spec.get("sizes", {}).items())
    parts = [
        f"Measured on **{machine.label(m)}** (`{m.get('slug')}`)",
        f"{record.date[:10]}",
        f"torch {v.get('torch')}" + (f", CUDA {v['cuda']}" if record.device == "cuda" else ""),
        f"Python {v.get('python')}",
        f"{'/'.join(map(str, sorted(threads)))} threads" if threads else "",
        f"n = {min(ns)}–{max(ns)} samples per mode" if ns else "no samples",
        f"{record.profile} profile ({sizes}, {record.spec.get('dtype')}, {record.spec.get('layout', 'contiguous')}, "
        f"{record.spec.get('step')}" + (f": {record.spec['how']}" if record.spec.get("how") else "") + ")",
        f"harness v{record.harness_version}" + (f", commit `{record.git_commit}`" if record.git_commit else ""),
    ]
    return " · ".join(p for p in parts if p) + ("\n{: .evc-provenance }" if page else "")


def workload(name: str) -> str:
    """The section for one workload: this machine measured now if needed, every machine's table.

    Machines become linked tabs (content.tabs.link), this machine first. A workload outside this
    machine's profile shows the committed records of other machines, or says none exist yet.
    """
    from . import workloads

    w = workloads.get(name)
    mine = _shown_record(measure.ensure_record(name)) if w.in_profile(workloads.default_profile()) else None
    slug = machine.describe()["slug"]
    others = [_shown_record(r) for r in store.records_for(name) if r.machine.get("slug") != slug]
    if mine is None and not others:
        profiles = " and ".join(p for p in workloads.PROFILES if w.in_profile(p))
        return (f'!!! note "Not measured yet"\n    This workload is in the {profiles} profile only, and no '
                f"machine has committed a record of it yet (`python -m eager_vs_compiled measure "
                f"--profile gpu` writes one; see [add your machine](add-your-machine.md)).\n")
    out = []
    for rec in ([mine] if mine else []) + others:
        tag = "this build" if rec is mine else "committed"
        body = table(rec) + _history_note(rec)
        body = body.replace("\n", "\n    ")
        out.append(f'=== "{machine.label(rec.machine)} ({tag})"\n\n    {body}')
    return "\n".join(out)


def _history_note(rec: Record) -> str:
    """Other torch releases this machine measured the workload with, kept as history."""
    shown = store.release(rec.versions.get("torch", ""))
    older = [rel for rel in store.releases(None, rec.machine.get("slug", "")) if rel != shown
             and store.path_for(store.default_root(), rec.machine["slug"], rec.workload, rel).exists()]
    if not older:
        return ""
    return (f"\nThis machine also measured it with torch {', '.join(older)}, kept as history: "
            "[torch releases compared](releases.md).\n")


def build_machine() -> str:
    """This build's machine in words, from its machine facts: 'Intel Xeon, 2 cores (`slug`), with no
    CUDA GPU' or 'NVIDIA H200 (`slug`): 1 CUDA GPU'. Pages use it instead of typing it."""
    me = machine.describe()
    gpus = me.get("gpus") or []
    has = (f"{len(gpus)} CUDA GPU{'s' if len(gpus) > 1 else ''} ({', '.join(g['name'] for g in gpus)})"
           if gpus else "no CUDA GPU")
    return f"**{me['cpu']}, {me['cores']} cores** (`{me['slug']}`), with {has}"


def needs_gpu(what: str, then: str = "") -> str:
    """`then` on a build with a CUDA GPU; elsewhere a note that `what` needs one, naming this build's machine."""
    if machine.describe().get("gpus"):
        return then
    return (f'!!! note "Needs a CUDA GPU"\n    {what[0].upper() + what[1:]} needs a CUDA GPU. This build ran on '
            f"{build_machine()}, so it is not measured on this page; a build on a machine with one "
            f"measures it ([add your machine](../benchmarks/add-your-machine.md)).\n")


def _best(rec: Record) -> ModeResult | None:
    """The fastest compiled mode that finished and was checked against eager, or None."""
    done = [r for r in rec.results if r.mode != "eager" and r.status == "ok" and r.speedup]
    return max(done, key=lambda r: r.speedup, default=None)


def headline(names: list[str]) -> str:
    """A compact table for the home page: best compiled speedup per workload on this machine."""
    lines = ["| Workload | Eager (same process) | Best compiled | Speedup | Compile (cold) | Break-even |",
             "|---|---|---|---|---|---|"]
    recs = [_shown_record(measure.ensure_record(name)) for name in names]
    for rec in recs:
        best = _best(rec)
        if best is None:
            lines.append(f"| {rec.title} | — | no compiled mode finished | — | — | — |")
            continue
        be = f"{best.breakeven_iters:,.0f} calls" if best.breakeven_iters is not None else "never"
        lines.append(f"| {rec.title} | {fmt_time(best.eager_median_s)} | `{best.mode}` "
                     f"{fmt_time(best.median_s)} | **{best.speedup:.2f}×** | {fmt_time(best.compile_cold_s)} | {be} |")
    dates = sorted({r.date[:10] for r in recs})
    when = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
    m, v = recs[0].machine, recs[0].versions
    note = (f"Measured on **{machine.label(m)}** (`{m.get('slug')}`) · {when}"
            f" · torch {v.get('torch')} · Python {v.get('python')} · sizes and sample counts per workload on "
            f"the [benchmark page](benchmarks/index.md)\n{{: .evc-provenance }}")
    return "\n".join(lines) + "\n\n" + note + "\n"


def speedup_chart(names: list[str]) -> str:
    """Inline SVG: speedup vs eager per workload and compiled mode on this machine."""
    from . import charts

    recs = [_shown_record(measure.ensure_record(n)) for n in names]
    rows = [(f"{r.workload} · {m.mode}", m.speedup if m.status == "ok" else None)
            for r in recs for m in r.results if m.mode != "eager"]
    title = f"Speedup of torch.compile over eager on {machine.label(recs[0].machine)}"
    return charts.bars(rows, title, "speedup vs eager (×); dashed line: eager", "speedups-" + "-".join(names))


def snippet(rel_path: str) -> str:
    """A snippet's exact text as a code block, then what it printed when this build ran it."""
    result = snippets.check(snippets.run(rel_path))
    _shown_run(result)
    shown = f"snippets/{rel_path}"
    code = result.code if result.code.endswith("\n") else result.code + "\n"
    out = [f'````python title="{shown}"\n{code}````\n']
    if result.skipped:
        out.append(f'!!! note "Not run on this machine"\n    This snippet {result.skipped}; '
                   f"this build ran on {result.machine} (torch {result.torch}).\n")
        return "\n".join(out)
    when = "cached from a run on" if result.cached else "ran on"
    printed = result.stdout.rstrip() or "(no output)"
    out.append(f"Output — {when} {result.date}, `{result.machine}`, torch {result.torch}, "
               f"in {result.duration_s:.1f} s:\n{{: .evc-run }}\n")
    out.append(f"````text\n{printed}\n````\n")
    return "\n".join(out)


def snippet_index() -> str:
    """Every snippet file, what it shows, and where this build ran it."""
    lines = ["| Snippet | What it shows | Ran on |", "|---|---|---|"]
    for path in sorted(Path(snippets.root()).rglob("*.py")):
        rel = path.relative_to(snippets.root()).as_posix()
        body = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
        first = next((ln.strip().strip('"') for ln in body if ln.strip()), "")
        result = snippets.check(snippets.run(rel))  # cached when its page already ran it
        _shown_run(result)
        ran = (f"not run: {result.skipped}" if result.skipped else
               f"`{result.machine}`, torch {result.torch}, {result.date}")
        first = first.replace("|", "\\|")  # a pipe would end the table cell
        lines.append(f"| `{rel}` | {first} | {ran} |")
    return "\n".join(lines) + "\n"


# --- Troubleshooting: captured symptoms and the error index -------------------------------------

@functools.lru_cache(maxsize=None)  # a recipe page and the error index ask for the same text
def message_in_source(text: str) -> tuple[str, int, str] | None:
    """Where the installed torch's source spells `text`: (path under torch/, line number, the line)."""
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is None or not spec.origin:
        return None
    pkg = Path(spec.origin).parent
    for path in sorted(pkg.rglob("*.py")):
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for i, line in enumerate(lines, 1):
            if text in line:
                return f"torch/{path.relative_to(pkg).as_posix()}", i, line.strip()
    return None


def _symptom(rel_path: str) -> tuple[str, str, str, str]:
    """(the symptom's text, where it came from as Markdown, kind, the snippet's code).

    kind: "this build" | "capture" | "source" | "none". A snippet that ran must print, as its first
    line, text matching its `# expects:` header; otherwise the build fails naming it.
    """
    result = snippets.check(snippets.run(rel_path))
    _shown_run(result)
    head = snippets.headers(result.code)
    if not result.skipped:
        text = result.stdout.rstrip()
        first = text.lstrip().splitlines()[0] if text.strip() else ""
        if "expects" in head and not re.match(head["expects"], first):
            raise snippets.SnippetError(
                f"snippet {result.path} no longer reproduces its symptom: its first line {first!r} "
                f"does not match its '# expects: {head['expects']}' header")
        if snippets.requirements(result.code):
            captures.save(result, rel_path)
        when = "cached from a run on" if result.cached else "captured while building this page on"
        return text, (f"Printed by `snippets/{rel_path}` — {when} {result.date}, `{result.machine}`, "
                      f"torch {result.torch}."), "this build", result.code
    capture = captures.find(rel_path)
    if capture is not None:
        older = "" if capture.get("code") == result.code else " (by an earlier version of the snippet)"
        SHOWN.append(("captured", capture["machine"], capture["date"], capture["torch"]))
        info = capture.get("machine_info")
        return capture["stdout"].rstrip(), (
            f"Captured on `{capture['machine']}`{f' ({machine.label(info)})' if info else ''}, "
            f"torch {capture['torch']}, {capture['date']}{older}; committed under `measurements/`. "
            f"This build ran on `{result.machine}`, where the snippet {result.skipped}."), "capture", result.code
    hit = message_in_source(head["message-in-source"]) if head.get("message-in-source") else None
    if hit is not None:
        where, line_no, line = hit
        return line, (
            f"**Not reproduced here**: the snippet {result.skipped} and no machine that has one has "
            f"captured it yet. Above is the line of the installed torch {result.torch} that raises or logs it, "
            f"`{where}` line {line_no}; the printed message fills in the placeholders."), "source", result.code
    return "", f"Not reproduced here: the snippet {result.skipped}.", "none", result.code


def symptom(rel_path: str) -> str:
    """A recipe's symptom as the installed torch printed it, with its provenance and how to reproduce it."""
    text, where, kind, code = _symptom(rel_path)
    out = []
    if text:
        out.append(f"````{'python' if kind == 'source' else 'text'}\n{text}\n````\n")
    out.append(f"{where}\n{{: .evc-run }}\n")
    body = code if code.endswith("\n") else code + "\n"
    body = "\n".join(("    " + ln) if ln else "" for ln in body.splitlines())
    out.append(f'??? example "Reproduce it: snippets/{rel_path}"\n\n    ````python\n{body}\n    ````\n')
    return "\n".join(out)


def _docs_root() -> Path:
    return Path(os.environ.get("EVC_DOCS", "docs"))


def recipes(docs_root: Path | None = None) -> list[tuple[Path, str, str]]:
    """Every troubleshooting recipe page: (page path, its title, its symptom snippet)."""
    found = []
    for page in sorted(((docs_root or _docs_root()) / "troubleshooting").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        rels = re.findall(r'render\.symptom\("([^"]+)"\)', text)
        if not rels:
            continue
        title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), page.stem)
        found += [(page, title, rel) for rel in rels]
    return found


def error_index() -> str:
    """Every captured message (its first line) → its recipe, for Ctrl-F."""
    import html

    lines = ["| Message (first line, as printed) | Recipe | Where the text comes from |", "|---|---|---|"]
    for page, title, rel in recipes():
        text, _, kind, _ = _symptom(rel)
        first = text.strip().splitlines()[0] if text.strip() else "(not reproduced on this machine)"
        cell = "<code>" + html.escape(first).replace("|", "&#124;") + "</code>"
        origin = {"this build": "this build", "capture": "committed capture",
                  "source": "torch source (not reproduced here)", "none": "—"}[kind]
        link = page.relative_to(_docs_root() / "troubleshooting").as_posix()
        lines.append(f"| {cell} | [{title.replace('|', '&#124;')}]({link}) | {origin} |")
    return "\n".join(lines) + "\n"


def freshness(this_machine: str, this_torch: str, today: str, shown=None) -> str:
    """The footer line of a page: when and where its numbers and outputs were produced."""
    shown = SHOWN if shown is None else shown
    parts = []
    for kind, verb in (("measured", "Numbers measured"), ("ran", "Snippets run"), ("captured", "Errors captured")):
        rows = {(m, d, t) for k, m, d, t in shown if k == kind}
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
    return ". ".join(parts) + f". Built {today} on {this_machine} with torch {this_torch}."


def harness_settings() -> str:
    """The harness's sampling thresholds per profile, read from the code that uses them."""
    from . import stats

    lines = ["| Profile | Min. sample length | Samples (min–max) | Time budget per mode | Stops at median precision | Flagged noisy above IQR/median | Timeout per process |",
             "|---|---|---|---|---|---|---|"]
    for profile, cfg in measure.TIMING.items():
        lines.append(f"| `{profile}` | {fmt_time(cfg['min_sample_s'])} | {cfg['n_min']}–{cfg['n_max']} | "
                     f"{fmt_time(cfg['budget_s'])} | ±{measure.MEDIAN_PRECISION:.0%} | "
                     f"{stats.NOISY_IQR_FRACTION:.0%} | {fmt_time(cfg['timeout_s'])} |")
    return "\n".join(lines) + f"\n\nHarness version {measure.HARNESS_VERSION}, from `src/eager_vs_compiled/child.py`.\n{{: .evc-provenance }}\n"


def evidence(workload_name: str, what: str = "speedup", mode: str | None = None) -> str:
    """One line of evidence from this machine's record, for the claims page: a speedup, the compile
    time or peak memory of one compiled mode (default: the fastest), with where it was measured."""
    from . import workloads

    rec = _shown_record(measure.ensure_record(workload_name))
    r = rec.result(mode) if mode else _best(rec)
    where = (f"measured on `{rec.machine.get('slug')}`, {rec.date[:10]}, torch {rec.versions.get('torch')}, "
             f"[table](../benchmarks/{workloads.get(workload_name).family}.md)")
    if r is None or r.status != "ok":
        status = r.status if r is not None else "no compiled mode finished"
        return f"{rec.title}: **{status}**, not measured ({where})"
    if what == "speedup":
        value = f"**{r.speedup:.2f}×** with `{r.mode}` (eager {fmt_time(r.eager_median_s)} → {fmt_time(r.median_s)})"
    elif what == "compile":
        value = f"compile **{fmt_time(r.compile_cold_s)}** cold, {fmt_time(r.compile_warm_s)} warm (`{r.mode}`)"
    elif what == "memory":
        eager = rec.result("eager")
        value = (f"peak memory eager {fmt_bytes(eager.peak_memory_bytes if eager else None)}, "
                 f"`{r.mode}` {fmt_bytes(r.peak_memory_bytes)}"
                 + (" (process peak RSS; the compiled process ran from a warm cache)"
                    if r.memory_kind == "process_peak_rss" else ""))
    else:
        raise ValueError(f"unknown evidence kind {what!r}: speedup, compile or memory")
    return f"{rec.title}: {value}; {where}"
