import json
import os
import re

import pytest

from eager_vs_compiled import freshness, machine, measure, records, store
from helpers import RELEASE, make_record


def test_record_round_trips_through_json(tmp_path):
    rec = make_record()
    path = store.save(rec, tmp_path)
    assert path == tmp_path / machine.describe()["slug"] / f"torch-{RELEASE}" / "mlp.json"
    back = records.load(path)
    assert back == rec
    assert back.result("default").speedup == pytest.approx(0.011 / 0.005)


def test_corrupt_record_is_an_error_naming_the_file(tmp_path):
    path = tmp_path / "some-machine" / "mlp.json"
    path.parent.mkdir()
    path.write_text('{"schema": 1, "workload": "mlp", ')  # truncated
    with pytest.raises(records.RecordError, match="some-machine/mlp.json"):
        records.load(path)


def _set_schema(raw):
    raw["schema"] = 99


def _drop_samples(raw):
    raw["results"][0]["samples_s"] = []


@pytest.mark.parametrize("tamper, message", [
    (_set_schema, "newer schema version 99 \\(this harness reads 2, 3, 4, 5; upgrade eager-vs-compiled"),
    (_drop_samples, "mode 'eager' is 'ok' but has no samples"),
])
def test_untrustworthy_record_is_rejected_by_name(tmp_path, tamper, message):
    raw = json.loads(make_record().to_json())
    tamper(raw)
    path = tmp_path / "m" / "mlp.json"
    path.parent.mkdir()
    path.write_text(json.dumps(raw))
    with pytest.raises(records.RecordError, match=f"m/mlp.json: {message}"):
        records.load(path)


def test_failed_write_leaves_the_old_record_and_no_temp_file(tmp_path, monkeypatch):
    old = make_record()
    path = store.save(old, tmp_path)
    before = path.read_text()

    def crash(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(records.RecordWriteError, match=r"cannot write measurement records to .*mlp\.json: disk full"):
        store.save(make_record(eager=(0.02, 0.02, 0.02)), tmp_path)
    assert path.read_text() == before
    assert [p.name for p in path.parent.iterdir()] == ["mlp.json"]


def _fresh_args(rec):
    from eager_vs_compiled import workloads

    w = workloads.get(rec.workload)
    return dict(machine=machine.describe(), torch_version=machine.versions()["torch"],
                harness_version=measure.HARNESS_VERSION, spec_hash=w.spec_hash(rec.profile),
                modes=w.modes[rec.profile])


def test_record_of_this_machine_is_fresh():
    rec = make_record()
    assert freshness.staleness(rec, **_fresh_args(rec)) is None


@pytest.mark.parametrize("change, expected", [
    (lambda r: r.machine.update(fingerprint="other"), "machine fingerprint"),
    (lambda r: r.versions.update(torch="1.0.0"), "torch version"),
    (lambda r: setattr(r, "harness_version", 0), "harness version"),
    (lambda r: setattr(r, "spec_hash", "0000"), "workload spec"),
    (lambda r: r.results.pop(), "not measured"),
])
def test_record_is_stale_when_anything_that_shapes_it_changed(change, expected):
    rec = make_record()
    rec.machine = dict(rec.machine)
    change(rec)
    assert expected in freshness.staleness(rec, **_fresh_args(rec))


@pytest.mark.parametrize("field, value", [("median_s", 0.0001), ("speedup", 1000), ("breakeven_iters", 1),
                                          ("throughput", 1e9), ("compile_cold_s", 0.0)])
def test_derived_figures_are_recomputed_from_the_samples_never_trusted(tmp_path, field, value):
    rec = make_record()
    raw = json.loads(rec.to_json())
    raw["results"][1][field] = value  # a number nobody measured
    path = tmp_path / "m" / "mlp.json"
    path.parent.mkdir()
    path.write_text(json.dumps(raw))
    assert getattr(records.load(path).results[1], field) == getattr(rec.results[1], field)


@pytest.mark.parametrize("where, value, message", [
    (("results", 1, "speedup"), "NaN", "speedup: nan is not a finite number"),
    (("results", 1, "speedup"), "Infinity", "speedup: inf is not a finite number"),
    (("results", 1, "compile_warm_s"), -1.0, "compile_warm_s: -1.0 is not a finite number >= 0"),
    (("results", 1, "samples_s"), 5, "samples_s: 5 is not a list"),
    (("results", 1, "peak_memory_bytes"), 1.5, "peak_memory_bytes: 1.5 is not an integer"),
    (("results", 1, "noisy"), "no", "noisy: 'no' is not a bool"),
    (("machine",), "x", "machine: 'x' is not a dict"),
    (("date",), 1, "date: 1 is not a str"),
    (("date",), "yesterday", "date: 'yesterday' is not an ISO date"),
    (("harness_version",), True, "harness_version: True is not an integer"),
])
def test_a_field_of_the_wrong_type_or_range_is_a_record_error_naming_it(tmp_path, where, value, message):
    text = make_record().to_json()
    raw = json.loads(text)
    target = raw
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = "__VALUE__"
    path = tmp_path / "m" / "mlp.json"
    path.parent.mkdir()
    path.write_text(json.dumps(raw).replace('"__VALUE__"', value if value in ("NaN", "Infinity") else json.dumps(value)))
    with pytest.raises(records.RecordError, match=re.escape(message)):
        records.load(path)
