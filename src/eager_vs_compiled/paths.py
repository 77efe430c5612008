"""Where things live: the measurement store, the snippets, the caches and the pages.

Each is named by its environment variable where one is set (EVC_MEASUREMENTS, EVC_SNIPPETS,
EVC_CACHE: how the tests, the CLI's `--out` and a reader's shell point elsewhere), else it lies under
the project's root: the folder a build anchors (`anchor`, the folder of mkdocs.yml, wherever mkdocs
runs from), else the current directory. This module alone reads those variables: the build hook and
the page layer ask here and never touch the environment. A child process (isolate) gets the resolved
paths in its environment, so it finds what its parent found.
"""
from __future__ import annotations

import os
from pathlib import Path

DEFAULTS = {"EVC_MEASUREMENTS": "measurements", "EVC_SNIPPETS": "snippets", "EVC_CACHE": ".cache/eager-vs-compiled"}
_anchored: dict[str, Path] = {}  # "root" and "docs", set by a build


def anchor(root: Path, docs: Path) -> None:
    """A build's project root (relative defaults resolve there) and the pages it renders."""
    _anchored.update(root=Path(root).resolve(), docs=Path(docs).resolve())


def root() -> Path:
    """The project's root: the folder a build anchored, else the current one."""
    return _anchored.get("root") or Path.cwd().resolve()


def _named(var: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value else _anchored.get("root", Path()) / DEFAULTS[var]


def measurements() -> Path:
    return _named("EVC_MEASUREMENTS")


def snippets() -> Path:
    return _named("EVC_SNIPPETS")


def cache() -> Path:
    """The build's cache: snippet runs, notebooks, model reports, profiles, the last build's report."""
    return _named("EVC_CACHE")


def docs() -> Path:
    """The pages this build renders (`docs` beside the project when no build anchored them)."""
    return _anchored.get("docs", Path("docs"))


def child_env() -> dict[str, str]:
    """What a child process needs to find the same store, snippets and cache: only where a build
    anchored them (else the child reads the same environment and current directory as this one)."""
    if "root" not in _anchored:
        return {}
    return {var: str(_named(var).resolve()) for var in DEFAULTS}
