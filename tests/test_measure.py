import time
import types

import pytest

from eager_vs_compiled import machine, measure, rounds, records, store, workloads
from helpers import RELEASE, as_steps, make_record


@pytest.fixture
def fake_measure(monkeypatch):
    """Replace the (slow, real) measurement by a counter: these tests are about the decision."""
    calls = []

    def fake(name, profile=None, modes=None, timeout=None, progress=None, **kwargs):
        calls.append(name)
        return make_record(name)

    monkeypatch.setattr(measure, "workload_steps", as_steps(fake))
    monkeypatch.setattr(measure, "_ensured", {})
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    return calls


def test_missing_record_is_measured_and_saved(tmp_path, fake_measure):
    rec = measure.ensure_record("mlp", tmp_path)
    assert fake_measure == ["mlp"]
    assert records.load(store.path_for(tmp_path, machine.describe()["slug"], "mlp", RELEASE)) == rec


def test_fresh_record_is_reused(tmp_path, fake_measure):
    store.save(make_record("mlp"), tmp_path)
    measure.ensure_record("mlp", tmp_path)
    assert fake_measure == []


def test_stale_record_is_remeasured(tmp_path, fake_measure):
    store.save(make_record("mlp", torch_version=RELEASE + "+another.build"), tmp_path)
    measure.ensure_record("mlp", tmp_path)
    assert fake_measure == ["mlp"]


def test_a_record_of_an_older_release_is_never_remeasured_or_overwritten(tmp_path, fake_measure):
    old = store.save(make_record("mlp", torch_version="2.0.0+cpu"), tmp_path)
    before, stat = old.read_bytes(), old.stat()
    rec = measure.ensure_record("mlp", tmp_path)  # this torch's release has no record yet: measured
    assert fake_measure == ["mlp"] and store.release(rec.versions["torch"]) == RELEASE
    assert old.parent.name == "torch-2.0.0" and old.read_bytes() == before
    assert (old.stat().st_mtime_ns, old.stat().st_ino) == (stat.st_mtime_ns, stat.st_ino)
    assert store.path_for(tmp_path, machine.describe()["slug"], "mlp", RELEASE).exists()
    monkeypatch_env = {"EVC_REMEASURE": "1"}  # even a forced re-measurement leaves history alone
    measure._ensured.clear()
    import os
    os.environ.update(monkeypatch_env)
    try:
        measure.ensure_record("mlp", tmp_path)
    finally:
        del os.environ["EVC_REMEASURE"]
    assert fake_measure == ["mlp", "mlp"] and old.read_bytes() == before


def test_a_record_cannot_be_saved_over_another_release(tmp_path):
    path = store.save(make_record("mlp", torch_version="2.0.0"), tmp_path)
    wrong = make_record("mlp", torch_version="2.0.0")
    path.write_text(path.read_text().replace('"torch": "2.0.0"', '"torch": "1.13.1"'))
    with pytest.raises(records.RecordWriteError, match="history is never overwritten"):
        store.save(wrong, tmp_path)
    assert '"torch": "1.13.1"' in path.read_text()


def test_remeasure_switch_forces_a_new_measurement(tmp_path, fake_measure, monkeypatch):
    store.save(make_record("mlp"), tmp_path)
    monkeypatch.setenv("EVC_REMEASURE", "1")
    measure.ensure_record("mlp", tmp_path)
    assert fake_measure == ["mlp"]


def test_one_build_measures_a_workload_once(tmp_path, fake_measure):
    measure.ensure_record("mlp", tmp_path)
    measure.ensure_record("mlp", tmp_path)
    assert fake_measure == ["mlp"]


def test_corrupt_record_of_this_machine_is_an_error_not_a_number(tmp_path, fake_measure):
    path = store.path_for(tmp_path, machine.describe()["slug"], "mlp", RELEASE)
    path.parent.mkdir(parents=True)
    path.write_text("not json")
    with pytest.raises(records.RecordError, match="mlp.json"):
        measure.ensure_record("mlp", tmp_path)
    assert fake_measure == []
    assert path.read_text() == "not json"  # nothing overwritten behind the user's back


def test_unknown_workload_names_the_valid_ones():
    with pytest.raises(KeyError, match="valid names: tiny_op, pointwise_01, .*resnet50_infer_fp32"):
        workloads.get("resnet1000")


@pytest.mark.slow
def test_a_failing_mode_becomes_a_status():
    result = measure.measure_mode(workloads.get("pointwise_16"), "cpu", "no-such-mode")
    assert result.status == "error"
    assert "no-such-mode" in result.message
    assert result.samples_s == [] and result.median_s is None


@pytest.mark.slow
def test_a_hanging_mode_becomes_a_timeout():
    result = measure.measure_mode(workloads.get("resnet50_infer_fp32"), "cpu", "default", timeout=3)
    assert result.status == "timeout"
    assert "3 s" in result.message


def test_modes_that_no_longer_fit_the_budget_are_recorded_as_skipped(monkeypatch):
    """The decisions alone: what does not fit at the start is skipped; the rounds stop when the clock
    says the budget is spent, and what ran stands."""

    clock = {"now": 1000.0}
    # the harness's clock only (its `time` names): patching time.monotonic itself would move every
    # thread's clock in this process (the snippet pool's waits, pytest's own timings) with it.
    fake_time = types.SimpleNamespace(monotonic=lambda: clock["now"], perf_counter=time.perf_counter)
    monkeypatch.setattr(measure, "time", fake_time)
    monkeypatch.setattr(rounds, "time", fake_time)
    asked = []

    def fake_child(args, env, timeout):
        clock["now"] += 15  # each process takes 15 s
        mode = args["mode"]
        asked.append(mode)
        samples = [0.02] * 3 if mode == "eager" else [0.01] * 3
        return {mode: records.ModeResult(mode, "ok", samples_s=samples, processes=[{"n": 3}],
                                         first_call_s=1.0, max_rel_err=0.0)}

    monkeypatch.setattr(rounds, "_run_child", fake_child)
    w = workloads.get("mlp")
    rec = measure.measure_workload("mlp", "cpu", deadline=clock["now"] + 65, protocol="alone")
    status = {r.mode: r.status for r in rec.results}
    assert status == {"eager": "ok", "default": "ok", "max-autotune": "skipped"}
    assert "time budget" in rec.result("max-autotune").message
    assert asked == ["eager", "default", "default", "eager", "eager"]  # the fifth process ends the budget
    assert len(rec.result("eager").process_samples()) == 3 and len(rec.result("default").process_samples()) == 2
    assert rec.result("eager").median_s == 0.02 and rec.result("default").speedup == 2.0
    assert measure.estimate_s(w, "default") <= 65 < measure.estimate_s(w, "max-autotune")  # what fit, what did not


def test_by_default_eager_is_timed_beside_each_mode_and_a_slow_window_cancels_in_its_ratio(monkeypatch):
    """No process of eager's own: each compiled mode's process times eager beside it. The second process
    runs in a window twice as slow, on both sides: the speedup and its interval stay exactly 2."""
    from eager_vs_compiled import data

    asked = []

    def fake_child(args, env, timeout):
        asked.append((args["mode"], args["protocol"]))
        slow, mode = (2.0 if len(asked) == 2 else 1.0), args["mode"]
        return {mode: records.ModeResult(mode, "ok", samples_s=[0.01 * slow] * 3, eager_samples_s=[0.02 * slow] * 3,
                                         processes=[{"n": 3, "eager_n": 3}], first_call_s=1.0, max_rel_err=0.0),
                "eager": records.ModeResult("eager", "ok", samples_s=[0.02 * slow] * 3, processes=[{"n": 3}])}

    monkeypatch.setattr(rounds, "_run_child", fake_child)
    rec = measure.measure_workload("mlp", "cpu")
    modes = ["default", "max-autotune"]
    turns = [modes, modes[::-1]] * rounds.ROUNDS_NARROW
    assert asked == [(m, "interleaved") for turn in turns[:rounds.ROUNDS_NARROW] for m in turn]  # the order turns
    for mode in modes:
        assert rec.result(mode).speedup == 2.0 and data.speedup_interval(rec.result(mode)) == (2.0, 2.0)
    assert rec.result("eager").status == "ok" and len(rec.result("eager").process_samples()) == rounds.ROUNDS_NARROW
    assert measure.planned_steps(workloads.get("mlp"), ["eager", *modes]) == 3 * 2  # no step for eager's own
    assert measure.default_protocol(["eager", "default", "onnxruntime"]) == "alone"
    assert measure.default_protocol(["eager"]) == "alone"
