"""The benchmark suite's records and pages: committed records complete and correct, mismatches
visible, charts theme-aware, the suite's plan what the pages promise."""
import json
import re

import pytest

from eager_vs_compiled import engines, measure, recipes, records, store, workloads
from eager_vs_compiled.pages import benchmarks, charts, machines, tables
from helpers import RELEASE, ROOT, make_record

REFERENCE = "cpu-intel-xeon-2c"  # the CPU machine whose records of every tested release are committed
# The CPU machines whose scheduled records were re-measured when the harness last changed (harness 5:
# each compiled mode timed beside eager in every one of its processes): a fresh clone there measures
# nothing. The AMD EPYC's records of harness 4 are history until that machine measures again.
CURRENT = ("cpu-intel-xeon-2c",)


def committed_records():
    for path in sorted((ROOT / "measurements").glob("*/torch-*/*.json")):
        if path.name != store.PEAKS_FILE:
            yield path, records.load(path)


def test_no_record_is_left_in_the_old_flat_layout():
    assert store.legacy_files(ROOT / "measurements") == []


def test_no_committed_record_has_a_compiled_output_that_differs_from_eager():
    bad = [f"{p.relative_to(ROOT)}: {r.mode} {r.message}" for p, rec in committed_records()
           for r in rec.results if r.status == "mismatch"]
    assert not bad, "compiled output differs from eager:\n" + "\n".join(bad)


def test_the_reference_machine_has_every_cpu_workload_for_two_releases_or_more():
    rels = store.releases(ROOT / "measurements", REFERENCE)
    assert len(rels) >= 2 and RELEASE in rels, rels
    for rel in rels:
        names = set(store.workload_names(ROOT / "measurements", REFERENCE, rel))
        assert {w.name for w in workloads.in_profile("cpu")} <= names, (rel, names)


def test_the_reference_cpu_records_of_this_release_cover_the_profile_and_match_the_code():
    folder = store.release_dir(ROOT / "measurements", REFERENCE, RELEASE)
    for w in workloads.in_profile("cpu"):
        path = store.path_for(ROOT / "measurements", REFERENCE, w.name, RELEASE)
        assert path.exists(), f"{w.name}: no committed record in {folder}"
        rec = records.load(path)
        assert rec.spec_hash == w.spec_hash("cpu"), f"{w.name}: record measured with another definition"
        assert rec.harness_version in (2, measure.HARNESS_VERSION), f"{w.name}: older harness"
        assert [r.mode for r in rec.results] == list(w.modes["cpu"])
        assert all(r.status == "ok" for r in rec.results), [(r.mode, r.status, r.message) for r in rec.results]
    peaks = json.loads((folder / "machine_peaks.json").read_text())
    assert peaks["matmul_tflops"]["float32"] > 0 and peaks["copy_gb_s"] > 0


@pytest.mark.parametrize("slug", CURRENT)
def test_the_current_harness_records_cover_the_scheduled_profile_and_match_the_code(slug):
    """What a fresh clone on that machine finds fresh: it measures nothing."""
    for w in workloads.in_profile("cpu"):
        if not w.scheduled("cpu"):
            continue
        path = store.path_for(ROOT / "measurements", slug, w.name, RELEASE)
        assert path.exists(), f"{w.name}: no committed record of {slug}"
        rec = records.load(path)
        assert rec.spec_hash == w.spec_hash("cpu"), f"{w.name}: record measured with another definition"
        assert rec.harness_version == measure.HARNESS_VERSION, f"{w.name}: older harness"
        assert [r.mode for r in rec.results] == list(w.modes["cpu"])
        assert all(r.status == "ok" for r in rec.results), [(r.mode, r.status, r.message) for r in rec.results]
        assert rec.processes_per_mode >= measure.ROUNDS_MIN, (w.name, rec.processes_per_mode)


def test_a_mismatching_mode_is_shown_as_such_without_a_speed():
    rec = make_record("mlp")
    bad = rec.results[1]
    bad.status, bad.message, bad.max_rel_err = "mismatch", "max relative error 3.0e-02 > tolerance 1e-03", 3e-2
    row = next(line for line in tables.table(rec).splitlines() if line.startswith(f"| <code>{bad.mode}</code>"))
    assert "**mismatch**" in row and "output differs" in row
    assert "×" not in row and " ms" not in row


@pytest.mark.parametrize("draw", [
    lambda: charts.bars([("a", 1.5), ("b", None)], "t", "x", "s"),
    lambda: charts.paired_bars([("a", 100.0, 120.0)], "t", "MiB", "s"),
    lambda: charts.amortisation(0.01, 0.005, 2.0, 400.0, "t", "s"),
    lambda: charts.lines({"eager": [(1, 1.0), (2, 2.0)], "compiled": [(1, 1.0), (2, 1.1)]}, "t", "x", "y", "s"),
    lambda: charts.roofline(0.17, 30.0, [("p", 10.0, 0.1)], "t", "s"),
])
def test_charts_are_inline_svg_drawn_in_the_theme_colour(draw):
    html = draw()
    assert html.startswith('<figure class="evc-figure">') and "<svg" in html and 'role="img"' in html
    assert "currentColor" in html and "#010101" not in html
    assert "<image" not in html  # vector only, nothing rasterised


def test_every_family_has_a_page_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    for family in workloads.FAMILIES:
        page = f"benchmarks/{benchmarks.PAGE[family]}"
        assert (ROOT / "docs" / page).exists() and page in nav, page
        text = (ROOT / "docs" / page).read_text()
        if family == "engines":  # its page ranks each workload in a table of its own, with the raw data
            shown = set(re.findall(r'\{\{ engines_table\("(\w+)"\) \}\}', text))
            assert shown == {w.name for w in workloads.family(family)}, shown
        else:
            assert f'{{{{ family("{family}") }}}}' in text


def test_the_gpu_profile_covers_the_promised_grid():
    gpu = {w.name: w for w in workloads.in_profile("gpu")}
    for arch in ("resnet18", "resnet50"):
        assert any(w.name.startswith(arch) and w.step == "inference" for w in gpu.values())
        assert any(w.name.startswith(arch) and w.step == "training" for w in gpu.values())
    r50 = [w for w in gpu.values() if w.name.startswith("resnet50")]
    assert {w.dtype for w in r50} == {"float32", "bfloat16"} and {w.layout for w in r50} == {"contiguous", "channels_last"}
    modes = {m for w in gpu.values() for m in w.modes["gpu"]}
    plain = {m for m in modes if "+" not in m and not recipes.parse(m).engine}
    assert plain == {"eager", "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"}
    # the engines a GPU runs: ONNX Runtime (CUDA provider), TensorRT and AOTInductor (not OpenVINO: Intel only)
    assert {recipes.parse(m).engine for m in modes} - {None} == {"onnxruntime", "tensorrt", "aotinductor"}
    for m in modes - plain:  # the recipes: a plain mode or an engine and knobs, each a name recipes.parse accepts
        assert recipes.parse(m).base in plain | set(engines.ENGINES), m
    assert {w.family for w in gpu.values()} == set(workloads.FAMILIES)


def test_the_add_your_machine_page_lists_every_committed_folder_from_its_records():
    text = machines.machines()
    folders = [p.relative_to(ROOT / "measurements").as_posix() for p in (ROOT / "measurements").glob("*/torch-*")]
    for folder in folders:
        assert f"`{folder}/`" in text, folder
    planned = len(workloads.in_profile("cpu"))
    row = next(line for line in text.splitlines() if f"`{REFERENCE}/torch-{RELEASE}/`" in line)
    assert f"{planned} of {planned} with a compiled result" in row and "`machine_peaks.json`" in row
    outline = machines.record_outline("resnet50_infer_fp32", REFERENCE)
    rec = records.load(store.path_for(ROOT / "measurements", REFERENCE, "resnet50_infer_fp32", RELEASE))
    default = rec.result("default")
    assert rec.spec_hash in outline and f"| `results[default].compile_cold_s` | {default.compile_cold_s:.4g} |" in outline
    assert f"| `results[default].samples_s` | {len(default.samples_s)} values |" in outline
    assert "add-your-machine.md" in (ROOT / "mkdocs.yml").read_text()


def test_machines_says_so_when_nothing_is_committed(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "default_root", lambda: tmp_path)
    assert machines.machines() == "No machine has committed records yet.\n"
    assert "No committed record" in machines.record_outline("mlp")


@pytest.mark.parametrize("slug", CURRENT)
def test_the_example_model_report_of_the_current_machine_is_committed_fresh_and_names_no_checkout(slug):
    """The how-to page's report is kept beside the records: a fresh clone on that machine measures nothing
    for it, whatever folder it was cloned into."""
    from eager_vs_compiled.pages import report

    folder = store.release_dir(ROOT / "measurements", slug, RELEASE) / report.REPORTS
    rec = records.load(folder / "my_model_factory-factory.json")
    assert rec.harness_version == measure.HARNESS_VERSION
    assert rec.spec["sizes"]["model"] == "snippets/how-to/my_model_factory.py:factory"
    assert {r.mode for r in rec.results} >= {"eager", "default"}
    assert all(r.status in ("ok", "skipped") for r in rec.results), [(r.mode, r.status) for r in rec.results]
    for ext in ("md", "html"):
        text = (folder / f"my_model_factory-factory.{ext}").read_text(encoding="utf-8")
        assert not re.search(r"/[^\s`'\"]*/snippets/how-to/my_model_factory", text), ext  # an absolute path
