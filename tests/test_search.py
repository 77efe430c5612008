"""The site's search: each edition searches its own pages, and a recipe ranks above pages that quote its message."""
import json
from pathlib import Path

import pytest

from eager_vs_compiled.pages import search, troubleshooting
from helpers import ROOT


def _entry(location, title="t", text="x"):
    return {"location": location, "title": title, "text": text}


def test_each_edition_gets_its_own_index_with_locations_from_its_root(tmp_path):
    (tmp_path / "search").mkdir()
    config = {"lang": ["en", "zh"], "separator": "[\\s]+"}
    docs = [_entry(""), _entry("troubleshooting/graph-breaks/#symptom"), _entry("how-to/deploy/"),
            _entry("zh/"), _entry("zh/troubleshooting/graph-breaks/#symptom"), _entry("zh/how-to/deploy/"),
            _entry("zhong/"),  # a page whose name merely starts with the letters of a locale
            ]
    (tmp_path / "search" / "search_index.json").write_text(json.dumps({"config": config, "docs": docs}))
    counts = search.split_by_edition(tmp_path, ["zh"], {"troubleshooting/graph-breaks/"})
    en = json.loads((tmp_path / "search" / "search_index.json").read_text())
    zh = json.loads((tmp_path / "zh" / "search" / "search_index.json").read_text())
    assert counts == {"default": 4, "zh": 3}
    assert [d["location"] for d in en["docs"]] == ["", "troubleshooting/graph-breaks/#symptom", "how-to/deploy/", "zhong/"]
    assert [d["location"] for d in zh["docs"]] == ["", "troubleshooting/graph-breaks/#symptom", "how-to/deploy/"]
    assert en["config"] == zh["config"] == config  # both load the same languages' scripts
    assert [d.get("boost") for d in en["docs"]] == [None, search.RECIPE_BOOST, None, None]
    assert [d.get("boost") for d in zh["docs"]] == [None, search.RECIPE_BOOST, None]


def test_the_recipe_locations_are_the_pages_that_show_a_symptom():
    found = troubleshooting.recipe_locations(ROOT / "docs")
    assert "troubleshooting/graph-breaks/" in found and "troubleshooting/no-cxx-compiler/" in found
    assert "troubleshooting/" not in found and not any(".zh" in loc for loc in found)  # the index, the twins


def test_the_search_workers_ambiguous_node_key_is_mended_and_nothing_else(tmp_path):
    """lunr's `final + label + id` per edge reads "1"->234 like "1"->2, "3"->4: a comma after each id."""
    workers = tmp_path / "assets" / "javascripts" / "workers"
    workers.mkdir(parents=True)
    buggy = ('a(1);t.TokenSet.prototype.toString=function(){if(this._str)return this._str;for(var e=this.final?"1":"0",'
             'r=Object.keys(this.edges).sort(),n=r.length,i=0;i<n;i++){var s=r[i],o=this.edges[s];e=e+s+o.id}return e},'
             't.TokenSet.prototype.intersect=function(e){e=e+s+o.id}')
    (workers / "search.0123abcd.min.js").write_text(buggy)
    (workers / "search.fixed.min.js").write_text("t.TokenSet.prototype.toString=function(){return this.key}")
    assert search.mend_search_worker(tmp_path) == ["search.0123abcd.min.js"]
    assert (workers / "search.0123abcd.min.js").read_text() == buggy.replace(
        'e=e+s+o.id}return e},', 'e=e+s+o.id+","}return e},')  # the other `e=e+s+o.id` (intersect) stays
    assert search.mend_search_worker(tmp_path) == []  # mended once: a second build finds nothing to do


def test_a_search_worker_mended_before_counts_and_one_with_neither_key_is_not(tmp_path):
    workers = tmp_path / "assets" / "javascripts" / "workers"
    workers.mkdir(parents=True)
    mended = 't.TokenSet.prototype.toString=function(){for(var e="1",i=0;i<n;i++){e=e+s+o.id+","}return e}'
    (workers / "search.a.min.js").write_text(mended)
    assert search.mend_search_worker(tmp_path) == [] and search.mended_workers(tmp_path) == ["search.a.min.js"]
    (workers / "search.a.min.js").write_text("t.TokenSet.prototype.toString=function(){return this.key}")
    assert search.mended_workers(tmp_path) == []


def test_a_shim_meeting_a_version_it_does_not_know_stops_naming_itself():
    from eager_vs_compiled.pages import shims

    shims.require("lunr-node-key", "9.8.2")  # the version it was written for
    with pytest.raises(shims.ShimOutdated, match=r"shim 'lunr-node-key' .* mkdocs-material 9\.8\.2, and "
                                                 r"mkdocs-material 9\.9\.0 is installed"):
        shims.require("lunr-node-key", "9.9.0")
    with pytest.raises(shims.ShimOutdated, match="shim 'notebooks-under-i18n'.*not installed"):
        shims.require("notebooks-under-i18n", "")  # "": no version found
    with pytest.raises(shims.ShimOutdated, match="shim 'head-alternate-links' .* found nothing to patch in the head of x.md"):
        shims.applied("head-alternate-links", 0, "the head of x.md")
    assert shims.applied("head-alternate-links", 2, "x") == 2


def test_every_shim_knows_the_version_installed_here():
    """The pinned versions (constraints.txt) are the ones the shims were checked against."""
    from eager_vs_compiled.pages import shims

    pins = dict(line.split("==") for line in (ROOT / "constraints.txt").read_text().split() if "==" in line)
    for shim in shims.SHIMS.values():
        assert pins[shim.package] in shim.versions, shim.name
        if shims.installed(shim.package) is not None:
            shims.require(shim.name)


# The theme's call, as its minified worker (mkdocs-material 9.8.2) has it, inside the search method.
THEME_CUT = ('search(e){if(e=e.replace(new RegExp("\\\\p{sc=Han}+","gu"),s=>[...fe(s,this.index.invertedIndex)]'
             '.join("* ")),e=ce(e),!e)return{items:[]};')


@pytest.mark.parametrize("patch, patched, call, ours, js, function", [
    (search.cut_han_in_queries, search.han_cut_workers, 's=>[...fe(s,this.index.invertedIndex)].join("* ")',
     "(s,at,query)=>evcHanWords(s,at,query,this.index.invertedIndex)", "search_words.js", "evcHanWords"),
    (search.drop_typed_stop_words, search.stop_word_workers, "e=ce(e),!e)", "e=ce(evcTypedWords(e)),!e)",
     "search_stop_words.js", "evcTypedWords"),
], ids=["han-query-words", "typed-stop-words"])
def test_the_worker_calls_the_sites_function_once(tmp_path, patch, patched, call, ours, js, function):
    """The theme's call is swapped for ours (evcHanWords cuts a query's Chinese; evcTypedWords leaves out
    a typed query's stop words first), whose text goes in before the source map comment (the map's lines
    still hold); a second build into the same folder (mkdocs serve) patches nothing twice."""
    workers = tmp_path / "assets" / "javascripts" / "workers"
    workers.mkdir(parents=True)
    theme = f'"use strict";(()=>{{var U=class{{{THEME_CUT}}}}})();\n//# sourceMappingURL=search.0123abcd.min.js.map\n'
    (workers / "search.0123abcd.min.js").write_text(theme)
    assert patched(tmp_path) == []
    assert patch(tmp_path) == ["search.0123abcd.min.js"]
    got = (workers / "search.0123abcd.min.js").read_text()
    changed = THEME_CUT.replace(call, ours)
    head, tail = theme.replace(THEME_CUT, changed).split("\n//# sourceMappingURL=")
    words = (ROOT / "src" / "eager_vs_compiled" / "pages" / js).read_text().rstrip()
    assert words.count(f"function {function}(") == 1 and changed != THEME_CUT
    assert got == f"{head}\n{words}\n//# sourceMappingURL={tail}"  # the first line as it was, but for the call
    assert patched(tmp_path) == ["search.0123abcd.min.js"]
    assert patch(tmp_path) == [] and (workers / "search.0123abcd.min.js").read_text() == got


def test_a_worker_without_the_themes_cut_stops_the_build_naming_the_shim(tmp_path):
    """The build's call (hooks/evc.py): a worker whose lunr keys are mended but whose theme cuts Chinese
    otherwise is left as it is, and the build stops naming the shim that found nothing to patch."""
    from eager_vs_compiled.pages import shims

    workers = tmp_path / "assets" / "javascripts" / "workers"
    workers.mkdir(parents=True)
    moved_on = ('t.TokenSet.prototype.toString=function(){for(var e="1",i=0;i<n;i++){e=e+s+o.id+","}return e};'
                'search(e){if(e=segment(e,this.index),e=ce(e),!e)return{items:[]};')  # a theme that cuts otherwise
    (workers / "search.a.min.js").write_text(moved_on)
    with pytest.raises(shims.ShimOutdated, match=r"shim 'han-query-words' .* found nothing to patch in the theme's "
                                                 r"search worker .*query's Chinese"):
        search.patch_workers(tmp_path)
    assert (workers / "search.a.min.js").read_text() == moved_on and search.han_cut_workers(tmp_path) == []


def test_a_worker_that_parses_queries_otherwise_stops_the_build_naming_the_stop_word_shim(tmp_path):
    from eager_vs_compiled.pages import shims

    workers = tmp_path / "assets" / "javascripts" / "workers"
    workers.mkdir(parents=True)
    moved_on = ('t.TokenSet.prototype.toString=function(){for(var e="1",i=0;i<n;i++){e=e+s+o.id+","}return e};'
                + THEME_CUT.replace("e=ce(e),!e)return{items:[]}", "e=parse(e);if(!e.length)return{items:[]}"))
    (workers / "search.a.min.js").write_text(moved_on)
    with pytest.raises(shims.ShimOutdated, match=r"shim 'typed-stop-words' .* found nothing to patch in the theme's "
                                                 r"search worker .*stop words"):
        search.patch_workers(tmp_path)
    assert search.stop_word_workers(tmp_path) == [] and search.han_cut_workers(tmp_path) == ["search.a.min.js"]


def test_the_installed_themes_worker_takes_every_patch(tmp_path):
    """The anchors of the shims are found in the worker the installed theme ships (not a copy written here)."""
    import shutil

    import material  # the docs extras, which the test extras include

    theirs = sorted((Path(material.__file__).parent / "templates" / "assets" / "javascripts" / "workers")
                    .glob("search.*.js"))
    workers = tmp_path / "assets" / "javascripts" / "workers"
    workers.mkdir(parents=True)
    for worker in theirs:
        shutil.copy(worker, workers / worker.name)
    names = [w.name for w in theirs]
    assert names and search.patch_workers(tmp_path) == {"lunr-node-key": names, "han-query-words": names,
                                                        "typed-stop-words": names}
    assert search.patch_workers(tmp_path) == {"lunr-node-key": [], "han-query-words": [],
                                              "typed-stop-words": []}  # patched before
