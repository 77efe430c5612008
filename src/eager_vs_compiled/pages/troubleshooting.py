"""Troubleshooting recipes: each symptom as the installed torch prints it, and the error index.

A symptom comes from one of three places, best first: this build's run of the snippet; a capture
committed from a machine that could run it (a GPU); the line of the installed torch's source that
raises it. This module only reads: captures are written by the snippet runner.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import re
from pathlib import Path

from .. import captures, snippets
from . import docs_root
from .code import tr_skip
from .lang import current, tr
from .provenance import esc, fence, label, shown_capture, shown_run

SYMPTOM_CALL = re.compile(r'symptom\("([^"]+)"\)')


SOURCE_PACKAGES = ("torch", "triton")  # where a message that cannot be reproduced here is looked up, in order


@functools.lru_cache(maxsize=None)  # a recipe page and the error index ask for the same text
def message_in_source(text: str) -> tuple[str, int, str] | None:
    """Where the installed torch's (else Triton's) source spells `text`: (path under the package, line, the line)."""
    for name in SOURCE_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            continue
        pkg = Path(spec.origin).parent
        for path in sorted(pkg.rglob("*.py")):
            try:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            for i, line in enumerate(lines, 1):
                if text in line:
                    return f"{name}/{path.relative_to(pkg).as_posix()}", i, line.strip()
    return None


def _symptom(rel_path: str) -> tuple[str, str, str, str, str]:
    """(the symptom's text, where it came from as Markdown, kind, the snippet's code, its marker).

    kind: "this build" | "capture" | "source" | "none". A snippet that ran must print, as its first
    line, text matching its `# expects:` header; otherwise the build fails naming it."""
    result = snippets.check(snippets.run(rel_path))
    if not result.skipped:
        problem = snippets.expectation(result)
        if problem:
            raise snippets.SnippetError(problem)
        when = tr("cached from a run on") if result.cached else tr("captured while building this page on")
        return result.stdout.rstrip(), tr("Printed by `snippets/{rel}` — {when} {date}, `{machine}`, torch {torch}.",
                                          rel=rel_path, when=when, date=result.date, machine=result.machine,
                                          torch=result.torch), "this build", result.code, shown_run(result)
    capture = captures.find(rel_path)
    if capture is not None:
        older = "" if capture.get("code") == result.code else tr(" (by an earlier version of the snippet)")
        info = capture.get("machine_info")
        return snippets.relative_paths(capture["stdout"]).rstrip(), tr(
            "Captured on {machine}{info}, torch {torch}, {date}{older}; committed under `measurements/`. "
            "This build ran on `{here}`, where the snippet {why}.", machine=f"<code>{esc(capture['machine'])}</code>",
            info=f" ({label(info)})" if info else "", torch=esc(capture["torch"]), date=esc(capture["date"]),
            older=older, here=result.machine, why=tr_skip(result.skipped)), "capture", result.code, shown_capture(capture)
    head = snippets.headers(result.code)
    hit = message_in_source(head["message-in-source"]) if head.get("message-in-source") else None
    if hit is not None:
        where, line_no, line = hit
        return line, tr(
            "**Not reproduced here**: the snippet {why} and no machine that has one has captured it yet. Above is the "
            "line of the installed packages (torch {torch}) that raises or logs it, `{where}` line {line}; the printed message "
            "fills in the placeholders.", why=tr_skip(result.skipped), torch=result.torch, where=where,
            line=line_no), "source", result.code, shown_run(result)
    return "", tr("Not reproduced here: the snippet {why}.", why=tr_skip(result.skipped)), "none", result.code, \
        shown_run(result)


def symptom(rel_path: str) -> str:
    """A recipe's symptom as the installed torch printed it, with its provenance and how to reproduce it."""
    text, where, kind, code, mark = _symptom(rel_path)
    out = []
    if text:
        out.append(fence(text, "python" if kind == "source" else "text"))
    out.append(f"{where}\n{{: .evc-run }}\n")
    block = fence(code.rstrip("\n"), "python")
    body = "\n".join(("    " + ln) if ln else "" for ln in block.splitlines())
    out.append(f'??? example "{tr("Reproduce it: snippets/{rel}", rel=rel_path)}"\n\n{body}\n')
    return "\n".join(out) + mark


def recipes(root: Path | None = None) -> list[tuple[Path, str, str]]:
    """Every troubleshooting recipe page of the page's language: (page path, its title, its symptom snippet)."""
    found = []
    for page in sorted(((root or docs_root()) / "troubleshooting").glob("*.md")):
        if page.stem.endswith(".zh") != (current() == "zh"):
            continue  # the other edition's page
        text = page.read_text(encoding="utf-8")
        rels = SYMPTOM_CALL.findall(text)
        if not rels:
            continue
        title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), page.stem)
        title = re.sub(r"\s*\{[^}]*\}\s*$", "", title)  # an explicit {#id}
        found += [(page, title, rel) for rel in rels]
    return found


def error_index() -> str:
    """Every captured message (its first line) → its recipe, for Ctrl-F."""
    lines = [tr("| Message (first line, as printed) | Recipe | Where the text comes from |"), "|---|---|---|"]
    marks = []
    for page, title, rel in recipes():
        text, _, kind, code, mark = _symptom(rel)
        marks.append(mark)
        if kind == "source":  # the message itself, not the line of source that raises it (the recipe shows that)
            text = snippets.headers(code)["message-in-source"]
        first = text.strip().splitlines()[0] if text.strip() else tr("(not reproduced on this machine)")
        code = "<code>" + html.escape(first).replace("|", "&#124;") + "</code>"
        origin = {"this build": tr("this build"), "capture": tr("committed capture"),
                  "source": tr("torch source (not reproduced here)"), "none": "—"}[kind]
        link = page.relative_to(docs_root() / "troubleshooting").as_posix().replace(".zh.md", ".md")
        lines.append(f"| {code} | [{title.replace('|', '&#124;')}]({link}) | {origin} |")
    return "\n".join(lines) + "\n" + "".join(marks)


def recipe_locations(root: Path | None = None) -> set[str]:
    """The site locations of the recipe pages (`troubleshooting/graph-breaks/`), the same in every edition."""
    pages = ((root or docs_root()) / "troubleshooting").glob("*.md")
    return {f"troubleshooting/{p.name.removesuffix('.md').removesuffix('.zh')}/"
            for p in pages if SYMPTOM_CALL.search(p.read_text(encoding="utf-8"))}
