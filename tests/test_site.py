"""The strict site build, checked in its HTML, and its failure modes."""
import re
import textwrap
from pathlib import Path

import pytest
from helpers import build

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def pages(site_dir: Path):
    return sorted(site_dir.rglob("*.html"))


def test_benchmark_pages_have_every_workload_with_numbers_and_provenance(site):
    from eager_vs_compiled import bench, workloads

    for family in workloads.FAMILIES:
        html = (site["dir"] / "benchmarks" / bench.PAGE[family].removesuffix(".md") / "index.html").read_text()
        members = workloads.family(family)
        for w in members:
            assert f"<code>{w.name}</code>" in html, f"{family} page lacks {w.name}"
        measured = [w for w in members if w.in_profile(workloads.default_profile())]
        for column in ("Median ± ½ IQR (n)", "Speedup vs eager", "Compile cold / warm", "Break-even",
                       "Peak memory", "Max rel. error"):
            assert html.count(column) >= len(measured), (family, column)
        assert html.count('class="evc-provenance"') >= len(measured)
    overview = (site["dir"] / "benchmarks" / "index.html").read_text()
    assert overview.count('class="evc-chart"') >= 3  # speedups, amortisation, memory
    for page in pages(site["dir"]):
        if page.parent.name == "search" or page.name == "404.html":
            continue
        stamp = re.search(r'<p class="evc-stamp">([^<]+)</p>', page.read_text())
        assert stamp and re.search(r"Built \d{4}-\d\d-\d\d on \S+ with torch \S+\.", stamp.group(1)), page
    bench = (site["dir"] / "benchmarks" / "index.html").read_text()
    assert re.search(r'class="evc-stamp">Numbers measured on \S+ \(\d{4}-', bench)


def test_the_build_never_remeasures_or_overwrites_records_of_other_releases(site):
    before, after = site["history_before"], site["history_after"]
    assert before, "no history in the store: nothing to protect (the committed store has older releases)"
    changed = sorted(k for k in before if after.get(k) != before[k])
    assert not changed and set(after) == set(before), f"history touched by the build: {changed}"


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


def test_no_built_page_shows_the_builders_checkout_path(site):
    """Captured outputs say `snippets/x.py`, never where the builder cloned the repository."""
    leaks = [p.relative_to(site["dir"]).as_posix() for p in sorted(site["dir"].rglob("*"))
             if p.suffix in (".html", ".json", ".xml", ".txt") and str(ROOT) in p.read_text(errors="replace")]
    assert not leaks, f"{ROOT} appears in: {leaks}"
