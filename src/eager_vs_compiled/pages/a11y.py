"""Boxes that may scroll sideways are reachable by keyboard from the moment a page is shown.

A table, a code block or a notebook cell wider than its column scrolls inside its own box, and a box
that scrolls must take the keyboard's focus (WCAG 2.1.1; axe-core's `scrollable-region-focusable`).
Whether a box scrolls depends on the screen's width, the font and the theme's script, so a script that
sets `tabindex` once it sees a box scroll always comes a frame late after a resize (and the theme's own
takes it off on devices without hover). Here every box that *can* scroll gets `tabindex="0"` in the
HTML itself; `docs/javascripts/a11y.js` puts it back wherever the theme's script removes it.
"""

from __future__ import annotations

import re

# A Markdown table (the theme makes the table itself the scrolling box); a highlighted code block
# (pymdownx.highlight: `<pre><span></span><code>`, the code element scrolls); a notebook cell (mkdocs-jupyter).
_BOXES = re.compile(
    r"<table(?=[\s>])(?![^>]*\stabindex=)"
    r"|(?<=<pre>)(?:<span></span>)?<code(?=[\s>])(?![^>]*\stabindex=)"
    r'|<div(?=\s)(?=[^>]*\sclass="[^"]*\bhighlight-ipynb\b)(?![^>]*\stabindex=)')


def focusable_scroll_boxes(html: str) -> str:
    """`html` with `tabindex="0"` on every table, highlighted code block and notebook cell that lacks one."""
    return _BOXES.sub(lambda m: f'{m.group(0)} tabindex="0"', html)
