"""The site's search: one index per edition, and the recipes first for a pasted error message.

Material's search plugin writes one index for the whole site, and the i18n plugin fills it with every
edition's pages. A reader of the Chinese edition who pastes an error (always English, as torch prints
it) would then land on English pages. After the build, `split_by_edition` keeps the default edition's
entries in `search/search_index.json` and writes each other edition's entries to
`<lang>/search/search_index.json`, with locations relative to that edition's root; the theme's
`overrides/main.html` points an edition's pages at its own index.

A troubleshooting recipe's entries get a boost: the message a reader pastes is printed on its page,
and also quoted on pages that only mention it; the recipe is the answer.

The theme's search worker is patched in the built site three times (each a shim of pages/shims.py):
lunr's ambiguous node keys (`mend_search_worker`), the cut of a query's Chinese into words, which must
find the words jieba cut the pages into (`cut_han_in_queries`, search_words.js), and the English stop
words of a typed query, left out as the index leaves them out (`drop_typed_stop_words`,
search_stop_words.js).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

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


# lunr (the theme's search engine) keys each node of its token automaton by `final flag + label + id`
# for every edge, with nothing between a one-character label and the numeric id of the node it leads
# to: "1" then node 234 reads like "1" then node 2 and "3" then node 4. Two different nodes can then
# be merged when the automaton is minimised, and a search whose words expand over such a node asks
# the index for a word it does not hold: the worker throws ("Cannot read properties of undefined
# (reading '_index')") and the reader sees "No matching documents". Which words trigger it depends on
# the whole site's text: in this site, at one point, any search for "eager". A comma after each id
# makes every key unambiguous (a label is one character, an id only digits).
_TOKENSET_KEY = re.compile(r"(TokenSet\.prototype\.toString=function\(\)\{.{0,200}?)(\w)=\2\+(\w)\+(\w)\.id\}return \2\}")


_MENDED_KEY = re.compile(r'TokenSet\.prototype\.toString=function\(\)\{.{0,200}?(\w)=\1\+(\w)\+(\w)\.id\+","\}return \1\}')


def _workers(site_dir: Path) -> list[Path]:
    return sorted((site_dir / "assets" / "javascripts" / "workers").glob("search.*.js"))


def _patch_workers(site_dir: Path, patch) -> list[str]:
    """Rewrite each search worker of the built site with `patch` (its text -> the new text); the names
    of the files it changed."""
    patched = []
    for worker in _workers(site_dir):
        text = worker.read_text(encoding="utf-8")
        if (new := patch(text)) != text:
            worker.write_text(new, encoding="utf-8")
            patched.append(worker.name)
    return patched


def mended_workers(site_dir: Path) -> list[str]:
    """The theme's search workers in the built site whose lunr keys are unambiguous (mended)."""
    return [w.name for w in _workers(site_dir) if _MENDED_KEY.search(w.read_text(encoding="utf-8"))]


def mend_search_worker(site_dir: Path) -> list[str]:
    """Patch the theme's search worker in the built site where it has lunr's ambiguous key; the names
    of the files patched (none where the theme's lunr no longer has it)."""
    return _patch_workers(site_dir, lambda text: _TOKENSET_KEY.sub(
        lambda m: f'{m[1]}{m[2]}={m[2]}+{m[3]}+{m[4]}.id+","}}return {m[2]}}}', text))


# The theme's worker cuts each run of Chinese characters in a query with its own function, before the
# query is parsed: `e.replace(new RegExp("\\p{sc=Han}+","gu"),s=>[...fe(s,this.index.invertedIndex)]
# .join("* "))`. That cut loses words (see search_words.js): "Triton 与 torch 版本不匹配" searched for
# Triton, torch and 版本 only, and found another recipe first. The call is pointed at evcHanWords
# (search_words.js, added to the worker before its source map comment, so the map still holds), which
# cuts the run into the index's words.
_HAN_CUT = re.compile(r'(new RegExp\("\\\\p\{sc=Han\}\+","gu"\),)(\w+)=>'
                      r'\[\.\.\.\w+\(\2,(this\.index\.invertedIndex)\)\]\.join\("\* "\)')
@dataclass(frozen=True)
class _Call:
    """A call in the theme's worker pointed at a function of ours, whose JS file goes into the worker
    before its source map comment (the map's lines still hold)."""

    anchor: re.Pattern  # the theme's call
    to: Callable  # its match -> our call
    source: Path  # the JS file that defines `function`
    function: str
    called: str  # how the patched call reads in the worker

    def apply(self, text: str) -> str:
        new, n = self.anchor.subn(self.to, text)
        if not n:
            return text
        tail = new.rfind("\n//# sourceMappingURL=")
        tail = len(new) if tail < 0 else tail
        return f"{new[:tail]}\n{self.source.read_text(encoding='utf-8').rstrip()}{new[tail:]}"

    def workers(self, site_dir: Path) -> list[str]:
        """The search workers in the built site that carry this patch."""
        return [w.name for w in _workers(site_dir)
                if self.called in (text := w.read_text(encoding="utf-8")) and f"function {self.function}(" in text]


HAN_WORDS = _Call(_HAN_CUT, lambda m: f"{m[1]}({m[2]},at,query)=>evcHanWords({m[2]},at,query,{m[3]})",
                  Path(__file__).with_name("search_words.js"), "evcHanWords", "=>evcHanWords(")


def han_cut_workers(site_dir: Path) -> list[str]:
    """The search workers in the built site that cut a query's Chinese into the index's words."""
    return HAN_WORDS.workers(site_dir)


def cut_han_in_queries(site_dir: Path) -> list[str]:
    """Point the theme's search worker in the built site at evcHanWords for the Chinese of a query; the
    names of the files patched (none where patched before, or where the theme has no such cut)."""
    return _patch_workers(site_dir, HAN_WORDS.apply)


# The theme's worker turns the query into lunr's syntax (a trailing wildcard on every word) right after
# that cut: `e=ce(e),!e)return{items:[]}`. What it is given there first goes through evcTypedWords
# (search_stop_words.js), which leaves out the English stop words a reader typed: the index holds none
# of them, and as prefixes they matched the titles of unrelated pages ("in" InvalidCxxCompiler, "to"
# torch.compile), so a question typed as a sentence found those first.
TYPED_WORDS = _Call(re.compile(r"(?<![\w$])(\w)=(\w+)\(\1\),!\1\)return\{items:\[\]\}"),
                    lambda m: f"{m[1]}={m[2]}(evcTypedWords({m[1]})),!{m[1]})return{{items:[]}}",
                    Path(__file__).with_name("search_stop_words.js"), "evcTypedWords", "(evcTypedWords(")


def stop_word_workers(site_dir: Path) -> list[str]:
    """The search workers in the built site that leave out the English stop words of a typed query."""
    return TYPED_WORDS.workers(site_dir)


def drop_typed_stop_words(site_dir: Path) -> list[str]:
    """Point the theme's search worker in the built site at evcTypedWords before a query is parsed; the
    names of the files patched (none where patched before, or where the theme has no such call)."""
    return _patch_workers(site_dir, TYPED_WORDS.apply)


def patch_workers(site_dir: Path) -> dict[str, list[str]]:
    """The patches of the theme's search worker in the built site: {shim: the files it patched now}. Stops
    (shims.ShimOutdated, naming the shim) where a patch is in no worker, made now or by an earlier build
    into the same folder (mkdocs serve): the theme changed under it. Each patch is checked before the
    next is made, so a worker the theme changed is left as the first patch that fails found it."""
    from . import shims

    now = {}
    for name, patch, patched in (("lunr-node-key", mend_search_worker, mended_workers),
                                 ("han-query-words", cut_han_in_queries, han_cut_workers),
                                 ("typed-stop-words", drop_typed_stop_words, stop_word_workers)):
        now[name] = patch(site_dir)
        shims.applied(name, len(patched(site_dir)), "the theme's search worker")
    return now
