"""The strict site build, checked in its HTML, and its failure modes."""
import re
from pathlib import Path

import pytest
from helpers import ROOT, build, last_report, make_record, small_site
pytestmark = pytest.mark.slow


def pages(site_dir: Path):
    return sorted(site_dir.rglob("*.html"))


def _chinese(site_dir: Path, page: Path) -> bool:
    return page.relative_to(site_dir).parts[0] == "zh"


def test_benchmark_pages_have_every_workload_with_numbers_and_provenance(site):
    from eager_vs_compiled import store, workloads
    from eager_vs_compiled.pages import benchmarks

    for family in workloads.FAMILIES:
        html = (site["dir"] / "benchmarks" / benchmarks.PAGE[family].removesuffix(".md") / "index.html").read_text()
        members = workloads.family(family)
        for w in members:
            assert f"<code>{w.name}</code>" in html, f"{family} page lacks {w.name}"
        profile = workloads.default_profile()
        # the build measures its scheduled workloads; an on-demand one shows a table once a record of
        # it is committed, and until then says it is not measured yet
        measured = [w for w in members if w.scheduled(profile) or (w.in_profile(profile) and store.records_for(w.name))]
        waiting = [w for w in members if w.in_profile(profile) and w not in measured]
        assert html.count("Not measured yet") >= len(waiting), (family, [w.name for w in waiting])
        columns = (("Latency: time per call, one stream (95% interval)", "vs fp32 eager", "Conversion (cold)",
                    "Start from the artifact (warm)", "Artifact", "Break-even", "Peak memory", "Max rel. error")
                   if family == "engines" else  # its own ranked table per workload (pages/engines.py)
                   ("Median ± ½ IQR (n)", "Speedup vs eager", "Compile cold / warm", "Break-even",
                    "Peak memory", "Max rel. error"))
        for column in columns:
            assert html.count(column) >= len(measured), (family, column)
        assert html.count('class="evc-provenance"') >= len(measured)
    overview = (site["dir"] / "benchmarks" / "index.html").read_text()
    assert overview.count('class="evc-chart"') >= 3  # speedups, amortisation, memory
    for page in pages(site["dir"]):
        if page.parent.name == "search" or page.name == "404.html" or "data" in page.relative_to(site["dir"]).parts:
            continue  # data/ holds downloads (the standalone model report), not pages of the site
        stamp = re.search(r'<p class="evc-stamp">([^<]+)</p>', page.read_text())
        built = (r"本页于 \d{4}-\d\d-\d\d 在 \S+ 上用 torch \S+ 构建。" if _chinese(site["dir"], page)
                 else r"Built \d{4}-\d\d-\d\d on \S+ with torch \S+\.")
        assert stamp and re.search(built, stamp.group(1)), page
    bench = (site["dir"] / "benchmarks" / "index.html").read_text()
    assert re.search(r'class="evc-stamp">Numbers measured on \S+ \(\d{4}-', bench)


def of_this_build(site: dict, key: str):
    """What the fixture's own build left (its log, the store before and after it); a site built elsewhere
    (EVC_TEST_SITE) has none of it, so the test says so and skips instead of failing on a KeyError."""
    if key not in site:
        pytest.skip(f"the site was built elsewhere (EVC_TEST_SITE): no {key} of its build to check")
    return site[key]


def test_the_build_never_remeasures_or_overwrites_records_of_other_releases(site):
    before, after = of_this_build(site, "history_before"), of_this_build(site, "history_after")
    assert before, "no history in the store: nothing to protect (the committed store has older releases)"
    changed = sorted(k for k in before if after.get(k) != before[k])
    assert not changed and set(after) == set(before), f"history touched by the build: {changed}"


def test_tutorial_notebook_was_executed(site):
    html = (site["dir"] / "tutorials" / "first_compile_tutorial" / "index.html").read_text()
    assert "first compiled call:" in html and "graphs: 1, graph breaks: 0" in html


def test_every_snippet_is_included_by_some_page():
    sources = "\n".join(p.read_text() for p in (ROOT / "docs").rglob("*.md"))
    for snippet in (ROOT / "snippets").rglob("*.py"):
        rel = snippet.relative_to(ROOT / "snippets").as_posix()
        assert f'"{rel}"' in sources, f"snippets/{rel} is on no page"


def test_snippet_folders_mirror_the_docs_sections():
    sections = {p.name for p in (ROOT / "docs").iterdir() if p.is_dir()}
    folders = {p.name for p in (ROOT / "snippets").iterdir() if p.is_dir()}
    assert folders <= sections, folders - sections
    for snippet in (ROOT / "snippets").rglob("*.py"):
        rel = snippet.relative_to(ROOT / "snippets").as_posix()
        pages = [p for p in (ROOT / "docs" / snippet.parent.name).rglob("*.md") if f'"{rel}"' in p.read_text()]
        assert pages, f"snippets/{rel} is shown by no page of docs/{snippet.parent.name}/"


def test_no_built_page_shows_the_builders_checkout_path(site):
    """Captured outputs say `snippets/x.py`, never where the builder cloned the repository."""
    leaks = [p.relative_to(site["dir"]).as_posix() for p in sorted(site["dir"].rglob("*"))
             if p.suffix in (".html", ".json", ".xml", ".txt") and str(ROOT) in p.read_text(errors="replace")]
    assert not leaks, f"{ROOT} appears in: {leaks}"


def test_no_built_page_carries_the_builds_own_data_or_link_schemes(site):
    """What a page showed reaches the footer and the build report as the page's data, not as comments
    in the published HTML; the private link schemes of the page functions are all resolved."""
    found = [p.relative_to(site["dir"]).as_posix() for p in sorted(site["dir"].rglob("*.html"))
             if re.search(r"<!-- evc:|evc-data:|evc-page:", p.read_text(errors="replace"))]
    assert not found, found


# --- the build's own behaviour, on a site of one page --------------------------------------------
HELLO = '"""Hello."""\nprint("hi")\nassert True\n'


@pytest.mark.beside_build
def test_an_unchanged_rebuild_measures_and_runs_nothing(tmp_path):
    from eager_vs_compiled import store

    env = small_site(tmp_path, '''\
        # Page
        {{ snippet("hello.py") }}

        {{ workload("tiny_op") }}
        ''', {"hello.py": HELLO})
    store.save(make_record("tiny_op"), tmp_path / "m")  # fresh for this machine: reused, not measured
    first = build(tmp_path / "site1", cwd=tmp_path, env=env)
    assert first.returncode == 0, first.stderr[-3000:]
    assert {k: last_report(env["EVC_CACHE"])[k] for k in ("measured", "reused", "snippets_ran")} == \
        {"measured": 0, "reused": 1, "snippets_ran": 1}
    second = build(tmp_path / "site2", cwd=tmp_path, env=env)
    assert second.returncode == 0, second.stderr[-3000:]
    report = last_report(env["EVC_CACHE"])
    assert (report["measured"], report["reused"], report["snippets_ran"], report["snippets_cached"]) == (0, 1, 0, 1)
    assert "measured 0 workloads" in second.stderr
    # The report's counts above come from what the page's directives showed, kept as the page's data:
    # the published page carries no marker comment and no private link scheme.
    page = (tmp_path / "site2" / "index.html").read_text()
    assert "evc:" not in page and "evc-data:" not in page and "evc-page:" not in page, page


@pytest.mark.beside_build
def test_the_tests_build_reuses_what_the_last_site_build_ran_unless_it_changed(tmp_path):
    """`./evc.sh site` then a test of the built site: the tests' cache starts as a copy of the site's
    (conftest), so an unchanged snippet is not run again; a changed one is, and the site's cache is left alone."""
    from helpers import seed_cache

    env = small_site(tmp_path, "# Page\n\n{{ snippet('hello.py') }}\n\n{{ snippet('other.py') }}\n",
                     {"hello.py": HELLO, "other.py": '"""Other."""\nprint("other")\n'})
    assert build(tmp_path / "site1", cwd=tmp_path, env=env).returncode == 0  # as `./evc.sh site` would
    site_cache = Path(env["EVC_CACHE"])
    before = sorted(p.name for p in (site_cache / "snippets").iterdir())
    tests_cache = tmp_path / "tests-cache"
    seed_cache(site_cache, tests_cache)
    (tmp_path / "snippets" / "other.py").write_text('"""Other."""\nprint("changed")\n')
    second = build(tmp_path / "site2", cwd=tmp_path, env={**env, "EVC_CACHE": str(tmp_path / "tests-cache")})
    assert second.returncode == 0, second.stderr[-3000:]
    report = last_report(str(tests_cache))
    assert (report["snippets_ran"], report["snippets_cached"]) == (1, 1), report
    assert "changed" in (tmp_path / "site2" / "index.html").read_text()
    assert sorted(p.name for p in (site_cache / "snippets").iterdir()) == before  # only read


@pytest.mark.parametrize("page, message", [
    ('# Page\n\n{{ snippet("broken_example.py") }}\n', "index.md:3: {{ snippet(...) }} failed: SnippetError: "
                                                      "snippet snippets/broken_example.py exited with code 1"),
    ('# Page\n\n\n{{ snippet("no/such_file.py") }}\n', "index.md:4: {{ snippet(...) }} failed: FileNotFoundError"),
    ('# Page\n\n{{ snipet("hello.py") }}\n', "unknown directive 'snipet'; known: amortisation"),
    ('# Page\n\n{{ snippet(open("x")) }}\n', "arguments must be Python literals"),
])
@pytest.mark.beside_build
def test_a_failing_directive_stops_the_build_naming_page_and_line(tmp_path, page, message):
    env = small_site(tmp_path, page, {"hello.py": HELLO,
                                     "broken_example.py": '"""Breaks."""\nraise RuntimeError("no")\n'})
    out = build(tmp_path / "site", cwd=tmp_path, env=env)
    assert out.returncode != 0
    assert message in out.stdout + out.stderr, (out.stdout + out.stderr)[-2000:]


def test_every_english_page_has_its_chinese_edition_with_the_same_numbers(site):
    """The Chinese page renders the same records: every table's numbers, in order, as on the English page."""
    number = re.compile(r"\d+(?:\.\d+)?")
    english = [p for p in pages(site["dir"]) if not _chinese(site["dir"], p)
               and p.parent.name != "search" and p.name != "404.html" and "data" not in p.relative_to(site["dir"]).parts]
    assert len(english) > 40
    for page in english:
        twin = site["dir"] / "zh" / page.relative_to(site["dir"])
        assert twin.is_file(), f"no Chinese edition of {page.relative_to(site['dir'])}"
        assert '<html lang="zh"' in twin.read_text()
        tables = [re.findall(r"<table.*?</table>", p.read_text(), flags=re.S) for p in (page, twin)]
        # every page: a Chinese page that lost a table (or a row of one) is caught, not zipped away
        assert [t.count("<tr") for t in tables[0]] == [t.count("<tr") for t in tables[1]], page
        if page.relative_to(site["dir"]).parts[0] != "benchmarks" and page.parent != site["dir"]:
            continue  # the measured tables: benchmarks and home (elsewhere a cell may be prose)
        for en, zh in zip(*tables):
            cells = [re.findall(r"<td[^>]*>(.*?)</td>", t, flags=re.S) for t in (en, zh)]
            # the same numbers in each cell; a translated sentence in a cell may order them otherwise
            assert [sorted(number.findall(c)) for c in cells[0]] == [sorted(number.findall(c)) for c in cells[1]], page


def test_every_interval_beside_a_verdict_is_printed_on_the_side_its_words_say(site):
    """"0.98× (0.97–1.00): slower" shows an interval that holds 1 beside a word that says it does not:
    on every built page, in both editions, a ratio's printed interval and the word after it agree
    (faster: its low bound above 1; slower: its high bound below 1; no measurable difference: 1 in it)."""
    import html

    from eager_vs_compiled.pages.lang import tr, using

    said = {}
    for lang in ("en", "zh"):
        with using(lang):
            said.update({tr(w).lstrip(":： "): k for w, k in ((": eager slower", "faster"), (": eager faster", "slower"),
                                                          ("faster", "faster"), ("slower", "slower"),
                                                          ("no measurable difference", "none"))})
    shown = re.compile(r"(\d+(?:\.\d+)?)×\s*\((\d+(?:\.\d+)?)×?–(\d+(?:\.\d+)?)×?\)\s*[:：,，]?\s*(\S[^<]{0,30})")
    checked, wrong = 0, []
    for page in pages(site["dir"]):
        text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", " ",
                                                                                page.read_text(), flags=re.S))))
        for m in shown.finditer(text):
            word = next((said[w] for w in sorted(said, key=len, reverse=True) if m[4].startswith(w)), None)
            if word is None:
                continue
            low, high = float(m[2]), float(m[3])
            checked += 1
            if not {"faster": low > 1, "slower": high < 1, "none": low <= 1 <= high}[word]:
                wrong.append(f"{page.relative_to(site['dir'])}: {m[0]}")
    assert checked > 100 and not wrong, wrong


def test_the_second_edition_runs_no_snippet_and_no_measurement_again(site):
    """Each snippet runs (or is read from the cache) once per build, each workload is measured at most
    once, and the report counts what the build did, not what its two editions showed."""
    from collections import Counter

    looks = Counter(re.findall(r"snippet (\S+): (?:running|cached result reused)", of_this_build(site, "log")))
    again = {path: n for path, n in looks.items() if n > 1}
    assert looks and not again, f"snippets run (or read from the cache) more than once by one build: {again}"
    measured = Counter(re.findall(r"measuring (\w+) on ", site["log"]))
    assert all(n == 1 for n in measured.values()), measured
    report = site["report"]
    assert report["editions"] == ["en", "zh"], report
    assert report["snippets_ran"] + report["snippets_cached"] + report["snippets_skipped"] <= len(
        list((ROOT / "snippets").rglob("*.py"))), report


def test_each_edition_searches_an_index_of_its_own_pages(site):
    """The English pages load search/search_index.json, the Chinese ones zh/search/search_index.json (the
    theme's base URL is the edition's folder there): the same pages, each in its own language, recipes boosted."""
    import json

    from eager_vs_compiled.pages import search, troubleshooting

    en, zh = (json.loads((site["dir"] / sub / "search" / "search_index.json").read_text(encoding="utf-8"))
              for sub in (".", "zh"))
    pages_of = lambda index: {d["location"].split("#")[0] for d in index["docs"]}  # noqa: E731
    assert len(pages_of(en)) > 40 and pages_of(en) == pages_of(zh)
    assert not [d["location"] for d in en["docs"] if d["location"].startswith("zh/")]
    han = lambda index: sum(bool(re.search(r"[\u4e00-\u9fff]", d["title"] + d["text"])) for d in index["docs"])  # noqa: E731
    assert han(zh) > 0.9 * len(zh["docs"]) and han(en) < 0.1 * len(en["docs"]), (han(zh), han(en))
    boosted = {d["location"].split("#")[0] for d in zh["docs"] if d.get("boost") == search.RECIPE_BOOST}
    assert boosted == troubleshooting.recipe_locations(ROOT / "docs")
    home = (site["dir"] / "zh" / "index.html").read_text(encoding="utf-8")
    assert 'config.base.replace(/\\/?$/, "/") + edition + "/"' in home and '("zh")' in home
    assert "+ edition" not in (site["dir"] / "index.html").read_text(encoding="utf-8")


def test_the_rendered_chinese_pages_use_one_word_per_term_and_chinese_spacing(site):
    """What a reader of the Chinese edition sees, render layer included (tables, provenance lines, links):
    no variant the glossary refuses, a space between Chinese and Latin text, full-width punctuation."""
    from zh_rendered import prose

    from eager_vs_compiled.pages import glossary
    from eager_vs_compiled.pages.zhstyle import cjk_spacing_problems

    zh = site["dir"] / "zh"
    found, checked = [], 0
    for page in sorted(zh.rglob("index.html")):
        rel = page.parent.relative_to(zh).as_posix()
        if rel.startswith(("search", "data")):
            continue
        text, checked = prose(page.read_text(encoding="utf-8")), checked + 1
        found += [f"{rel}: {problem}" for problem in cjk_spacing_problems(text)]
        if rel != "reference/glossary":  # it names the variants it refuses
            found += [f"{rel}: {bad!r} (say {t.zh!r})" for t in glossary.TERMS for bad in t.avoid if bad in text]
    assert checked > 40 and not found, found[:30]


def test_a_box_that_may_scroll_gets_tabindex_in_the_html():
    from eager_vs_compiled.pages.a11y import focusable_scroll_boxes

    html = ('<table>\n<pre><span></span><code>x</code></pre><p><code>inline</code></p>'
            '<div class="highlight-ipynb hl-python"><pre>y</pre></div><table tabindex="-1"><div class="highlight">')
    assert focusable_scroll_boxes(html) == (
        '<table tabindex="0">\n<pre><span></span><code tabindex="0">x</code></pre><p><code>inline</code></p>'
        '<div tabindex="0" class="highlight-ipynb hl-python"><pre>y</pre></div><table tabindex="-1"><div class="highlight">')


def test_every_table_and_code_block_is_focusable_before_any_script_runs(site):
    """A reader's keyboard reaches a box that scrolls sideways at any width: the attribute is in the HTML."""
    boxes = re.compile(r'<table\b[^>]*>|<pre[^>]*>(?:<span></span>)?<code\b[^>]*>|<div [^>]*class="[^"]*highlight-ipynb[^>]*>')
    missing, seen = [], 0
    for page in pages(site["dir"]):
        for tag in boxes.findall(page.read_text(encoding="utf-8")):
            seen += 1
            if 'tabindex="0"' not in tag:
                missing.append(f"{page.relative_to(site['dir'])}: {tag[:80]}")
    assert seen > 500 and not missing, (seen, missing[:10])


@pytest.mark.beside_build
def test_a_theme_version_no_shim_knows_stops_the_build_naming_the_shim(tmp_path):
    """The packages the build patches, moved to a version the shims were not written for (here by
    making importlib.metadata report one): the build stops at its start with the shim's name."""
    env = small_site(tmp_path, "# Page\n\nText.\n")
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "sitecustomize.py").write_text(
        "import importlib.metadata as m\n_real = m.version\n"
        "m.version = lambda name: '99.0' if name == 'mkdocs-material' else _real(name)\n")
    env["PYTHONPATH"] = str(tmp_path / "fake")
    out = build(tmp_path / "site", cwd=tmp_path, env=env)
    assert out.returncode != 0
    assert "shim 'head-alternate-links'" in out.stderr and "mkdocs-material 99.0 is installed" in out.stderr, \
        out.stderr[-2000:]
