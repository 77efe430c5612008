"""Hostile text in a record (a fork's title, mode, slug, message, machine name, versions) through every
renderer that prints record fields: it stays text. No tag opens, no link forms, no quote ends an
attribute, in the renderer's own output and once Markdown has read it, also indented in a tab (where
Markdown reads the inside of inline HTML too)."""
import html.parser
import re

import markdown
import pytest
import yaml

from eager_vs_compiled import store
from eager_vs_compiled.pages import charts, claims, downloads, home, machines, provenance, report, tables
from eager_vs_compiled.records import ModeResult, Record
from helpers import ROOT, pages_read

HOSTILE = ('--><script>alert(1)</script> " onmouseover="alert(1) \' | [x](javascript:alert(1)) '
           '{{ snippet("x.py") }} ``` `')
E = [0.010] * 5
pytestmark = pytest.mark.filterwarnings("ignore:Tight layout not applied")  # the long labels


def hostile_record() -> Record:
    eager = ModeResult("eager", "ok", samples_s=list(E), peak_memory_bytes=2**30).finish(1)
    fast = ModeResult(HOSTILE, "ok", message=HOSTILE, samples_s=[e / 2 for e in E], eager_samples_s=list(E),
                      first_call_s=1.0, peak_memory_bytes=2**30, memory_kind="process_peak_rss").finish(1)
    wrong = ModeResult(HOSTILE + "!", "mismatch", message=HOSTILE, samples_s=[e / 4 for e in E],
                       eager_samples_s=list(E), max_rel_err=0.5).finish(1)
    return Record(workload="mlp", title=HOSTILE, profile=HOSTILE, device="cpu",
                  spec={"sizes": {"batch": 2}, "dtype": HOSTILE, "how": HOSTILE}, spec_hash=HOSTILE,
                  harness_version=1, machine={"slug": HOSTILE, "cpu": HOSTILE, "cores": 2},
                  versions={"torch": HOSTILE, "python": HOSTILE}, date="2026-01-01" + HOSTILE,
                  git_commit=HOSTILE, results=[eager, fast, wrong])


@pytest.fixture
def rec(monkeypatch):
    """The hostile record, where every page reads its records from."""
    r = hostile_record()
    pages_read(monkeypatch, lambda name: r)
    monkeypatch.setattr(store, "records_for", lambda name, *args, **kwargs: [r])
    return r


READY = {"graphs": 1, "graph_breaks": 1, "break_reasons": [HOSTILE]}
RENDERERS = {
    "table": lambda r: tables.table(r),
    "home headline": lambda r: home.headline(["mlp"]),
    "evidence, speedup": lambda r: claims.evidence("mlp"),
    "evidence, compile": lambda r: claims.evidence("mlp", "compile"),
    "evidence, memory": lambda r: claims.evidence("mlp", "memory"),
    "evidence, failed mode": lambda r: claims.evidence("mlp", mode=HOSTILE + "!"),
    "provenance stamp": lambda r: provenance.stamp([r]),
    "provenance record line": lambda r: provenance.record_line(r),
    "machine tab": lambda r: provenance.tab(provenance.tab_label(HOSTILE, [r]), "body"),
    "footer stamp": lambda r: provenance.freshness("me", "2.15.0", "2026-01-02", provenance.markers(provenance.shown(r))),
    "raw data links": lambda r: downloads.links(r),
    "record outline": lambda r: machines.record_outline("mlp", HOSTILE),
    "report, Markdown": lambda r: report.markdown(r, READY),
    "report, standalone HTML": lambda r: report.standalone_html(r, READY),
    "home chart": lambda r: home.speedup_chart(["mlp"]),
    "chart title and labels": lambda r: charts.bars([(HOSTILE, 2.0, (1.5, 2.5))], HOSTILE, HOSTILE, "hostile"),
}


def site_markdown(text: str) -> str:
    """`text` as the site's Markdown (mkdocs.yml's extensions) renders it."""
    names, configs = [], {}
    for ext in yaml.safe_load((ROOT / "mkdocs.yml").read_text())["markdown_extensions"]:
        name, config = next(iter(ext.items())) if isinstance(ext, dict) else (ext, {})
        names.append(name)
        configs[name] = config or {}
    return markdown.markdown(text, extensions=names, extension_configs=configs)


class Tags(html.parser.HTMLParser):
    def __init__(self, text: str):
        super().__init__()
        self.found: list[tuple[str, list]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, attrs))


def assert_inert(out: str) -> None:
    assert "<script" not in out.lower()
    assert "](javascript:" not in out
    for tag, attrs in Tags(out).found:  # the record's quote ended no attribute, opened no tag
        assert tag not in ("script", "iframe", "object", "embed"), tag
        for name, value in attrs:
            assert not name.startswith("on"), (tag, name, value)
            assert not (value or "").strip().lower().startswith("javascript:"), (tag, name, value)


@pytest.mark.parametrize("name", RENDERERS)
def test_hostile_record_text_stays_text_in_what_the_renderer_writes(rec, name):
    out = RENDERERS[name](rec)
    assert_inert(out)
    assert "{{ snippet(" in out  # printed as it is, never used as a str.format template


@pytest.mark.parametrize("name", [n for n in RENDERERS if n != "report, standalone HTML"])
@pytest.mark.parametrize("in_tab", [False, True], ids=["page", "tab"])
def test_hostile_record_text_stays_text_once_markdown_has_read_it(rec, name, in_tab):
    out = RENDERERS[name](rec)
    assert_inert(site_markdown(provenance.tab("machine", out) if in_tab else out))


def test_hostile_text_keeps_every_table_row_to_its_columns(rec):
    for text in (tables.table(rec), home.headline(["mlp"]), machines.record_outline("mlp", HOSTILE)):
        for table in re.findall(r"<table>.*?</table>", site_markdown(text), re.S):
            rows = re.findall(r"<tr>.*?</tr>", table, re.S)
            assert {len(re.findall(r"<t[dh][ >]", row)) for row in rows} == {len(re.findall(r"<th[ >]", rows[0]))}


@pytest.mark.parametrize("in_tab", [False, True], ids=["page", "tab"])
def test_the_build_reads_a_hostile_records_marker_back_whole(rec, in_tab):
    out = provenance.shown(rec)
    page = site_markdown(provenance.tab("machine", out) if in_tab else out)
    assert provenance.markers(page) == [{"kind": "measured", "machine": HOSTILE, "date": "2026-01-01" + HOSTILE,
                                         "torch": HOSTILE, "key": f"{HOSTILE}/mlp", "mine": False}]
    assert "-->" not in out.strip()[:-3]  # the record's text never ends the comment early


def test_raw_data_links_carry_the_path_as_a_url(rec):
    tags = [attrs for tag, attrs in Tags(downloads.links(rec)).found if tag == "a"]
    assert [[name for name, _ in attrs] for attrs in tags] == [["href", "download"], ["href", "download"], ["href"]]
    for (_, href), _ in tags[:2]:
        assert href.startswith(downloads.SCHEME) and not re.search(r"[\s\"'<>\[\]`|]", href), href
    assert tags[2] == [("href", "evc-page:reference/data.md")]  # how to load them: a fixed page, no record text
