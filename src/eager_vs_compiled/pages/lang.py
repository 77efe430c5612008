"""The language a page is rendered in, and the words of the render layer in each.

The build hook sets the language of each page before its directives run (`using`); page functions
wrap every English phrase they print in `tr`, which returns it, or its Chinese in `zh.WORDS` on a
Chinese page. Numbers, names and records are the same in both editions: only the words change.
"""

from __future__ import annotations

import contextlib
from contextvars import ContextVar

LANGUAGES = ("en", "zh")
_CURRENT: ContextVar[str] = ContextVar("evc_page_language", default="en")


def current() -> str:
    return _CURRENT.get()


def is_zh() -> bool:
    return _CURRENT.get() == "zh"


def set_language(language: str):
    """The language of the page the build renders next (the hook calls it for every page)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown page language {language!r}; known: {', '.join(LANGUAGES)}")
    return _CURRENT.set(language)


@contextlib.contextmanager
def using(language: str):
    """Render in `language` inside the block only (tests, one-off renders)."""
    token = set_language(language)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def tr_known(text: str) -> str:
    """Text that comes from a record (a workload's title): its Chinese when the phrase book has it."""
    if _CURRENT.get() == "zh":
        from .zh import WORDS

        return WORDS.get(text, text)
    return text


def tr(english: str, /, **values) -> str:
    """`english` (a str.format template) in the page's language, filled with `values`."""
    text = english
    if _CURRENT.get() == "zh":
        from .zh import WORDS

        try:
            text = WORDS[english]
        except KeyError:
            raise KeyError(f"no Chinese for the render layer's phrase {english!r} (add it to pages/zh.json)") from None
    return text.format(**values) if values else text


def colon() -> str:
    """What follows a label: a full-width colon in Chinese (no space after it), ': ' in English."""
    return "：" if is_zh() else ": "


def then() -> str:
    """What stands between two sentences: a space in English, nothing after Chinese's full stop."""
    return "" if is_zh() else " "
