"""The "Compile or convert?" page rendered from records built by hand: every correct mode ranked by
throughput, the modes that did not run listed with their message, verdict words that follow the
intervals, hostile text kept as text, a missing record said so; and the home page's answer naming a
recipe or engine of the same model when it is faster than the plain compile modes."""
import re

import pytest

from eager_vs_compiled import machine, measure, store, workloads
from eager_vs_compiled.pages import engines as page
from eager_vs_compiled.pages import context, home, lang
from eager_vs_compiled.records import ModeResult, Record
from helpers import make_record, pages_read
from test_hostile import HOSTILE, assert_inert, site_markdown

pytestmark = pytest.mark.filterwarnings("ignore:Tight layout not applied")  # the hostile chart's long labels
NAME = "engines_resnet50_b4"
EAGER = (0.010, 0.0101, 0.0099, 0.0100, 0.0102, 0.0098, 0.0100)
# the same noise around other medians: the intervals of these never overlap eager's, nor each other's
ROUNDS = (0.0, 0.01, -0.01, 0.0, 0.02, -0.02, 0.0)
OVERLAPPING = (0.010, 0.012, 0.009, 0.011, 0.010, 0.013, 0.009)  # around eager's median: no difference


def times(median: float) -> list[float]:
    return [median * (1 + d) for d in ROUNDS]


def result(mode: str, median: float | None, status: str = "ok", message: str = "", samples=None,
           artifact: int | None = None) -> ModeResult:
    if median is None and samples is None:
        return ModeResult(mode, status, message=message)
    return ModeResult(mode, status, message=message, samples_s=list(samples or times(median)),
                      eager_samples_s=list(EAGER), first_call_s=3.0, compile_warm_s=0.4, peak_memory_bytes=2**30,
                      memory_kind="process_peak_rss", max_abs_err=1e-6, max_rel_err=1e-6,
                      artifact_bytes=artifact).finish(4)


def record(results: list[ModeResult], name: str = NAME, **over) -> Record:
    w, profile = workloads.get(name), workloads.default_profile()
    eager = ModeResult("eager", "ok", samples_s=list(EAGER), peak_memory_bytes=2**29).finish(4)
    fields = dict(workload=name, title=w.title, profile=profile, device="cpu", spec=w.spec(profile),
                  spec_hash=w.spec_hash(profile), harness_version=measure.HARNESS_VERSION, machine=machine.describe(),
                  versions={**machine.versions(), "onnxruntime": "1.32.0"}, date="2026-12-05T00:00:00+00:00",
                  git_commit=None, results=[eager, *results])
    return Record(**{**fields, **over})


def engines_record() -> Record:
    """The bf16 recipe fastest, then ONNX Runtime, OpenVINO f32, the fp32 recipe, eager; one engine
    skipped and one that failed to export."""
    return record([
        result("default+freezing+cl", 0.008),
        result("default+freezing+cl+bf16", 0.0025),
        result("onnxruntime", 0.005, artifact=100 * 2**20),
        result("openvino", 0.00625, artifact=50 * 2**20),
        result("openvino+bf16", None, "skipped", "openvino needs openvino, which is not installed"),
        result("aotinductor+freezing+cl", None, "error", "ExportFailed: aotinductor could not export resnet50: boom"),
    ])


@pytest.fixture
def records(monkeypatch):
    """The records the page reads, by workload name (this machine's; none of another machine)."""
    found: dict[str, Record] = {}
    pages_read(monkeypatch, found)
    monkeypatch.setattr(store, "records_for", lambda name, *args, **kwargs: [])
    return found


def rows(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if re.match(r"\s*\| \d+ \|", ln)]


def test_every_correct_mode_is_ranked_by_throughput(records):
    records[NAME] = engines_record()
    text = page.table(NAME)
    ranked = [re.search(r"<code>([^<]+)</code>", row).group(1) for row in rows(text)]
    assert ranked == ["default+freezing+cl+bf16", "onnxruntime", "openvino", "default+freezing+cl", "eager"]
    onnx = rows(text)[1]
    assert "100 MiB" in onnx and "1.00 GiB" in onnx and "(fp32)" in onnx  # artifact, peak memory, precision
    assert "INFERENCE_PRECISION_HINT=f32" in rows(text)[2]
    assert "(bf16)" in rows(text)[0] and "3e-02" in rows(text)[0]  # checked with bfloat16's tolerance
    assert "onnxruntime 1.32.0" in text  # the engine's version, from the record


def test_a_mode_that_did_not_run_is_listed_with_its_message(records):
    records[NAME] = engines_record()
    text = page.table(NAME)
    assert "- <code>openvino+bf16</code>: skipped — openvino needs openvino, which is not installed" in text
    assert "- <code>aotinductor+freezing+cl</code>: error — ExportFailed: aotinductor could not export resnet50: boom" in text
    assert not any("aotinductor" in row for row in rows(text))


def test_the_verdict_names_the_fastest_and_compares_recipe_and_engine_per_precision(records):
    records[NAME] = engines_record()
    text = page.conclusion(NAME)
    assert "the fastest correct way is <code>default+freezing+cl+bf16</code>, in bf16" in text
    # fp32: the recipe at 0.008 s against ONNX Runtime at 0.005 s: 0.625 of its speed, outside the noise
    assert re.search(r"In fp32, the best torch.compile recipe <code>default\+freezing\+cl</code> runs at 0\.62× "
                     r"\(0\.\d\d–0\.\d\d\) the speed of the best engine <code>onnxruntime</code>, latency against latency "
                     r"\(one stream\): slower\.", text)
    assert "In bf16" not in text  # OpenVINO bf16 did not run: nothing to compare the bf16 recipe with


def test_words_follow_the_intervals(records):
    records[NAME] = record([result("default+freezing+cl", None, samples=OVERLAPPING),
                            result("openvino", None, samples=[s * 1.01 for s in OVERLAPPING]),
                            result("default+freezing+cl+bf16", 0.004), result("openvino+bf16", 0.002)])
    text = page.table(NAME)
    recipe = next(row for row in rows(text) if "<code>default+freezing+cl</code>" in row)
    assert ": no measurable difference" in recipe and "— (no measurable difference)" in recipe
    said = page.conclusion(NAME)
    assert re.search(r"In fp32, .*<code>openvino</code>, latency against latency \(one stream\): within the noise\.", said)
    assert re.search(r"In bf16, .*runs at 0\.50× .*<code>openvino\+bf16</code>, latency against latency \(one stream\): slower\.", said)


def test_the_fastest_is_called_so_alone_only_when_it_is_ahead_of_every_other_mode(records):
    # fp32: the recipe and ONNX Runtime within each other's noise (overlapping rounds), OpenVINO clearly behind
    records[NAME] = record([result("default+freezing+cl", None, samples=[s / 2 for s in OVERLAPPING]),
                            result("onnxruntime", None, samples=[s / 2 * 1.01 for s in OVERLAPPING]),
                            result("openvino", 0.008)])
    said, summary = page.conclusion(NAME), page.summary([NAME])
    assert "within the noise of <code>onnxruntime</code>." in said and "<code>openvino</code>" not in said.split(".")[0]
    fastest = next(ln for ln in summary.splitlines() if "| fp32 |" in ln).strip().strip("|").split("|")[2]
    assert fastest.startswith(" <code>default+freezing+cl</code>") and fastest.endswith("within the noise of <code>onnxruntime</code> ")
    # the other side: ONNX Runtime twice as slow, clearly behind: no qualifier
    records[NAME] = record([result("default+freezing+cl", 0.004), result("onnxruntime", 0.008), result("openvino", 0.008)])
    assert "within the noise of" not in page.conclusion(NAME) + page.summary([NAME])


def test_the_summary_has_one_row_per_workload_and_precision(records):
    records[NAME] = record([result("default+freezing+cl", 0.008), result("onnxruntime", 0.005),
                            result("default+freezing+cl+bf16", 0.002), result("openvino+bf16", 0.004)])
    text = page.summary([NAME, "engines_vit_b_16"])
    table = [ln for ln in text.splitlines() if "ResNet-50 inference, batch 4" in ln]
    cells = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in table]
    assert [c[1] for c in cells] == ["fp32", "bf16"]
    # the fastest correct way of each precision: onnxruntime in fp32, the bf16 recipe in bf16
    assert "onnxruntime" in cells[0][2] and "default+freezing+cl+bf16" in cells[1][2], cells
    assert "slower" in table[0] and "faster" in table[1]
    assert "Not measured yet" in text and "`engines_vit_b_16`" in text  # the other workload has no record


def test_a_missing_record_says_how_to_measure_it(records):
    assert page.conclusion(NAME) == ""  # the table below it says so, once
    for text in (page.table(NAME), page.chart([NAME])):
        assert "Not measured yet" in text and "./evc.sh measure --workload NAME" in text and f"`{NAME}`" in text
        assert "<table" not in text and "×" not in text


def test_the_chart_draws_every_mode_with_its_interval(records):
    records[NAME] = engines_record()
    text = page.chart([NAME])
    assert text.count("<svg") == 1 and "resnet50_b4 · onnxruntime" in text
    assert "resnet50_b4 · aotinductor+freezing+cl" in text  # failed: a row without a bar, not dropped


def test_hostile_record_text_stays_text(records):
    records[NAME] = record([result(HOSTILE, 0.005, message=HOSTILE), result(HOSTILE + "!", None, "error", HOSTILE)],
                           title=HOSTILE, machine={"slug": HOSTILE, "cpu": HOSTILE, "cores": 2},
                           versions={"torch": HOSTILE, "python": HOSTILE, "openvino": HOSTILE})
    for text in (page.table(NAME), page.conclusion(NAME), page.summary([NAME]), page.chart([NAME])):
        for shown in (text, site_markdown(text)):
            assert_inert(shown)
        assert HOSTILE not in text  # escaped everywhere: never the raw string


def test_the_page_renders_in_chinese(records):
    records[NAME] = engines_record()
    with lang.using("zh"):
        text = page.table(NAME) + page.conclusion(NAME) + page.summary([NAME])
    assert "未进入排名" in text and "最快的正确运行方式" in text


def test_the_model_reports_verdict_names_the_ways_its_pick_is_not_ahead_of():
    from eager_vs_compiled.pages import report

    tied = record([result("default+freezing+cl", None, samples=[s / 2 for s in OVERLAPPING]),
                   result("onnxruntime", None, samples=[s / 2 * 1.01 for s in OVERLAPPING]), result("openvino", 0.008)])
    said = report.one_line(tied)
    assert said.startswith("compile with `default+freezing+cl`: ") and "faster (within the noise of `onnxruntime`)," in said
    ahead = record([result("default+freezing+cl", 0.004), result("onnxruntime", 0.008), result("openvino", 0.008)])
    assert "within the noise" not in report.one_line(ahead) and " faster, pays off" in report.one_line(ahead)


def test_the_home_answer_names_the_ways_it_is_not_ahead_of(tmp_path, monkeypatch):
    import dataclasses

    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    spread = (0.005, 0.0056, 0.0044, 0.0053, 0.0047)
    for behind, said in ((1.0, True), (2.0, False)):  # max-autotune as fast as default, then twice as slow
        rec = make_record("mlp", eager=(0.010,) * 5, compiled=spread)
        rec = dataclasses.replace(rec, results=[dataclasses.replace(r, samples_s=[s * behind for s in r.samples_s]).finish(1)
                                                if r.mode == "max-autotune" else r for r in rec.results])
        store.save(rec, tmp_path)
        context.use(context.BuildContext.of_this_machine())  # a new build: nothing read yet
        row = next(ln for ln in home.headline(["mlp"]).splitlines() if ln.startswith("| MLP"))
        assert ("within the noise of <code>max-autotune</code>" in row) == said, row


def test_the_home_answer_names_a_faster_recipe_or_engine_of_the_same_model(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    context.use(context.BuildContext.of_this_machine())  # a new build: nothing read yet
    assert "engines_mlp" in home.siblings("mlp")
    store.save(make_record("mlp", eager=(0.010, 0.0101, 0.0099), compiled=(0.005, 0.0051, 0.0049)), tmp_path)  # 2× over eager
    store.save(make_record("engines_mlp", eager=(0.010, 0.0101, 0.0099), compiled=(0.0025, 0.00251, 0.00249)), tmp_path)  # 4×
    row = next(ln for ln in home.headline(["mlp"]).splitlines() if ln.startswith("| MLP"))
    assert row.endswith("| <code>engines_mlp</code> |") and "**4.00×**" in row
    context.use(context.BuildContext.of_this_machine())  # a new build: nothing read yet
    store.save(make_record("engines_mlp", eager=(0.010, 0.0101, 0.0099), compiled=(0.008, 0.0081, 0.0079)), tmp_path)  # slower than mlp's
    row = next(ln for ln in home.headline(["mlp"]).splitlines() if ln.startswith("| MLP"))
    assert row.endswith("| <code>mlp</code> |") and "**2.00×**" in row
