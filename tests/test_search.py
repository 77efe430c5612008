"""The site's search: each edition searches its own pages, and a recipe ranks above pages that quote its message."""
import json

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
