"""Every place the build patches or reads the inside of another package, in one list.

A shim is written against one version of the package it patches. Each names that version; a build
with another version installed stops at its start with a message naming the shim, what it does and
the file to look at, instead of quietly patching nothing (or the wrong thing) later. A shim whose
target is gone in a version it knows (nothing left to patch) stops the build the same way. To move a
package on: check that the shim still applies to the new version (or delete it), then add the version.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata


class ShimOutdated(RuntimeError):
    """A shim meets a version of its package it was not written for, or finds nothing to patch."""


@dataclass(frozen=True)
class Shim:
    name: str
    package: str  # the distribution it patches or reads the inside of
    versions: tuple[str, ...]  # the versions it was checked against
    what: str  # what it does, and where
    upstream: str = ""  # the report of the bug it works around, where there is one


SHIMS = {s.name: s for s in (
    Shim("lunr-node-key", "mkdocs-material", ("9.8.2",),
         "rewrites lunr's TokenSet.prototype.toString in the theme's minified search worker "
         "(assets/javascripts/workers/search.*.js; pages/search.py, mend_search_worker)",
         "https://github.com/olivernn/lunr.js/issues/503 (open: a loaded index that does not find words it "
         "holds; the theme bundles lunr 2.3.9, whose TokenSet keys are ambiguous as tests/test_search.py shows)"),
    Shim("han-query-words", "mkdocs-material", ("9.8.2",),
         "points the theme's minified search worker (assets/javascripts/workers/search.*.js) at its own cut "
         "of a query's Chinese into the index's words, in place of the theme's, which drops words "
         "(pages/search.py, cut_han_in_queries; pages/search_words.js)"),
    Shim("typed-stop-words", "mkdocs-material", ("9.8.2",),
         "points the theme's minified search worker (assets/javascripts/workers/search.*.js) at its own "
         "function before a query is turned into lunr's syntax, which leaves out the English stop words a "
         "reader typed (pages/search.py, drop_typed_stop_words; pages/search_stop_words.js)"),
    Shim("head-alternate-links", "mkdocs-material", ("9.8.2",),
         "removes the <link rel=\"alternate\" hreflang> lines material/templates/base.html writes into "
         "each page's head (hooks/evc.py, on_post_page)"),
    Shim("i18n-building-flag", "mkdocs-static-i18n", ("1.3.1",),
         "reads the i18n plugin's `building` attribute to tell a later edition of the same build "
         "(mkdocs_static_i18n/plugin.py; hooks/evc.py, _edition_inside)"),
    Shim("notebooks-under-i18n", "mkdocs-jupyter", ("0.26.3",),
         "wraps the tutorial notebooks in mkdocs_jupyter.plugin.NotebookFile again after the i18n plugin "
         "remade them as plain files (hooks/evc.py, _notebooks_again)"),
    Shim("notebook-cache-entry", "mkdocs-jupyter", ("0.26.3",),
         "finds a notebook page's own cached run with the plugin's private _compute_cache_key and "
         "_get_cache_path (mkdocs_jupyter/plugin.py), for the date on that page (hooks/evc.py, _notebook_run)"),
)}


def installed(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def require(name: str, version: str | None = None) -> None:
    """Stop unless shim `name` was written for the installed version of its package (or `version`)."""
    shim = SHIMS[name]
    found = version if version is not None else installed(shim.package)
    if found not in shim.versions:
        raise ShimOutdated(
            f"shim {name!r} (src/eager_vs_compiled/pages/shims.py) was written for {shim.package} "
            f"{', '.join(shim.versions)}, and {shim.package} {found or '(not installed)'} is installed. "
            f"It {shim.what}. Check that it still applies to this version (or remove it), then add the version.")


def applied(name: str, count: int, where: str) -> int:
    """Stop where shim `name` found nothing to patch in `where`; else return `count`."""
    if count == 0:
        shim = SHIMS[name]
        raise ShimOutdated(
            f"shim {name!r} (src/eager_vs_compiled/pages/shims.py) found nothing to patch in {where} "
            f"({shim.package} {installed(shim.package)}). It {shim.what}. The package changed: "
            f"check whether the problem is gone, then remove the shim or mend it.")
    return count
