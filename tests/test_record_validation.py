"""A record is input from anyone's fork: samples that are not positive finite seconds, nulls where the
pages expect a list or text, and fields the schema does not know are refused with a RecordError
that names the file and the field."""
import json
import re

import pytest

from eager_vs_compiled import records
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

    found = [records.load(p) for p in sorted(Path(ROOT / "measurements").rglob("*.json"))
             if "captures" not in p.parts and p.name != "machine_peaks.json"]
    assert len(found) > 20  # every committed record loads under the rule
