"""The strict site build, checked in its HTML, and its failure modes."""
import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from helpers import build, last_report

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def pages(site_dir: Path):
    return sorted(site_dir.rglob("*.html"))


def test_benchmark_page_has_every_workload_with_numbers_and_provenance(site):
    html = (site["dir"] / "benchmarks" / "index.html").read_text()
    tables = html.split("<table>")[1:]
    assert len(tables) >= 3
    for name in ("numel 1048576", "batch 64, features 512", "batch 8, image 224"):
        assert name in html, f"no provenance for the workload with {name}"
    for column in ("Median ± ½ IQR (n)", "Speedup vs eager", "Compile cold / warm", "Break-even",
                   "Peak memory", "Max rel. error"):
        assert html.count(column) >= 3
    assert html.count('class="evc-provenance"') >= 3
    assert re.search(r"<td><code>default</code></td>\s*<td>[\d.]+ (ms|s|µs) ± [\d.]+ (ms|s|µs) \(n=\d+\)", html)
    assert html.count("<svg") >= 1 and "currentColor" in html


def test_home_page_shows_a_table_measured_by_the_build(site):
    html = (site["dir"] / "index.html").read_text()
    assert "<table>" in html and "Measured on" in html and "×</strong>" in html


def test_no_page_shows_a_traceback(site):
    for page in pages(site["dir"]):
        assert "Traceback" not in page.read_text(), page


def test_no_page_loads_anything_from_another_host(site):
    pattern = re.compile(r"""<(?:script|link|img|iframe)[^>]+(?:src|href)=["'](?:https?:)?//""")
    for page in pages(site["dir"]):
        assert not pattern.search(page.read_text()), page


def test_no_link_is_left_pointing_at_a_markdown_source(site):
    """Generated Markdown (markdown-exec, notebooks) bypasses MkDocs' rewriting; the hook resolves it."""
    for page in pages(site["dir"]):
        left = re.findall(r'href="(?!https?:)[^"]*\.md(?:#[^"]*)?"', page.read_text())
        assert not left, (page, left)


def test_crawl_every_internal_link_and_anchor_resolves(site):
    """Follow every href and src of every page inside the site: the file exists, the #anchor too."""
    from html.parser import HTMLParser
    from urllib.parse import unquote, urldefrag, urljoin, urlparse

    class Collect(HTMLParser):
        def __init__(self):
            super().__init__()
            self.links, self.ids = [], set()

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if "id" in a:
                self.ids.add(a["id"])
            if tag == "a" and "name" in a:
                self.ids.add(a["name"])
            for key in ("href", "src"):
                if a.get(key):
                    self.links.append(a[key])

    root = site["dir"]
    parsed = {}

    def parse(page):
        if page not in parsed:
            c = Collect()
            c.feed(page.read_text(errors="replace"))
            parsed[page] = c
        return parsed[page]

    broken, checked = [], 0
    for page in pages(root):
        base = "http://site/" + page.relative_to(root).as_posix()
        for link in parse(page).links:
            url = urljoin(base, link)
            if urlparse(url).netloc != "site" or url.startswith("data:"):
                continue
            target, anchor = urldefrag(url)
            path = root / unquote(urlparse(target).path.lstrip("/"))
            if path.is_dir():
                path = path / "index.html"
            checked += 1
            if not path.is_file():
                broken.append(f"{page.relative_to(root)} → {link} (no file)")
            elif anchor and path.suffix == ".html" and unquote(anchor) not in parse(path).ids:
                broken.append(f"{page.relative_to(root)} → {link} (no #{anchor})")
    assert checked > 200, checked
    assert not broken, broken


def test_error_index_links_every_recipe(site):
    index = (site["dir"] / "troubleshooting" / "index.html").read_text()
    recipes = [p.stem for p in (ROOT / "docs" / "troubleshooting").glob("*.md")
               if "render.symptom(" in p.read_text()]
    assert recipes
    for stem in recipes:
        assert f'href="{stem}/"' in index, f"the error index does not link {stem}"
        assert (site["dir"] / "troubleshooting" / stem / "index.html").is_file()


def test_every_page_footer_has_its_freshness_stamp(site):
    for page in pages(site["dir"]):
        if page.parent.name == "search" or page.name == "404.html":
            continue
        stamp = re.search(r'<p class="evc-stamp">([^<]+)</p>', page.read_text())
        assert stamp and re.search(r"Built \d{4}-\d\d-\d\d on \S+ with torch \S+\.", stamp.group(1)), page
    bench = (site["dir"] / "benchmarks" / "index.html").read_text()
    assert re.search(r'class="evc-stamp">Numbers measured on \S+ \(\d{4}-', bench)


def test_tutorial_notebook_was_executed(site):
    html = (site["dir"] / "tutorials" / "first_compile_tutorial" / "index.html").read_text()
    assert "first compiled call:" in html and "graphs: 1, graph breaks: 0" in html


def test_every_snippet_is_included_by_some_page(root):
    sources = "\n".join(p.read_text() for p in (root / "docs").rglob("*.md"))
    for snippet in (root / "snippets").rglob("*.py"):
        rel = snippet.relative_to(root / "snippets").as_posix()
        assert f'"{rel}"' in sources, f"snippets/{rel} is on no page"


def test_unchanged_rebuild_measures_and_runs_nothing(site):
    report = site["second_report"]
    assert report["measured"] == 0 and report["reused"] >= 3
    assert report["snippets_ran"] == 0 and report["snippets_cached"] >= 6
    assert report["notebooks_executed"] == 0
    assert "measured 0 workloads" in site["second_log"]


def test_a_raising_snippet_fails_the_build_and_is_named(tmp_path):
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "broken_example.py").write_text('"""Breaks."""\nraise RuntimeError("no")\n')
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(textwrap.dedent('''\
        # Page
        ```python exec="on"
        from eager_vs_compiled import render
        print(render.snippet("broken_example.py"))
        ```
        '''))
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(f'''\
        site_name: t
        strict: true
        hooks: [{ROOT / "hooks" / "evc.py"}]
        plugins: [markdown-exec]
        markdown_extensions: [attr_list, pymdownx.superfences]
        '''))
    env = {"EVC_SNIPPETS": str(tmp_path / "snippets"), "EVC_CACHE": str(tmp_path / "cache"),
           "EVC_MEASUREMENTS": str(tmp_path / "m")}
    out = build(tmp_path / "site", cwd=tmp_path, env=env)
    assert out.returncode != 0
    assert "broken_example.py exited with code 1" in out.stderr
    assert "Aborted" in out.stdout + out.stderr


def test_missing_include_fails_the_build(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text('# Page\n\n```python\n--8<-- "no/such_file.py"\n```\n')
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent('''\
        site_name: t
        strict: true
        markdown_extensions:
          - pymdownx.superfences
          - pymdownx.snippets:
              check_paths: true
        '''))
    out = build(tmp_path / "site", cwd=tmp_path)
    assert out.returncode != 0 and "no/such_file.py" in out.stderr
