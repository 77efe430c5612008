"""Which modes a build measures, and which it keeps: the freshness fallbacks of measure.py
(`_to_complete`, `_merge`), workloads measured only on demand, modes skipped for a missing package,
`migrate` of the old flat layout, and what the CLI answers when there is nothing or the harness fails.

The measurement child is faked (`rounds._run_child`): these tests are about decisions, not timings.
"""
import dataclasses
import json

import pytest

from eager_vs_compiled import cli, machine, measure, rounds, peaks, records, store, workloads
from eager_vs_compiled.records import ModeResult
from helpers import RELEASE, as_steps, cli as run_cli, make_record

OLD_EAGER, OLD_COMPILED = (0.020, 0.021, 0.022), (0.010, 0.010, 0.011)  # what the previous record holds
NEW_EAGER, NEW_COMPILED = (0.040, 0.040, 0.040), (0.008, 0.008, 0.008)  # what the fake child measures


@pytest.fixture
def child(monkeypatch):
    """The measurement child, faked: the (mode, phase) pairs it was asked for, in order."""
    asked = []

    def fake(args, env, timeout):
        mode, phase = args["mode"], args["phase"]
        asked.append((mode, phase))
        eager = ModeResult("eager", "ok", samples_s=list(NEW_EAGER), processes=[{"n": 3, "phase": phase}])
        if mode == "eager":
            return {"eager": eager}
        beside = args["protocol"] == "interleaved"  # eager timed beside the mode, as the real child does
        got = ModeResult(mode, "ok", samples_s=list(NEW_COMPILED), eager_samples_s=list(NEW_EAGER) if beside else [],
                         processes=[{"n": 3, "phase": phase, **({"eager_n": 3} if beside else {})}],
                         first_call_s=2.0 if phase == "time" else None,
                         compile_warm_s=0.5 if phase == "warm" else None, max_abs_err=0.0, max_rel_err=0.0)
        return {mode: got, "eager": eager} if beside else {mode: got}

    monkeypatch.setattr(rounds, "_run_child", fake)
    monkeypatch.setattr(measure, "_ensured", {})
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    monkeypatch.delenv("EVC_BUDGET_S", raising=False)
    return asked


def previous(**changes) -> records.Record:
    """This machine's mlp record (eager, default, max-autotune), with fields changed as given."""
    rec = make_record("mlp", eager=OLD_EAGER, compiled=OLD_COMPILED)
    for name, value in changes.items():
        setattr(rec, name, value)
    return rec


BUDGET_SKIPPED = ModeResult("max-autotune", "skipped", message="time budget: 3 s left, about 40 s needed")


def asked_rounds(*modes: str) -> list[tuple[str, str]]:
    """The processes the harness asks for when every interval is as narrow as can be: ROUNDS_NARROW
    rounds of `modes` (eager first, where it has processes of its own), the order turning by one each
    round; a compiled mode cold, then warm, then from the cache."""
    phase = {0: "time", 1: "warm"}
    out = []
    for rnd in range(rounds.ROUNDS_NARROW):
        for m in modes[rnd % len(modes):] + modes[:rnd % len(modes)]:
            out.append((m, "time" if m == "eager" else phase.get(rnd, "rerun")))
    return out


# --- _to_complete and _merge -----------------------------------------------------------------------
def test_a_mode_skipped_for_the_budget_is_measured_alone_and_the_rest_is_kept(tmp_path, child):
    old = previous()
    old.results[2] = BUDGET_SKIPPED
    store.save(old, tmp_path)
    done = measure.ensure_record("mlp", tmp_path)
    assert child == asked_rounds("max-autotune")  # not default; eager beside it, its baseline in this window
    assert [r.mode for r in done.results] == ["eager", "default", "max-autotune"]
    # default as it was; eager's new processes join the old one (the baseline spans both windows)
    assert done.result("eager").samples_s == list(OLD_EAGER) + list(NEW_EAGER) * rounds.ROUNDS_NARROW
    assert len(done.result("eager").process_samples()) == 1 + rounds.ROUNDS_NARROW
    assert done.result("default").samples_s == list(OLD_COMPILED)
    assert done.result("max-autotune").status == "ok"
    assert done.result("max-autotune").samples_s == list(NEW_COMPILED) * rounds.ROUNDS_NARROW
    assert records.load(store.path_for(tmp_path, machine.describe()["slug"], "mlp", RELEASE)) == done


def test_a_mode_the_record_lacks_is_measured_alone_and_added_after_the_others(tmp_path, child):
    old = previous()
    old.results = [old.results[2], old.results[0]]  # max-autotune, eager: default never measured
    store.save(old, tmp_path)
    done = measure.ensure_record("mlp", tmp_path)
    assert child == asked_rounds("default")
    assert [r.mode for r in done.results] == ["max-autotune", "eager", "default"]  # the previous order, then new
    assert done.result("max-autotune").samples_s == list(OLD_COMPILED)
    assert done.result("eager").samples_s == list(OLD_EAGER) + list(NEW_EAGER) * rounds.ROUNDS_NARROW
    assert done.result("default").samples_s == list(NEW_COMPILED) * rounds.ROUNDS_NARROW


STALE_FOR_ANOTHER_REASON = {
    "machine": {"machine": dict(machine.describe(), fingerprint="0badc0de0badc0de")},  # same slug, other hardware
    "spec": {"spec_hash": "0123456789abcdef"},
    "harness": {"harness_version": measure.HARNESS_VERSION - 1},
    "torch-build": {"versions": dict(machine.versions(), torch=RELEASE + "+another.build")},
}


def test_only_the_unfinished_modes_are_to_complete_and_only_on_a_record_otherwise_fresh():
    w, old = workloads.get("mlp"), previous()
    old.results[2] = BUDGET_SKIPPED
    assert measure._to_complete(old, w, "cpu", None) == ["max-autotune"]
    assert measure._to_complete(old, w, "cpu", ["eager", "default"]) is None  # nothing unfinished of those
    for change in STALE_FOR_ANOTHER_REASON.values():
        assert measure._to_complete(previous(**change, results=old.results), w, "cpu", None) is None, change


@pytest.mark.parametrize("change", ["spec", "harness", "torch-build"])  # another machine: saved over, refused
def test_a_record_stale_for_another_reason_is_measured_whole_even_with_modes_unfinished(tmp_path, child, change):
    old = previous(**STALE_FOR_ANOTHER_REASON[change])
    old.results[2] = BUDGET_SKIPPED
    store.save(old, tmp_path)
    done = measure.ensure_record("mlp", tmp_path)
    assert child == asked_rounds("default", "max-autotune")
    k = rounds.ROUNDS_NARROW
    assert [r.samples_s for r in done.results] == [list(NEW_EAGER) * k, list(NEW_COMPILED) * k, list(NEW_COMPILED) * k]
    assert done.machine == machine.describe() and done.spec_hash == workloads.get("mlp").spec_hash(done.profile)


def test_a_record_with_every_mode_unfinished_is_measured_whole(tmp_path, child):
    old = previous()
    old.results = [dataclasses.replace(BUDGET_SKIPPED, mode=m) for m in ("eager", "default", "max-autotune")]
    store.save(old, tmp_path)
    done = measure.ensure_record("mlp", tmp_path)
    assert child == asked_rounds("default", "max-autotune")
    assert [r.status for r in done.results] == ["ok", "ok", "ok"]


# --- on demand ---------------------------------------------------------------------------------------
ON_DEMAND_CPU = ["resnet50_infer_recipes", "resnet50_infer_recipes_b16"]


def test_workloads_measured_on_demand_join_a_profile_only_when_asked_for():
    w = workloads.get("resnet50_infer_recipes")
    assert w.in_profile("cpu") and not w.scheduled("cpu") and w.scheduled("gpu")
    assert workloads.get("mlp").scheduled("cpu")
    scheduled = [w.name for w in workloads.in_profile("cpu")]
    everything = [w.name for w in workloads.in_profile("cpu", on_demand=True)]
    assert not set(ON_DEMAND_CPU) & set(scheduled) and set(ON_DEMAND_CPU) <= set(everything)
    assert [n for n in everything if n in scheduled] == scheduled  # same order, the on-demand ones added
    assert set(everything) == {n for n, w in workloads.WORKLOADS.items() if "cpu" in w.sizes}


@pytest.mark.parametrize("saved", ["none", "stale"])
def test_on_demand_a_missing_or_stale_record_is_none_and_nothing_is_measured(tmp_path, child, saved):
    if saved == "stale":
        store.save(previous(harness_version=measure.HARNESS_VERSION - 1), tmp_path)
    for force in (False, True):  # not even a forced build measures an on-demand workload
        assert measure.ensure_record("mlp", tmp_path, force=force, measure_missing=False) is None
    assert child == []
    path = store.path_for(tmp_path, machine.describe()["slug"], "mlp", RELEASE)
    assert path.exists() == (saved == "stale")


def test_on_demand_a_fresh_record_is_shown_and_not_remeasured_even_if_forced(tmp_path, child, monkeypatch):
    store.save(previous(), tmp_path)
    monkeypatch.setenv("EVC_REMEASURE", "1")
    got = measure.ensure_record("mlp", tmp_path, measure_missing=False)
    assert child == [] and got.result("eager").samples_s == list(OLD_EAGER)


# --- a missing package ---------------------------------------------------------------------------------
@pytest.fixture
def needs_missing_package(monkeypatch):
    w = dataclasses.replace(workloads.get("mlp"), needs=("evc_no_such_package",))
    monkeypatch.setitem(workloads.WORKLOADS, "mlp", w)
    return w


def test_a_workload_needing_a_missing_package_skips_every_mode_naming_it(child, needs_missing_package):
    why = "needs evc_no_such_package, which is not installed"
    assert needs_missing_package.unavailable() == why
    assert measure._skip(needs_missing_package, "default", None, None) == why
    rec = measure.measure_workload("mlp", "cpu")
    assert child == []
    assert [(r.mode, r.status, r.message) for r in rec.results] == [
        ("eager", "skipped", why), ("default", "skipped", why), ("max-autotune", "skipped", why)]
    assert [r.samples_s for r in rec.results] == [[], [], []]


def test_a_mode_skipped_for_a_missing_package_is_not_retried_while_the_record_is_fresh(tmp_path, child):
    old = previous()
    old.results[2] = ModeResult("max-autotune", "skipped", message="needs onnxruntime, which is not installed")
    store.save(old, tmp_path)
    assert measure.ensure_record("mlp", tmp_path).result("max-autotune").status == "skipped"
    assert child == []


def test_a_workload_with_its_packages_installed_is_available(child):
    assert dataclasses.replace(workloads.get("mlp"), needs=("json",)).unavailable() is None
    assert measure._skip(workloads.get("mlp"), "default", None, None) is None


# --- migrate ---------------------------------------------------------------------------------------------
def test_migrate_moves_the_flat_layout_into_release_folders_unchanged(tmp_path, capsys):
    rec = make_record("mlp", torch_version="2.13.0+cu126").to_json()
    capture = json.dumps({"snippet": "troubleshooting/x.py", "torch": "2.12.1", "output": "Error: x"})
    (tmp_path / "box" / "captures").mkdir(parents=True)
    (tmp_path / "box" / "mlp.json").write_text(rec)
    (tmp_path / "box" / "captures" / "x.json").write_text(capture)
    code, out, err = run_cli(capsys, "migrate", "--out", str(tmp_path))
    assert code == 0 and "2 file(s) moved; nothing was re-measured" in err
    moved_rec, moved_capture = tmp_path / "box" / "torch-2.13.0" / "mlp.json", tmp_path / "box" / "torch-2.12.1" / "captures" / "x.json"
    assert moved_rec.read_text() == rec and moved_capture.read_text() == capture
    assert f"{tmp_path / 'box' / 'mlp.json'} -> {moved_rec}" in out
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "box", "box/torch-2.12.1", "box/torch-2.12.1/captures", "box/torch-2.12.1/captures/x.json",
        "box/torch-2.13.0", "box/torch-2.13.0/mlp.json"]  # the emptied captures/ folder is gone
    assert store.migrate(tmp_path) == []  # a second run has nothing to move


def test_migrate_never_replaces_a_file_and_names_one_it_cannot_date(tmp_path):
    (tmp_path / "box" / "torch-2.13.0").mkdir(parents=True)
    (tmp_path / "box" / "torch-2.13.0" / "mlp.json").write_text("newer")
    (tmp_path / "box" / "mlp.json").write_text(make_record("mlp", torch_version="2.13.0").to_json())
    with pytest.raises(records.RecordError, match=r"torch-2\.13\.0/mlp\.json: already exists"):
        store.migrate(tmp_path)
    assert (tmp_path / "box" / "torch-2.13.0" / "mlp.json").read_text() == "newer"
    assert (tmp_path / "box" / "mlp.json").exists()
    (tmp_path / "box" / "mlp.json").write_text('{"versions": {}}')
    with pytest.raises(records.RecordError, match=r"box/mlp\.json: cannot tell which torch release"):
        store.migrate(tmp_path)


# --- the CLI with nothing to show, or a harness that fails ----------------------------------------------
def test_show_with_no_records_exits_1_saying_how_to_measure(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "show", "mlp", "--out", str(tmp_path))
    assert code == 1
    assert out.strip() == "no records of mlp yet; run: python -m eager_vs_compiled measure -w mlp"


def test_a_record_the_harness_cannot_write_exits_1_without_strict(tmp_path, monkeypatch, capsys):
    def cannot_write(name, *a, **k):
        raise records.RecordWriteError(tmp_path, "Permission denied")

    monkeypatch.setattr(measure, "ensure_steps", as_steps(cannot_write))
    code, _, err = run_cli(capsys, "measure", "-w", "tiny_op", "--out", str(tmp_path))
    assert code == 1 and "cannot write measurement records" in err and "1 mode(s) failed" in err


def test_peaks_that_fail_exit_1_without_strict_and_the_workloads_are_still_measured(tmp_path, monkeypatch, capsys):
    def no_peaks(*a, **k):
        raise RuntimeError("peaks: the matmul probe crashed")

    asked = []
    monkeypatch.setattr(peaks, "ensure", no_peaks)
    monkeypatch.setattr(measure, "ensure_steps", as_steps(lambda name, *a, **k: asked.append(name) or make_record("mlp")))
    code, _, err = run_cli(capsys, "measure", "--out", str(tmp_path))
    assert code == 1 and "error: peaks: the matmul probe crashed" in err
    assert sorted(asked) == sorted(w.name for w in workloads.in_profile(workloads.default_profile()))


def test_a_failed_mode_exits_0_without_strict_and_1_with_it(tmp_path, monkeypatch, capsys):
    def one_timeout(name, *a, **k):
        rec = make_record("mlp")
        rec.results[2] = ModeResult("max-autotune", "timeout", message="no result after 600 s")
        return rec

    monkeypatch.setattr(measure, "ensure_steps", as_steps(one_timeout))
    assert run_cli(capsys, "measure", "-w", "mlp", "--out", str(tmp_path))[0] == 0
    code, _, err = run_cli(capsys, "measure", "-w", "mlp", "--out", str(tmp_path), "--strict")
    assert code == 1 and "1 mode(s) failed" in err
