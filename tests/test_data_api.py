"""The public API for records (eager_vs_compiled.data): its names stay, it reads a downloaded file with
nothing but the package, it gives the pages' own numbers, and the reference page's examples run."""
import ast
import html
import io
import json
import os
import re
import subprocess
import sys
from urllib.parse import unquote

import pytest
from helpers import ROOT

from eager_vs_compiled import data, store
from eager_vs_compiled.records import ModeResult, Record, RecordError

# Written out, not read from the module: a name that disappears from `__all__` fails here.
PUBLIC = ["SCHEMA_VERSION", "Record", "ModeResult", "RecordError", "machines", "releases", "workloads", "load",
          "load_file", "records", "Speedup", "speedup", "speedup_interval", "noise_floor", "Change", "compare",
          "FIELDS", "rows", "frame", "to_csv"]
PAGES = [ROOT / "docs" / "reference" / "data.md", ROOT / "docs" / "reference" / "data.zh.md"]
EAGER = [0.010] * 5


def record(compiled: list[float], torch: str = "2.15.0", status: str = "ok", batch: int = 64) -> Record:
    """A record of eager and `default`, each compiled sample timed beside an eager one of 10 ms: constant
    series give a bootstrap distribution of one value, so every interval is the point itself."""
    eager = ModeResult("eager", "ok", samples_s=list(EAGER)).finish(1)
    default = ModeResult("default", status, samples_s=list(compiled), eager_samples_s=list(EAGER)).finish(1)
    return Record(workload="mlp", title="MLP", profile="cpu", device="cpu", spec={"sizes": {"batch": batch}},
                  spec_hash="0", harness_version=1, machine={"slug": "cpu-test-2c"}, versions={"torch": torch},
                  date="2026-01-01T00:00:00+00:00", git_commit=None, results=[eager, default])


def test_no_public_name_disappears():
    assert set(PUBLIC) <= set(data.__all__), sorted(set(PUBLIC) - set(data.__all__))
    assert all(hasattr(data, name) for name in data.__all__)


def test_the_module_imports_only_the_standard_library_and_the_packages_core():
    """pages/ needs the docs stack; data.py must not. pandas only inside `frame`, for those who have it."""
    tree = ast.parse((ROOT / "src" / "eager_vs_compiled" / "data.py").read_text())
    frame = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "frame")
    in_frame = {id(n) for n in ast.walk(frame)}
    core = {p.stem for p in (ROOT / "src" / "eager_vs_compiled").glob("*.py")}
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module.split(".")[0]]
        elif isinstance(node, ast.ImportFrom):
            names = [f".{(node.module or a.name).split('.')[0]}" for a in node.names]
        else:
            continue
        for name in names:
            ok = (name in sys.stdlib_module_names or name == "__future__" or name.lstrip(".") in core
                  or (name == "pandas" and id(node) in in_frame))
            bad += [] if ok else [f"line {node.lineno}: {name}"]
    assert not bad, bad


def test_a_downloaded_record_loads_with_nothing_but_the_package(tmp_path):
    """As in a fresh venv: no site-packages at all (python -S), so no torch, pandas or docs stack."""
    path = tmp_path / "data" / "cpu-test-2c" / "torch-2.15.0" / "mlp.json"
    path.parent.mkdir(parents=True)
    path.write_text(record([0.005] * 5).to_json())  # what the site offers: the record's to_json()
    code = ("import sys; from eager_vs_compiled import data; rec = data.load_file(sys.argv[1]); "
            "print(list(data.speedup(rec, 'default')), data.machines(root=sys.argv[2]), "
            "data.load('cpu-test-2c', 'mlp', root=sys.argv[2]).versions['torch'], 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-S", "-c", code, str(path), str(tmp_path / "data")], capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[2.0, 2.0, 2.0] ['cpu-test-2c'] 2.15.0 False"


def test_a_bad_file_is_refused_naming_the_file_and_the_field(tmp_path):
    raw = json.loads(record([0.005] * 5).to_json())
    raw["results"][1]["samples_s"][2] = -1.0
    (tmp_path / "bad.json").write_text(json.dumps(raw))
    with pytest.raises(RecordError, match=r"bad\.json.*'default'.*samples_s.*-1\.0"):
        data.load_file(tmp_path / "bad.json")
    raw = json.loads(record([0.005] * 5).to_json())
    raw["schema"] = data.SCHEMA_VERSION + 1
    (tmp_path / "newer.json").write_text(json.dumps(raw))
    with pytest.raises(RecordError, match=r"newer\.json: newer schema version .*upgrade"):
        data.load_file(tmp_path / "newer.json")


def test_a_missing_record_says_which_releases_have_one(tmp_path):
    store.save(record([0.005] * 5), tmp_path)
    assert (data.machines(root=tmp_path), data.releases("cpu-test-2c", root=tmp_path)) == (["cpu-test-2c"], ["2.15.0"])
    with pytest.raises(FileNotFoundError, match=r"'mlp' on 'cpu-test-2c' for torch 2\.14\.1 \(releases with one: 2\.15\.0\)"):
        data.load("cpu-test-2c", "mlp", "2.14.1", root=tmp_path)
    with pytest.raises(KeyError, match="no mode 'max-autotune'; its modes: eager, default"):
        data.speedup(data.load("cpu-test-2c", "mlp", root=tmp_path), "max-autotune")


def test_compare_calls_a_change_only_beyond_the_noise():
    old = record([0.005] * 5, "2.14.1")  # speedup 2
    doubled = data.compare(old, record([0.0025] * 5), floor=0.10)  # speedup 4, compiled twice as fast
    assert [(c.mode, c.metric, c.old, c.new, c.ratio, c.low, c.high, c.beyond_noise, c.verdict) for c in doubled] == [
        ("eager", "median_s", 0.010, 0.010, 1.0, 1.0, 1.0, False, "within the noise"),
        ("default", "median_s", 0.005, 0.0025, 0.5, 0.5, 0.5, True, "faster"),
        ("default", "speedup", 2.0, 4.0, 2.0, 2.0, 2.0, True, "bigger speedup")]
    slightly = data.compare(old, record([0.005 / 1.05] * 5), floor=0.10)[2]  # speedup 2.1: 5 % more
    assert slightly.ratio == pytest.approx(1.05) and not slightly.beyond_noise and slightly.verdict == "within the noise"
    assert data.compare(old, record([0.0025] * 5, status="mismatch"), floor=0.10)[1:] == []  # a wrong answer: no time
    with pytest.raises(ValueError, match="not the same measurement"):
        data.compare(old, record([0.005] * 5, batch=1))


def test_compare_of_two_releases_says_what_the_releases_page_says(monkeypatch):
    """On the committed records, with the committed calibrations (their run-to-run terms, terms.py), every
    figure the page compares."""
    from eager_vs_compiled import terms
    from eager_vs_compiled.pages import releases

    root, slug = ROOT / "measurements", "cpu-intel-xeon-2c"
    monkeypatch.setattr(terms, "roots", lambda: [root])
    terms._spreads.cache_clear()
    old_rel, new_rel = data.releases(slug, root=root)[-2:]
    by_release = {rel: {w: data.load(slug, w, rel, root=root) for w in ("mlp", "tiny_op")} for rel in (old_rel, new_rel)}
    floor = data.noise_floor(data.records(slug=slug, root=root))
    machine = releases.Machine(slug, [old_rel, new_rel], by_release, None)
    assert terms.spreads(by_release[new_rel]["mlp"]).time.groups  # the terms are in play
    for metric in releases.METRICS:
        _, page = releases.metric_table(machine, metric, floor)
        wanted = {"eager": lambda m: m == "eager", "compiled": lambda m: m != "eager", "all": lambda m: True}[metric.modes]
        ours = [(c.workload, c.mode, c.ratio, c.beyond_noise) for w in ("mlp", "tiny_op")
                for c in data.compare(by_release[old_rel][w], by_release[new_rel][w], floor=floor)
                if c.metric == metric.key and wanted(c.mode)]
        assert sorted(page) == sorted(ours) and len(ours) >= 2, metric.title
    terms._spreads.cache_clear()


def test_rows_carry_the_csv_columns_and_no_speedup_for_a_wrong_answer():
    [eager, good] = data.rows(record([0.005] * 5))
    assert list(good) == data.FIELDS and data.to_csv(record([0.005] * 5)).splitlines()[0] == ",".join(data.FIELDS)
    assert (good["speedup"], good["speedup_low"], good["speedup_high"], good["median_s"]) == (2.0, 2.0, 2.0, 0.005)
    assert eager["speedup"] is None
    [_, wrong] = data.rows([record([0.005] * 5, status="mismatch")])
    assert (wrong["status"], wrong["speedup"], wrong["speedup_low"]) == ("mismatch", None, None)


def test_frame_is_a_dataframe_with_pandas_and_says_how_to_get_it_without():
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="pip install pandas"):
            data.frame(record([0.005] * 5))
        return
    assert list(data.frame(record([0.005] * 5)).columns) == data.FIELDS


def blocks(page) -> list[str]:
    """The markdown-exec blocks of a page: their options line and their code."""
    return re.findall(r"^```python (exec=\"on\".*?)\n(.*?)^```$", page.read_text(encoding="utf-8"), flags=re.M | re.S)


def test_the_reference_pages_examples_run_the_same_in_both_languages():
    """The build runs them (markdown-exec, a failure fails the strict build); here they run in seconds."""
    english, chinese = (blocks(page) for page in PAGES)
    assert english == chinese and len(english) >= 7
    for n, (options, code) in enumerate(english):
        assert 'source="above"' in options and 'result="text"' in options
        out = io.StringIO()
        exec(compile(code, f"data.md block {n + 1}", "exec"), {"__name__": "example", "print":
                                                                lambda *a, **k: print(*a, **{**k, "file": out})})
        assert out.getvalue().strip(), f"block {n + 1} printed nothing"


# The table of one record on a benchmark page, and the raw-data link after it that names the record
# (data/<slug>/torch-<release>/<workload>.json, pages/downloads.py).
TABLE = re.compile(r'(<table[ >](?:(?!<table[ >]).)*?</table>)(?:(?!<table[ >]).)*?href="(?:\.\./)*data/'
                   r'([^/"]+)/torch-([^/"]+)/([^/"]+)\.json"', re.S)
ROW = re.compile(r"<tr>\s*<td><code>(.*?)</code></td>\s*<td>.*?</td>\s*<td>.*?</td>\s*<td>(.*?)</td>", re.S)


@pytest.mark.slow
def test_every_speedup_the_api_computes_is_the_one_the_benchmark_pages_show(site):
    """Through the API, from the store the build used and from the JSON files the site offers, formatted
    as pages/provenance.py writes the Speedup vs eager cell: '**0.99×** (0.97–0.998)' (pages/ratios.py:
    two decimals, more where they would round a number off 1 onto 1.00)."""
    from eager_vs_compiled import machine
    from eager_vs_compiled.pages import tables
    from eager_vs_compiled.pages.ratios import ratio

    checked = []
    for page in sorted((site["dir"] / "benchmarks").glob("*/index.html")):
        for table, slug, rel, workload in TABLE.findall(page.read_text(encoding="utf-8")):
            if not all(head in table for head in tables.HEADER):
                continue
            slug, rel, workload = (unquote(x) for x in (slug, rel, workload))
            recs = [data.load(slug, workload, rel),
                    data.load_file(site["dir"] / "data" / slug / f"torch-{rel}" / f"{workload}.json")]
            for mode, cell in ROW.findall(table):
                for rec in recs:
                    s = data.speedup(rec, html.unescape(mode))
                    where = f"{page.parent.name}: {slug}/{workload} {mode}: {cell}"
                    if s is None:
                        assert "×</strong>" not in cell, where
                    else:
                        assert cell.startswith(f"<strong>{ratio(s.point)}×</strong> ({ratio(s.low)}–{ratio(s.high)})"), where
                        checked.append(slug)
    assert machine.describe()["slug"] in checked and len(checked) >= 20, checked
