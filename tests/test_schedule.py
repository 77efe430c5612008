"""The schedule of a measurement run: the workloads' rounds interleaved (schedule.interleave), one
workload after another under a budget, and the stop rule's minimum of rounds (rounds.ROUNDS_NARROW).

The measurement child is faked (`rounds._run_child`): these tests are about the order of processes.
"""
import pytest

from eager_vs_compiled import measure, records, rounds, schedule
from eager_vs_compiled.records import ModeResult
from helpers import cli as run_cli


def ticker(name, log, n, fail=None):
    """A generator of n steps that logs each and returns its name; raises `fail` at its second step."""
    for i in range(n):
        if fail is not None and i == 1:
            raise fail
        log.append((name, i))
        yield
    return name.upper()


def test_interleave_runs_a_step_of_each_in_turn_the_order_turning_each_pass():
    log = []
    got = list(schedule.interleave({"a": ticker("a", log, 2), "b": ticker("b", log, 3), "c": ticker("c", log, 1)}))
    # pass 1: a b c; pass 2 turns by one: b c(done) a; pass 3: the two left, turned by two: b
    assert log == [("a", 0), ("b", 0), ("c", 0), ("b", 1), ("a", 1), ("b", 2)]
    assert got == [("c", "C", None), ("a", "A", None), ("b", "B", None)]


def test_apart_each_runs_to_its_end_before_the_next_starts():
    log = []
    got = list(schedule.interleave({"a": ticker("a", log, 2), "b": ticker("b", log, 2)}, together=False))
    assert log == [("a", 0), ("a", 1), ("b", 0), ("b", 1)]
    assert [name for name, _, _ in got] == ["a", "b"]


def test_an_expected_error_stops_its_own_generator_only_and_another_stops_them_all():
    log = []
    bad = records.RecordError("x.json", "unreadable")
    got = list(schedule.interleave({"a": ticker("a", log, 3, fail=bad), "b": ticker("b", log, 3)}, records.RecordError))
    assert got[0] == ("a", None, bad) and got[1] == ("b", "B", None)
    assert log == [("a", 0), ("b", 0), ("b", 1), ("b", 2)]
    left = ticker("b", [], 3)
    with pytest.raises(ValueError):
        list(schedule.interleave({"a": ticker("a", [], 3, fail=ValueError("boom")), "b": left}, records.RecordError))
    with pytest.raises(StopIteration):  # the other one was closed on the way out
        next(left)


def test_generators_left_when_the_caller_stops_are_closed():
    closed = []

    def held(name):
        try:
            while True:
                yield
        finally:
            closed.append(name)  # a measurement's temporary folder goes here

    it = schedule.interleave({"a": held("a"), "done": ticker("done", [], 1), "b": held("b")})
    assert next(it)[0] == "done"
    it.close()
    assert sorted(closed) == ["a", "b"]


@pytest.fixture
def child(monkeypatch):
    """The measurement child, faked: (workload, mode, phase) of every process, in order; every process
    of a mode measures the same times, so every interval is as narrow as can be."""
    asked = []

    def fake(args, env, timeout):
        asked.append((args["workload"], args["mode"], args["phase"]))
        procs = [{"n": 3, "phase": args["phase"], "eager_n": 3}]
        got = ModeResult(args["mode"], "ok", samples_s=[0.004] * 3, eager_samples_s=[0.010] * 3, processes=procs,
                         first_call_s=2.0 if args["phase"] == "time" else None, max_abs_err=0.0, max_rel_err=0.0)
        return {args["mode"]: got, "eager": ModeResult("eager", "ok", samples_s=[0.010] * 3, processes=procs)}

    monkeypatch.setattr(rounds, "_run_child", fake)
    monkeypatch.setattr(measure, "_ensured", {})
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    monkeypatch.delenv("EVC_BUDGET_S", raising=False)
    return asked


def test_narrow_processes_still_run_rounds_narrow_rounds(child):
    rec = measure.measure_workload("tiny_op", "cpu")
    assert len(rec.result("default").processes) == rounds.ROUNDS_NARROW > rounds.ROUNDS_MIN
    assert [phase for _, _, phase in child] == ["time", "warm"] + ["rerun"] * (rounds.ROUNDS_NARROW - 2)


def test_measure_interleaves_the_workloads_rounds_and_a_budget_runs_them_one_after_another(child, tmp_path, capsys):
    code, out, err = run_cli(capsys, "measure", "--workload", "tiny_op", "--workload", "pointwise_08", "--mode", "default",
                             "--out", str(tmp_path / "together"))
    assert code == 0, err
    order = [w for w, _, _ in child]
    assert order[:4] == ["tiny_op", "pointwise_08", "pointwise_08", "tiny_op"], order  # the order turns each pass
    assert order.count("tiny_op") == order.count("pointwise_08") == rounds.ROUNDS_NARROW
    child.clear()
    code, out, err = run_cli(capsys, "measure", "--workload", "tiny_op", "--workload", "pointwise_08", "--mode", "default",
                             "--out", str(tmp_path / "apart"), "--budget", "3600")
    assert code == 0, err
    order = [w for w, _, _ in child]
    assert order == ["tiny_op"] * rounds.ROUNDS_NARROW + ["pointwise_08"] * rounds.ROUNDS_NARROW, order


def test_the_run_s_aim_ends_the_rounds_beyond_the_minimum_never_the_minimum(child):
    said = []
    rec = measure.measure_workload("tiny_op", "cpu", progress=said.append, aim=0.0)  # long passed
    assert len(rec.result("default").processes) == rounds.ROUNDS_MIN < rounds.ROUNDS_NARROW
    assert f"tiny_op: {rounds.ROUNDS_MIN} rounds (the run's time aim for rounds beyond {rounds.ROUNDS_MIN} is reached)" in said
    rec = measure.measure_workload("tiny_op", "cpu", aim=float("inf"))
    assert len(rec.result("default").processes) == rounds.ROUNDS_NARROW


def test_workloads_share_the_aim_and_no_round_beyond_the_minimum_ends_after_it(monkeypatch):
    """Two workloads whose processes never agree, each process 10 s of a fake clock, the aim at 95 s:
    three rounds of each (60 s), then rounds while they end by 95 s: the fourth of each (80 s) and the
    fifth of the one first in that pass; the other's fifth would end at 100 s."""
    import types

    clock, asked = [0.0], []
    monkeypatch.setattr(rounds, "time", types.SimpleNamespace(perf_counter=lambda: clock[0], monotonic=lambda: clock[0]))

    def fake(args, env, timeout):
        asked.append(args["workload"])
        clock[0] += 10.0
        wobble = 1.0 + (0.08 if asked.count(args["workload"]) % 2 else -0.08)
        procs = [{"n": 3, "eager_n": 3}]
        got = ModeResult(args["mode"], "ok", samples_s=[0.005 * wobble] * 3, eager_samples_s=[0.010] * 3,
                         processes=procs, first_call_s=2.0, max_abs_err=0.0, max_rel_err=0.0)
        return {args["mode"]: got, "eager": ModeResult("eager", "ok", samples_s=[0.010] * 3, processes=procs)}

    monkeypatch.setattr(rounds, "_run_child", fake)
    said = []
    steps = {n: measure.workload_steps(n, "cpu", ["eager", "default"], progress=said.append, aim=95.0)
             for n in ("tiny_op", "pointwise_08")}
    got = {name: rec for name, rec, _ in schedule.interleave(steps)}
    assert clock[0] <= 95.0
    assert sorted(len(got[n].result("default").processes) for n in ("tiny_op", "pointwise_08")) == [4, 5]
    assert sum("time aim" in s for s in said) == 2


@pytest.mark.parametrize("value, seconds", [("", 1020.0), ("600", 600.0), ("0", 0.0), (" 90.5 ", 90.5), ("inf", float("inf"))])
def test_the_aim_is_the_default_or_evc_aim_s(monkeypatch, value, seconds):
    monkeypatch.setenv(schedule.AIM_ENV, value)
    monkeypatch.setattr(schedule, "time", type("T", (), {"monotonic": staticmethod(lambda: 100.0)}))
    assert schedule.aim(1020.0) == 100.0 + seconds and schedule.aim_seconds(1020.0) == seconds


@pytest.mark.parametrize("value", ["soon", "-1", "nan", "10 min"])
def test_a_bad_evc_aim_s_is_refused_by_name_before_anything_is_measured(child, monkeypatch, capsys, tmp_path, value):
    monkeypatch.setenv(schedule.AIM_ENV, value)
    with pytest.raises(schedule.SettingError, match=f"EVC_AIM_S must be a number of seconds, 0 or more, not '{value}'"):
        schedule.aim(1020.0)
    with pytest.raises(schedule.SettingError, match="EVC_AIM_S"):
        schedule.aim_seconds(0.0)
    code, out, err = run_cli(capsys, "measure", "--workload", "tiny_op", "--out", str(tmp_path))
    assert code == 2 and f"error: EVC_AIM_S must be a number of seconds, 0 or more, not '{value}'" in err, err
    assert child == []


def test_measure_and_calibrate_give_each_run_the_aim(child, monkeypatch, tmp_path, capsys):
    from eager_vs_compiled import calibrate

    monkeypatch.setenv(schedule.AIM_ENV, "0")
    code, out, err = run_cli(capsys, "measure", "--workload", "tiny_op", "--workload", "pointwise_08", "--mode", "default",
                             "--out", str(tmp_path / "m"))
    assert code == 0, err
    assert [w for w, _, _ in child].count("tiny_op") == rounds.ROUNDS_MIN
    child.clear()
    calibrate.run(["tiny_op"], 2, tmp_path / "c", lambda s: None)
    assert len(child) == 2 * rounds.ROUNDS_MIN  # each run its own aim, each its minimum


@pytest.mark.parametrize("name, value", [(schedule.AIM_ENV, "soon"), ("EVC_BUDGET_S", "an hour")])
def test_the_site_s_prepare_step_refuses_a_bad_setting_by_name_before_measuring(child, monkeypatch, capsys, tmp_path,
                                                                              name, value):
    monkeypatch.setenv(name, value)
    monkeypatch.setattr(measure, "_deadline", None)
    code, out, err = run_cli(capsys, "prepare", "--out", str(tmp_path))
    assert code == 2 and f"error: {name} must be a number of seconds" in err and value in err, err
    assert child == [] and not any(tmp_path.iterdir())
