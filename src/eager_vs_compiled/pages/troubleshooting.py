"""Troubleshooting recipes: each symptom as the installed torch prints it, and the error index.

A symptom comes from one of three places, best first: this build's run of the snippet; a capture
committed from a machine that could run it (a GPU); the line of the installed torch's source that
raises it. This module only reads: captures are written by the snippet runner.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import os
import re
from pathlib import Path

from .. import captures, snippets
from .provenance import esc, fence, label, shown_capture, shown_run

SYMPTOM_CALL = re.compile(r'symptom\("([^"]+)"\)')


@functools.lru_cache(maxsize=None)  # a recipe page and the error index ask for the same text
def message_in_source(text: str) -> tuple[str, int, str] | None:
    """Where the installed torch's source spells `text`: (path under torch/, line number, the line)."""
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


def _symptom(rel_path: str) -> tuple[str, str, str, str, str]:
    """(the symptom's text, where it came from as Markdown, kind, the snippet's code, its marker).

    kind: "this build" | "capture" | "source" | "none". A snippet that ran must print, as its first
    line, text matching its `# expects:` header; otherwise the build fails naming it."""
    result = snippets.check(snippets.run(rel_path))
    if not result.skipped:
        problem = snippets.expectation(result)
        if problem:
            raise snippets.SnippetError(problem)
        when = "cached from a run on" if result.cached else "captured while building this page on"
        return result.stdout.rstrip(), (f"Printed by `snippets/{rel_path}` — {when} {result.date}, "
                                        f"`{result.machine}`, torch {result.torch}."), "this build", \
            result.code, shown_run(result)
    capture = captures.find(rel_path)
    if capture is not None:
        older = "" if capture.get("code") == result.code else " (by an earlier version of the snippet)"
        info = capture.get("machine_info")
        return snippets.relative_paths(capture["stdout"]).rstrip(), (
            f"Captured on <code>{esc(capture['machine'])}</code>{f' ({label(info)})' if info else ''}, "
            f"torch {esc(capture['torch'])}, {esc(capture['date'])}{older}; committed under `measurements/`. "
            f"This build ran on `{result.machine}`, where the snippet {result.skipped}."), "capture", \
            result.code, shown_capture(capture)
    head = snippets.headers(result.code)
    hit = message_in_source(head["message-in-source"]) if head.get("message-in-source") else None
    if hit is not None:
        where, line_no, line = hit
        return line, (
            f"**Not reproduced here**: the snippet {result.skipped} and no machine that has one has "
            f"captured it yet. Above is the line of the installed torch {result.torch} that raises or logs it, "
            f"`{where}` line {line_no}; the printed message fills in the placeholders."), "source", \
            result.code, shown_run(result)
    return "", f"Not reproduced here: the snippet {result.skipped}.", "none", result.code, shown_run(result)


def symptom(rel_path: str) -> str:
    """A recipe's symptom as the installed torch printed it, with its provenance and how to reproduce it."""
    text, where, kind, code, mark = _symptom(rel_path)
    out = []
    if text:
        out.append(fence(text, "python" if kind == "source" else "text"))
    out.append(f"{where}\n{{: .evc-run }}\n")
    block = fence(code.rstrip("\n"), "python")
    body = "\n".join(("    " + ln) if ln else "" for ln in block.splitlines())
    out.append(f'??? example "Reproduce it: snippets/{rel_path}"\n\n{body}\n')
    return "\n".join(out) + mark


def _docs_root() -> Path:
    return Path(os.environ.get("EVC_DOCS", "docs"))


def recipes(docs_root: Path | None = None) -> list[tuple[Path, str, str]]:
    """Every troubleshooting recipe page: (page path, its title, its symptom snippet)."""
    found = []
    for page in sorted(((docs_root or _docs_root()) / "troubleshooting").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        rels = SYMPTOM_CALL.findall(text)
        if not rels:
            continue
        title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), page.stem)
        found += [(page, title, rel) for rel in rels]
    return found


def error_index() -> str:
    """Every captured message (its first line) → its recipe, for Ctrl-F."""
    lines = ["| Message (first line, as printed) | Recipe | Where the text comes from |", "|---|---|---|"]
    marks = []
    for page, title, rel in recipes():
        text, _, kind, _, mark = _symptom(rel)
        marks.append(mark)
        first = text.strip().splitlines()[0] if text.strip() else "(not reproduced on this machine)"
        code = "<code>" + html.escape(first).replace("|", "&#124;") + "</code>"
        origin = {"this build": "this build", "capture": "committed capture",
                  "source": "torch source (not reproduced here)", "none": "—"}[kind]
        link = page.relative_to(_docs_root() / "troubleshooting").as_posix()
        lines.append(f"| {code} | [{title.replace('|', '&#124;')}]({link}) | {origin} |")
    return "\n".join(lines) + "\n" + "".join(marks)
