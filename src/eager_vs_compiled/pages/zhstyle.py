"""Spacing and punctuation where Chinese meets Latin text, as the Chinese pages write it.

The Chinese edition follows the usual rules of Chinese technical writing: a space between a Chinese
character and a Latin letter or a digit (“在 GPU 上”, “第 3 行”), full-width punctuation after
Chinese text (“，” not “,”), no space after full-width punctuation (“，而”, not “， 而”), and no
space between a curly quotation mark and the Chinese character beside it (叫作“守卫”的检查, not
叫作 “守卫” 的检查: the marks are full-width punctuation too, whatever they enclose).
`cjk_spacing_problems` finds the places that break them in the visible text of a rendered page; the
caller removes code first (code keeps its own spacing). Standard library only.
"""

from __future__ import annotations

import re

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # the ideographs; punctuation is not among them
FULL_WIDTH_PUNCTUATION = "，。；：？！、）"
QUOTES = "“”"  # the Chinese pages quote with these only (a test refuses 「」); ‘’ is also the apostrophe
_CONTEXT = 8  # characters shown each side of a problem

_RULES = (  # lookaheads, so that overlapping places (“a中b”) are all found
    (re.compile(f"(?=[A-Za-z0-9][{CJK}]|[{CJK}][A-Za-z0-9])"),
     "no space between a Latin letter or digit and a Chinese character"),
    (re.compile(f"(?=[{CJK}][,;:?!])"), "half-width punctuation directly after a Chinese character"),
    (re.compile(f"(?=[{FULL_WIDTH_PUNCTUATION}][ \u3000](?!·))"), "a space after full-width punctuation"),  # " · " lists
    (re.compile(f"(?=[{CJK}][ \u3000]+[{QUOTES}]|[{QUOTES}][ \u3000]+[{CJK}])"),
     "a space between a quotation mark and a Chinese character"),
)


def cjk_spacing_problems(text: str) -> list[str]:
    """Every place in `text` that breaks one of the four rules, in the order they occur.

    Each problem reads `"<rule>: …<the text around it>…"`. The rules: a Latin letter or digit
    directly beside a Chinese character (either side); a half-width `, ; : ? !` directly after a
    Chinese character; a space (or an ideographic space) after one of `，。；：？！、）`; a space
    between a Chinese character and a curly quotation mark `“` or `”` (either side, whether the
    quotation is Chinese or an English message: 报“No working C++ compiler found”时). A line
    break is not a space, and text with no Chinese in it gives no problem.

    >>> cjk_spacing_problems("在 GPU 上运行，然后看第 3 行。")
    []
    >>> cjk_spacing_problems("在GPU 上")
    ['no space between a Latin letter or digit and a Chinese character: …在GPU 上…']
    """
    found: list[tuple[int, str]] = []
    for pattern, what in _RULES:
        for match in pattern.finditer(text):
            at = match.start()
            around = text[max(0, at - _CONTEXT + 1):at + _CONTEXT + 1].replace("\n", " ")
            found.append((at, f"{what}: …{around}…"))
    return [message for _, message in sorted(found, key=lambda item: item[0])]
