"""The page layer renders from records alone: no torch, no measuring, in seconds.

Every benchmark page (both editions) is rendered directive by directive in a process of its own,
from fixture records (a copy of the committed store), as a build on the machine those records come
from: its build context made from a record's own machine and versions. An import of torch, or of the
measuring modules, fails the import there; the test also checks none is in `sys.modules` at the end.
"""
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from helpers import ROOT, as_steps

from eager_vs_compiled import store

REFERENCE = "cpu-intel-xeon-2c"  # the machine whose committed records play this build's own
FORBIDDEN = ("torch", "torchvision", "eager_vs_compiled.measure", "eager_vs_compiled.child",
             "eager_vs_compiled.cli", "eager_vs_compiled.models", "eager_vs_compiled.calibrate",
             "eager_vs_compiled.throughput", "eager_vs_compiled.footprint", "eager_vs_compiled.prepare")

SCRIPT = textwrap.dedent('''\
    import importlib.abc, json, re, sys, time
    from pathlib import Path

    FORBIDDEN, root, record = json.loads(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    tried = []

    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                tried.append(name)
                raise ImportError(f"the page layer imported {name}")
            return None

    sys.meta_path.insert(0, Refuse())
    from eager_vs_compiled import pages, paths, records
    from eager_vs_compiled.pages import context, lang

    paths.anchor(root, root / "docs")
    rec = records.load(record)
    context.use(context.BuildContext(machine=rec.machine, versions=rec.versions))
    line = re.compile(r"^[ \\t]*\\{\\{\\s*(\\w+)\\((.*)\\)\\s*\\}\\}[ \\t]*$", re.M)
    t0, shown = time.perf_counter(), {}
    for page in sorted((root / "docs" / "benchmarks").glob("*.md")):
        lang.set_language("zh" if page.name.endswith(".zh.md") else "en")
        for name, args in line.findall(page.read_text(encoding="utf-8")):
            if name == "snippet":  # a snippet's run, not a record: its own tests run it
                continue
            text = pages.directive(name, args)
            shown[f"{page.name}:{name}({args})"] = text
    print(json.dumps({"seconds": time.perf_counter() - t0, "tried": tried, "shown": shown,
                      "loaded": sorted(m for m in sys.modules if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))}))
''')


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pages")
    fixtures = tmp / "measurements"
    shutil.copytree(ROOT / "measurements", fixtures)
    record = store.path_for(fixtures, REFERENCE, "mlp", "2.15.0")
    assert record.exists(), f"the fixture record {record} is gone: pick another REFERENCE"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVC_")}
    env |= {"EVC_MEASUREMENTS": str(fixtures), "EVC_CACHE": str(tmp / "cache"), "EVC_SNIPPETS": str(tmp / "none"),
            "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(FORBIDDEN), str(ROOT), str(record)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_every_benchmark_page_renders_without_torch_or_the_measuring_modules(rendered):
    assert not rendered["tried"] and not rendered["loaded"], (rendered["tried"], rendered["loaded"])
    pages = {key.split(":")[0] for key in rendered["shown"]}
    expected = {p.name for p in (ROOT / "docs" / "benchmarks").glob("*.md")}
    assert pages == expected, expected - pages
    # how long it took is reported, not asserted (about 15 s alone here; several times that beside the snippet runs)
    print(f"\nrendered {len(rendered['shown'])} directives of {len(pages)} pages in {rendered['seconds']:.1f} s")


def test_the_rendered_pages_show_the_fixture_records_as_this_builds(rendered):
    text = "\n".join(rendered["shown"].values())
    assert "(this build)" in text and "（本次构建）" in text
    assert "Not measured on this machine" not in text  # every scheduled workload has its fixture record
    assert "Traceback" not in text


def test_a_suite_builders_source_read_from_the_file_is_what_inspect_gives_the_function():
    """The spec hash reads each builder's source from models.py without importing it (ModelRef): the
    same text inspect.getsource gives the imported function, so no record's hash moves."""
    import inspect

    from eager_vs_compiled import models, workloads

    refs = {w.builder for w in workloads.WORKLOADS.values()} | {workloads.ModelRef("instantiate")}
    assert len(refs) >= 6
    for ref in refs:
        assert ref.source() == inspect.getsource(getattr(models, ref.name)), ref.name


def test_a_missing_record_is_said_missing_with_its_command_and_never_measured(tmp_path, monkeypatch):
    from eager_vs_compiled import measure
    from eager_vs_compiled.pages import benchmarks, claims, home

    def never(*args, **kwargs):
        raise AssertionError("a page measured")
    monkeypatch.setattr(measure, "workload_steps", as_steps(never))
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    text = benchmarks.workload("mlp") + home.headline(["mlp"]) + claims.evidence("mlp")
    assert text.count("`./evc.sh measure --workload mlp`") == 3, text
    assert "Not measured on this machine" in text and "`./evc.sh site` measures what is missing" in text


def test_a_missing_model_report_or_profile_is_said_missing_and_nothing_is_run(tmp_path, monkeypatch):
    from eager_vs_compiled import isolate
    from eager_vs_compiled.pages import recipe, report

    def never(*args, **kwargs):
        raise AssertionError("a page started a process")
    monkeypatch.setattr(isolate, "run", never)
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    text = report.model_report("how-to/my_model_factory.py:factory", ["default"])
    assert "Not measured on this machine" in text and "`python -m eager_vs_compiled prepare`" in text
    assert "No recipe measured yet" in recipe.where_the_time_goes("resnet50")
