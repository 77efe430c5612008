"""Snippets on the pages: a snippet's exact text and what it printed, and the index of them all."""

from __future__ import annotations

from pathlib import Path

from .. import snippets
from .lang import tr
from .provenance import cell, fence, shown_run


NOISY = "noisy — rerun on an idle machine"  # what a timing snippet prints past its spread threshold


def tr_skip(why: str) -> str:
    """'requires cuda' (the runner's reason for not running a snippet) in the page's language."""
    return tr("requires {what}", what=why.removeprefix("requires ")) if why.startswith("requires ") else why


def snippet(rel_path: str) -> str:
    """A snippet's exact text as a code block, then what it printed when this build ran it."""
    result = snippets.check(snippets.run(rel_path))
    out = [fence(result.code.rstrip("\n"), f'python title="snippets/{rel_path}"')]
    if result.skipped:
        out.append(f'!!! note "{tr("Not run on this machine")}"\n    '
                   + tr("This snippet {why}; this build ran on {machine} (torch {torch}).", why=tr_skip(result.skipped),
                        machine=result.machine, torch=result.torch) + "\n")
        return "\n".join(out) + shown_run(result)
    when = tr("cached from a run on") if result.cached else tr("ran on")
    printed = result.stdout.rstrip() or "(no output)"
    noisy = [ln.strip() for ln in printed.splitlines() if NOISY in ln]
    if noisy:
        out.append(f'!!! warning "{tr("Noisy timings in this run")}"\n    '
                   + tr("The snippet measured a spread above its threshold ({n} line{s} flagged below): the machine "
                        "was busy while it ran. Compare the timings with care, or run it again on an idle machine.",
                        n=len(noisy), s="s" if len(noisy) > 1 else "") + "\n")
    # An untimed snippet may have run beside others (a build runs those side by side, forked from an
    # interpreter that had imported torch): its duration is not what a reader's run takes, so none is shown.
    line = ("Output — {when} {date}, `{machine}`, torch {torch}, side by side with other snippets that time "
            "nothing:" if result.beside else
            "Output — {when} {date}, `{machine}`, torch {torch}, in {seconds:.1f} s:")
    out.append(tr(line, when=when, date=result.date, machine=result.machine, torch=result.torch,
                  seconds=result.duration_s)
               + "\n{: .evc-run }\n")
    out.append(fence(printed))
    return "\n".join(out) + shown_run(result)


def snippet_index() -> str:
    """Every snippet file, what it shows, and where this build ran it."""
    lines = [tr("| Snippet | What it shows | Ran on |"), "|---|---|---|"]
    marks = []
    for path in sorted(Path(snippets.root()).rglob("*.py")):
        rel = path.relative_to(snippets.root()).as_posix()
        body = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
        first = next((ln.strip().strip('"') for ln in body if ln.strip()), "")
        result = snippets.check(snippets.run(rel))  # cached when its page already ran it
        marks.append(shown_run(result))
        ran = (tr("not run: {why}", why=tr_skip(result.skipped)) if result.skipped else
               f"`{result.machine}`, torch {result.torch}, {result.date}")
        lines.append(f"| `{rel}` | {cell(first)} | {ran} |")
    return "\n".join(lines) + "\n" + "".join(marks)
