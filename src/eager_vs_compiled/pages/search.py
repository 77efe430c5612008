"""The site's search: one index per edition, and the recipes first for a pasted error message.

Material's search plugin writes one index for the whole site, and the i18n plugin fills it with every
edition's pages. A reader of the Chinese edition who pastes an error (always English, as torch prints
it) would then land on English pages. After the build, `split_by_edition` keeps the default edition's
entries in `search/search_index.json` and writes each other edition's entries to
`<lang>/search/search_index.json`, with locations relative to that edition's root; the theme's
`overrides/main.html` points an edition's pages at its own index.

A troubleshooting recipe's entries get a boost: the message a reader pastes is printed on its page,
and also quoted on pages that only mention it; the recipe is the answer.
"""
from __future__ import annotations

import json
from pathlib import Path

RECIPE_BOOST = 4  # lunr multiplies a document's score by it: enough to rank a recipe above a page that quotes its message


def split_by_edition(site_dir: Path, others: list[str], recipe_pages: set[str]) -> dict[str, int]:
    """Rewrite the site's search index as one index per edition; return the entries each got.

    `others`: the locales built under their own folder (`zh`); `recipe_pages`: the locations (relative
    to an edition's root, e.g. `troubleshooting/graph-breaks/`) of the troubleshooting recipes."""
    path = site_dir / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    editions: dict[str, list[dict]] = {lang: [] for lang in ["", *others]}
    for entry in index["docs"]:
        lang = next((code for code in others if entry["location"].startswith(f"{code}/")), "")
        entry = {**entry, "location": entry["location"].removeprefix(f"{lang}/" if lang else "")}
        if entry["location"].split("#")[0] in recipe_pages:
            entry["boost"] = RECIPE_BOOST
        editions[lang].append(entry)
    for lang, docs in editions.items():
        target = site_dir / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".tmp")
        tmp.write_text(json.dumps({"config": index["config"], "docs": docs}, separators=(",", ":")), encoding="utf-8")
        tmp.replace(target)
    return {lang or "default": len(docs) for lang, docs in editions.items()}
