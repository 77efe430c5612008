"""A record is input from anyone's fork: samples that are not positive finite seconds, nulls where the
pages expect a list or text, and fields the schema does not know are refused with a RecordError
that names the file and the field."""
import json
import re

import pytest

from eager_vs_compiled import freshness, records
from helpers import make_record


def load_edited(tmp_path, edit):
    raw = json.loads(make_record().to_json())
    edit(raw)
    path = tmp_path / "cpu-someone-2c" / "mlp.json"
    path.parent.mkdir()
    path.write_text(json.dumps(raw))  # json writes NaN as the bare word NaN, as a hand-edited file may
    return records.load(path)


def refused(tmp_path, edit, message: str):
    with pytest.raises(records.RecordError, match=re.escape(f"cpu-someone-2c/mlp.json: {message}")):
        load_edited(tmp_path, edit)


@pytest.mark.parametrize("field", ["samples_s", "eager_samples_s"])
@pytest.mark.parametrize("sample", [0, 0.0, -0.005, True, False, float("nan"), float("inf"), "0.005"])
def test_a_sample_that_is_not_a_positive_finite_number_is_refused_naming_its_field(tmp_path, field, sample):
    def edit(raw):
        raw["results"][1][field][1] = sample
    refused(tmp_path, edit, f"mode 'default': {field}: invalid sample {sample!r}")


@pytest.mark.parametrize("field, kind", [("samples_s", "list"), ("eager_samples_s", "list"), ("message", "str")])
def test_a_null_where_the_pages_expect_a_list_or_text_is_refused(tmp_path, field, kind):
    def edit(raw):
        raw["results"][1][field] = None
    refused(tmp_path, edit, f"mode 'default': {field}: null is not a {kind}")


def test_an_unknown_field_of_a_result_is_refused_by_name(tmp_path):
    def edit(raw):
        raw["results"][1]["speedup_claimed"] = 9.9
    refused(tmp_path, edit, "result has unknown or missing fields ['speedup_claimed']")


def test_an_unknown_top_level_field_is_refused_by_name(tmp_path):
    def edit(raw):
        raw["verdict"] = "true"
    refused(tmp_path, edit, "missing fields [], unknown ['verdict']")


@pytest.mark.parametrize("field, value, message", [
    ("n", True, "n: True is not an integer"),
    ("peak_memory_bytes", False, "peak_memory_bytes: False is not an integer"),
    ("first_call_s", True, "first_call_s: True is not a number"),
    ("first_call_s", float("nan"), "first_call_s: nan is not a finite number >= 0"),
    ("compile_warm_s", -0.5, "compile_warm_s: -0.5 is not a finite number >= 0"),
])
def test_a_bool_nan_or_negative_in_a_number_field_is_refused_by_name(tmp_path, field, value, message):
    def edit(raw):
        raw["results"][1][field] = value
    refused(tmp_path, edit, f"mode 'default': {message}")


def test_an_integer_sample_of_whole_seconds_is_accepted(tmp_path):
    """The counterpart: JSON writes 1.0 as 1 when a hand edits it; one second is a valid sample."""
    def edit(raw):
        raw["results"][1]["samples_s"] = [1, 1, 1]
    assert load_edited(tmp_path, edit).result("default").samples_s == [1, 1, 1]


@pytest.mark.parametrize("where, value", [("slug", "../../outside"), ("slug", "a/b"), ("slug", ".."),
                                          ("workload", "../../index"), ("workload", "x\\y"), ("workload", "")])
def test_a_slug_or_workload_that_is_not_a_plain_name_is_refused(tmp_path, where, value):
    """Both name the site's data files (data/<slug>/torch-<release>/<workload>.json): a path in them
    would write outside the site's data folder."""
    def edit(raw):
        if where == "slug":
            raw["machine"]["slug"] = value
        else:
            raw["workload"] = value
    name = "machine.slug" if where == "slug" else "workload"
    refused(tmp_path, edit, f"{name}: {value!r} is not a plain name")


def test_the_committed_slugs_and_workloads_are_plain_names():
    from pathlib import Path

    from helpers import ROOT

    from eager_vs_compiled import experiments

    paths = sorted(Path(ROOT / "measurements").rglob("*.json"))
    found = [records.load(p) for p in paths
             if not {"captures", "footprint"} & set(p.parts) and p.name != "machine_peaks.json"]
    assert len(found) > 20  # every committed record loads under the rule
    assert [experiments.load_footprint(p) for p in paths if "footprint" in p.parts]  # a schema of their own


# --- every refusal says which file, why, and what to do --------------------------------------------
def _edit_result(field, value):
    def edit(raw):
        if value is _DELETE:
            del raw["results"][1][field]
        else:
            raw["results"][1][field] = value
    return edit


def _edit_top(field, value):
    def edit(raw):
        raw[field] = value
    return edit


_DELETE = object()
TAIL = " (delete it or re-measure with EVC_REMEASURE=1 / --force)"


@pytest.mark.parametrize("edit, reason", [
    (_edit_result("status", "fast"), "mode 'default' has unknown status 'fast'"),
    (_edit_result("memory_kind", "vram"), "mode 'default': unknown memory_kind 'vram'"),
    (_edit_result("status", _DELETE), "result has unknown or missing fields ['mode/status']"),
    (_edit_result("mode", 3), "result has unknown or missing fields ['mode/status']"),
    (_edit_top("schema", 6), "newer schema version 6 (this harness reads 2, 3, 4, 5; upgrade eager-vs-compiled to read it)"),
    (_edit_top("schema", 1), "unknown schema version 1 (this harness reads 2, 3, 4, 5)"),
    (_edit_top("schema", "2"), "unknown schema version '2' (this harness reads 2, 3, 4, 5)"),
    (_edit_top("schema", True), "unknown schema version True (this harness reads 2, 3, 4, 5)"),
    (_edit_result("host", {"slope": -0.5, "se": 0.1}),
     "mode 'default': host: {'slope': -0.5, 'se': 0.1} does not hold exactly slope, se, ref_s"),
    (_edit_result("host", {"slope": "steep", "se": 0.1, "ref_s": 1e-5}),
     "mode 'default': host: {'slope': 'steep', 'se': 0.1, 'ref_s': 1e-05}: 'steep' is not a number"),
    (_edit_result("host", {"slope": -0.5, "se": -0.1, "ref_s": 1e-5}),
     "mode 'default': host: {'slope': -0.5, 'se': -0.1, 'ref_s': 1e-05}: -0.1 is not a finite number >= 0"),
    (_edit_result("host", {"slope": -0.5, "se": 0.1, "ref_s": 0}), "mode 'default': host: {'slope': -0.5, 'se': 0.1, "
     "'ref_s': 0}: ref_s is 0"),
    (_edit_result("host", [-0.5, 0.1, 1e-5]), "mode 'default': host: [-0.5, 0.1, 1e-05] is not a dict"),
    (lambda raw: raw["machine"].update(slug=5), "machine.slug and versions.torch must be strings"),
    (lambda raw: raw["versions"].update(torch=2.15), "machine.slug and versions.torch must be strings"),
    (lambda raw: raw["results"].append(3), "'results' is not a list of objects"),
    (_edit_top("title", None), "title: null"),
    (_edit_top("workload", "mlp..b"), "workload: 'mlp..b' is not a plain name (letters, digits, '.', '_', '-')"),
], ids=["status", "memory_kind", "no-status", "int-mode", "newer-schema", "older-schema", "str-schema",
        "bool-schema", "host-fields", "host-slope", "host-se", "host-ref", "host-list", "int-slug", "float-torch", "result-not-object", "null-title", "dots"])
def test_each_refusal_names_the_file_the_reason_and_the_way_out(tmp_path, edit, reason):
    with pytest.raises(records.RecordError) as refusal:
        load_edited(tmp_path, edit)
    assert str(refusal.value) == f"bad measurement record {tmp_path / 'cpu-someone-2c' / 'mlp.json'}: {reason}{TAIL}"
    assert refusal.value.path == tmp_path / "cpu-someone-2c" / "mlp.json"


@pytest.mark.parametrize("text, reason", [
    ("[]", "top level is not an object"),
    ("{", "cannot read JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
])
def test_a_file_that_is_not_a_json_object_is_refused_by_name(tmp_path, text, reason):
    (tmp_path / "mlp.json").write_text(text)
    with pytest.raises(records.RecordError) as refusal:
        records.load(tmp_path / "mlp.json")
    assert str(refusal.value) == f"bad measurement record {tmp_path / 'mlp.json'}: {reason}{TAIL}"


def test_a_write_refusal_says_how_to_fix_it(tmp_path):
    assert str(records.RecordWriteError(tmp_path, "Permission denied")) == (
        f"cannot write measurement records to {tmp_path}: Permission denied. "
        "Make the folder writable, or set EVC_MEASUREMENTS to another folder")


def test_a_result_with_only_mode_status_and_message_loads_with_empty_samples(tmp_path):
    rec = load_edited(tmp_path, lambda raw: raw["results"].__setitem__(
        2, {"mode": "max-autotune", "status": "skipped", "message": "needs onnxruntime, which is not installed"}))
    assert (rec.results[2].samples_s, rec.results[2].eager_samples_s, rec.results[2].median_s) == ([], [], None)


@pytest.mark.parametrize("batch, items", [(64, 64), (0, 1), (-3, 1), ("64", 1), (2.5, 1), (_DELETE, 1)])
def test_throughput_counts_the_batch_of_the_spec_or_one_item_when_it_is_not_a_positive_integer(tmp_path, batch, items):
    def edit(raw):
        if batch is _DELETE:
            del raw["spec"]["sizes"]["batch"]
        else:
            raw["spec"]["sizes"]["batch"] = batch
    eager = load_edited(tmp_path, edit).results[0]  # samples 10, 11, 12 ms: median 11 ms
    assert eager.throughput == pytest.approx(items / 0.011, rel=1e-12)


def test_a_record_is_written_as_indented_json_in_field_order_ending_with_a_newline():
    text = make_record().to_json()
    assert text.startswith('{\n "workload": "mlp",\n "title": "MLP inference",\n "profile": ')
    assert text.endswith("\n \"schema\": 5\n}\n")


def test_a_record_with_a_nan_is_never_written():
    rec = make_record()
    rec.results[1].max_rel_err = float("nan")
    with pytest.raises(ValueError, match="not JSON compliant"):
        rec.to_json()


def test_only_a_mode_skipped_for_the_time_budget_is_unfinished():
    rec = make_record()  # eager, default, max-autotune
    rec.results[1] = records.ModeResult("default", "skipped", message="needs onnxruntime, which is not installed")
    rec.results[2] = records.ModeResult("max-autotune", "timeout", message="time budget: the mode overran it")
    assert freshness.unfinished(rec, ["eager", "default", "max-autotune", "reduce-overhead"]) == ["reduce-overhead"]
    rec.results[2] = records.ModeResult("max-autotune", "skipped", message="time budget: 3 s left, about 40 s needed")
    assert freshness.unfinished(rec, ["eager", "default", "max-autotune"]) == ["max-autotune"]


@pytest.mark.parametrize("change, why", [
    ({"machine": {"slug": "cpu-x", "fingerprint": "aaaa"}}, "machine fingerprint changed (aaaa → ffff)"),
    ({"versions": {"torch": "2.14.1"}}, "torch version changed (2.14.1 → 2.15.0)"),
    ({"harness_version": 1}, "harness version changed (1 → 2)"),
    ({"spec_hash": "0123"}, "workload spec changed (0123 → abcd)"),
])
def test_staleness_names_what_changed(change, why):
    rec = make_record()
    rec.machine, rec.versions, rec.harness_version, rec.spec_hash = {"fingerprint": "ffff"}, {"torch": "2.15.0"}, 2, "abcd"
    for name, value in change.items():
        setattr(rec, name, value)
    assert freshness.staleness(rec, {"fingerprint": "ffff"}, "2.15.0", 2, "abcd") == why
    assert freshness.staleness(rec, {"fingerprint": "ffff"}, "2.15.0", 2, "abcd", ["eager", "turbo"]) == \
        "modes ['turbo'] not measured"


def test_throughput_and_tflops_are_derived_from_the_median():
    r = records.ModeResult("default", "ok", samples_s=[0.25] * 3, flops_per_call=5 * 10**11).finish(8)
    assert (r.median_s, r.throughput, r.tflops) == (0.25, 32.0, 2.0)  # 8 items / 0.25 s; 5e11 / 0.25 s / 1e12
    zero = records.ModeResult("eager", "ok", samples_s=[0.0] * 3).finish(8)
    assert zero.throughput is None  # a clock too coarse to see the call: no rate, no division by zero
