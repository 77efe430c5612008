"""The run-to-run term (reruns.py): estimated from calibration runs, found for a machine, written into
the records `measure` makes, added to every interval, and aimed at by the stop rule."""
import json
import math
import statistics
import types
from pathlib import Path

import pytest

from eager_vs_compiled import data, experiments, measure, records, reruns, rounds, stats, store
from eager_vs_compiled.records import ModeResult
from helpers import make_record
from test_schedule import child  # noqa: F401 (the faked measurement child)


def run_record(ratios, eager_s=0.010, n=3):
    """A record of mlp whose `default` mode ran beside eager in one process per ratio: eager's samples all
    eager_s, the mode's eager_s / ratio (every process's log ratio exactly log(ratio))."""
    rec = make_record("mlp")
    e = [eager_s] * (n * len(ratios))
    c = [eager_s / r for r in ratios for _ in range(n)]
    procs = [{"n": n, "eager_n": n} for _ in ratios]
    rec.results = [ModeResult("eager", "ok", samples_s=list(e)),
                   ModeResult("default", "ok", samples_s=c, eager_samples_s=e, processes=procs)]
    return rec.finish()


def test_the_term_is_the_spread_of_the_runs_beyond_what_their_processes_predict():
    # three runs; in each the processes agree exactly (W = 0), so all of the runs' spread is the term
    runs = {"mlp": [run_record([2.0] * 4), run_record([2.0 * math.exp(0.01)] * 4), run_record([2.0 * math.exp(-0.01)] * 4)]}
    term = reruns.estimate(runs, "here")
    assert term == reruns.Term(pytest.approx(0.01), 1, 3, "here", own=(("mlp", "default", pytest.approx(0.01)),))
    # processes that differ as much as the runs do: nothing is left for the term (floored at zero)
    wide = [2.0 * math.exp(d) for d in (-0.05, 0.05, -0.05, 0.05)]
    assert reruns.estimate({"mlp": [run_record(wide), run_record(wide[::-1])]}).sd == 0.0
    # pooled over workloads and modes, each weighted by its runs - 1, in variance
    parts = reruns.components(runs)
    assert parts == [("mlp", "default", 3, pytest.approx(1e-4), 0.0)]


def _runs(centres, name="mlp"):
    out = [run_record([c] * 4) for c in centres]
    for rec in out:
        rec.workload = name
    return out


@pytest.mark.parametrize("k", [3, 9, 25])
def test_each_workload_mode_gets_a_term_of_its_own_between_its_runs_and_the_machine_s(k):
    """tiny_op's runs differ by 2 % (log sd), mlp's not at all (processes agree exactly: W = 0): the pool
    weighs each by its runs - 1; each one's own term weighs its runs - 1 against PRIOR_RUNS of the pool's."""
    wobble = [0.02 * (1 if i % 2 else -1) for i in range(k)]
    runs = {"tiny_op": _runs([0.5 * math.exp(d) for d in wobble], "tiny_op"), "mlp": _runs([2.0] * k)}
    b = statistics.variance(wobble)
    term = reruns.estimate(runs, "here")
    pooled = (k - 1) * b / (2 * (k - 1))
    assert term.sd == pytest.approx(math.sqrt(pooled))
    own_tiny = math.sqrt(((k - 1) * b + reruns.PRIOR_RUNS * pooled) / (k - 1 + reruns.PRIOR_RUNS))
    own_mlp = math.sqrt(reruns.PRIOR_RUNS * pooled / (k - 1 + reruns.PRIOR_RUNS))
    assert term.of("tiny_op", "default") == pytest.approx(own_tiny)
    assert term.of("mlp", "default") == pytest.approx(own_mlp)
    # between the machine's and its own runs', nearer its own the more runs it has
    assert own_mlp < term.sd < own_tiny < math.sqrt(b)
    assert term.of("resnet50_infer_fp32", "default") == term.sd == term.of("mlp", "max-autotune")  # not calibrated
    said = reruns.describe(term, "mlp", ["eager", "default", "max-autotune"])
    assert f"default ±{own_mlp:.2%} (its own), max-autotune ±{term.sd:.2%} (the machine's)" in said
    assert f"term ±{term.sd:.2%} (from here" in reruns.describe(term)


def test_a_workload_whose_processes_say_more_than_its_runs_gets_no_negative_term():
    wide = [2.0 * math.exp(d) for d in (-0.05, 0.05, -0.05, 0.05)]
    runs = {"mlp": [run_record(wide), run_record(wide[::-1])]}
    term = reruns.estimate(runs)
    assert term.sd == 0.0 and term.of("mlp", "default") == 0.0


def test_no_calibration_no_term():
    assert reruns.estimate({}) is reruns.NONE
    assert reruns.estimate({"mlp": [run_record([2.0, 2.1])]}) is reruns.NONE  # one run: no spread between runs


def test_a_paired_interval_adds_the_term_in_quadrature():
    e = [[0.010] * 3 for _ in range(5)]
    c = [[0.005] * 3 for _ in range(5)]  # processes agree exactly: without the term, no width at all
    assert set(stats.paired_speedups(e, c, stats.seeded_rng("t"))) == {2.0}
    lo, hi = stats.percentile_interval(stats.paired_speedups(e, c, stats.seeded_rng("t"), run_sd=0.01))
    t = stats.t_quantile(0.975, 4)
    assert math.log(hi / 2.0) == pytest.approx(t * 0.01, rel=0.02) == pytest.approx(-math.log(lo / 2.0), rel=0.02)


def test_an_apart_interval_adds_the_term_too():
    e, c = [[0.010] * 3 for _ in range(4)], [[0.005] * 3 for _ in range(4)]
    assert set(stats.boot_process_speedups(e, c, stats.seeded_rng("a"), 400)) == {2.0}
    lo, hi = stats.percentile_interval(stats.boot_process_speedups(e, c, stats.seeded_rng("a"), 400, run_sd=0.01))
    assert math.log(hi / 2.0) == pytest.approx(1.96 * 0.01, rel=0.03) == pytest.approx(-math.log(lo / 2.0), rel=0.03)


def test_the_record_carries_the_term_and_every_interval_uses_it():
    rec = run_record([2.0] * 5)
    r = rec.result("default")
    assert data.speedup_interval(r) == (2.0, 2.0)
    r.run_sd = 0.01
    lo, hi = data.speedup_interval(r)
    assert lo < 2.0 < hi and stats.relative_half_width(2.0, lo, hi) == pytest.approx(
        math.sinh(stats.t_quantile(0.975, 4) * 0.01), rel=0.02)
    assert rounds.half_width(None, r) == pytest.approx(stats.relative_half_width(2.0, lo, hi), rel=0.05)


def test_a_record_with_the_term_round_trips_and_a_negative_one_is_refused(tmp_path):
    rec = run_record([2.0] * 3)
    rec.result("default").run_sd = 0.004
    path = tmp_path / "mlp.json"
    path.write_text(rec.to_json())
    assert records.load(path).result("default").run_sd == 0.004
    raw = json.loads(rec.to_json())
    raw["results"][1]["run_sd"] = -0.1
    path.write_text(json.dumps(raw))
    with pytest.raises(records.RecordError, match="run_sd: -0.1 is not a finite number >= 0"):
        records.load(path)
    raw["results"][1].pop("run_sd")
    raw["schema"] = 3  # a record of schema 3 has no term: read as it is, its interval its processes' only
    path.write_text(json.dumps(raw))
    assert records.load(path).result("default").run_sd is None


def _calibration(root, slug, rel, spread):
    runs = [run_record([2.0 * math.exp(d)] * 4) for d in (-spread, 0.0, spread)]
    for i, rec in enumerate(runs, 1):
        folder = store.release_dir(root, slug, rel) / experiments.CALIBRATION / f"run-{i}"
        folder.mkdir(parents=True)
        (folder / "mlp.json").write_text(rec.to_json())


def test_a_machine_finds_its_own_calibration_the_same_release_first(tmp_path, monkeypatch):
    monkeypatch.setattr(reruns, "roots", lambda: [tmp_path / "mine", tmp_path / "committed"])
    reruns._for_machine.cache_clear()
    _calibration(tmp_path / "committed", "box", "2.14.1", 0.02)
    assert reruns.for_machine("box", "2.15.0").sd == pytest.approx(0.02)  # another release: the machine's
    _calibration(tmp_path / "committed", "box", "2.15.0", 0.01)
    reruns._for_machine.cache_clear()
    assert reruns.for_machine("box", "2.15.0").sd == pytest.approx(0.01)
    _calibration(tmp_path / "mine", "box", "2.15.0", 0.005)  # the rebuilder's own store comes first
    reruns._for_machine.cache_clear()
    term = reruns.for_machine("box", "2.15.0")
    assert term.sd == pytest.approx(0.005) and term.source.startswith(str(tmp_path / "mine"))
    assert reruns.for_machine("other", "2.15.0") is reruns.NONE
    assert "no calibration of this machine" in reruns.describe(reruns.NONE)
    assert "±0.50%" in reruns.describe(term)
    bad = store.release_dir(tmp_path / "mine", "box", "2.15.0") / experiments.CALIBRATION / "run-1" / "mlp.json"
    bad.write_text("{")
    reruns._for_machine.cache_clear()
    with pytest.raises(records.RecordError, match="run-1/mlp.json"):
        reruns.for_machine("box", "2.15.0")
    reruns._for_machine.cache_clear()


@pytest.mark.parametrize("sd", [0.0, 0.008, 0.015])
def test_measure_writes_the_term_and_the_stop_rule_aims_at_the_interval_with_it(child, monkeypatch, sd):  # noqa: F811
    other = reruns.Term(0.001, 2, 3, "there", own=(("tiny_op", "default", sd), ("mlp", "default", 0.0)))
    monkeypatch.setattr(reruns, "here", lambda: other)
    rec = measure.measure_workload("tiny_op", "cpu")
    k = len(rec.result("default").processes)
    assert rec.result("default").run_sd == sd and rec.result("eager").run_sd is None  # its own, not the pool's
    # processes that agree exactly: the width is the term's alone, t(k - 1) * sd, narrow enough at
    # ROUNDS_NARROW without it; with it, the first k whose t quantile brings it under the target; a term
    # too wide for the target (1.5 %: t * sd > 2 % at any k) stops near its own width, not at ROUNDS_MAX
    need = next(k for k in range(rounds.ROUNDS_NARROW, rounds.ROUNDS_MAX + 1)
                if math.sinh(stats.t_quantile(0.975, k - 1) * sd) <= rounds.target(sd))
    assert k == need and (k > rounds.ROUNDS_NARROW) == (sd > 0) and k < rounds.ROUNDS_MAX
    assert (rounds.target(sd) > rounds.TARGET_HALF_WIDTH) == (sd == 0.015)
    assert (1.96 * sd > rounds.TARGET_HALF_WIDTH) == (sd == 0.015)
    lo, hi = data.speedup_interval(rec.result("default"))
    assert (hi / lo > 1.0) == (sd > 0)


def test_a_machine_without_calibration_says_so_while_measuring(child, monkeypatch):  # noqa: F811
    said = []
    monkeypatch.setattr(reruns, "here", lambda: reruns.NONE)
    rec = measure.measure_workload("tiny_op", "cpu", progress=said.append)
    assert rec.result("default").run_sd is None
    assert any("no calibration of this machine found" in s for s in said)


def test_here_is_the_term_of_this_machine_and_its_torch_release(tmp_path, monkeypatch):
    from eager_vs_compiled import machine
    from helpers import RELEASE

    monkeypatch.setattr(reruns, "roots", lambda: [tmp_path])
    reruns._for_machine.cache_clear()
    assert reruns.here() is reruns.NONE
    _calibration(tmp_path, machine.describe()["slug"], RELEASE, 0.01)
    reruns._for_machine.cache_clear()
    assert reruns.here().sd == pytest.approx(0.01)
    reruns._for_machine.cache_clear()


@pytest.mark.parametrize("run_sd", [0.0, 0.004])
def test_the_stop_rule_reads_the_very_interval_the_pages_show(run_sd):
    """Beside eager, the stop rule's half-width is the pages' own, not a hair narrower: a mode stopped
    at the target must not be shown over it (the calibration counts such an interval as padded)."""
    ratios = [2.0, 2.04, 1.97, 2.02, 1.99, 2.01]
    r = run_record(ratios).result("default")
    r.run_sd = run_sd or None
    assert rounds.half_width(None, r) == stats.relative_half_width(r.speedup, *data.speedup_interval(r))


def _session(folder, centres, harness=None):
    for i, c in enumerate(centres, 1):
        rec = run_record([c * math.exp(d) for d in (-0.01, 0.01, -0.01, 0.01)])
        if harness is not None:
            rec.harness_version = harness
        rec.date = f"2026-12-0{i}T10:00:00+00:00"
        (folder / f"run-{i}").mkdir(parents=True)
        (folder / f"run-{i}" / "mlp.json").write_text(rec.to_json())


def test_every_session_of_the_harness_counts_as_one_set_of_runs(tmp_path):
    rel = tmp_path / "box" / "torch-2.15.0"
    _session(rel / experiments.CALIBRATION, [2.0, 2.0, 2.0])
    alone, _ = reruns.pooled(rel)
    assert alone.sd == 0.0 and alone.sessions == 1  # the runs agree within what their processes predict
    _session(rel / "calibration-2026-12-01-1000", [2.2, 2.2, 2.2])  # a session of another hour sat higher
    term, runs = reruns.pooled(rel)
    assert term.sessions == 2 and term.runs == 6 and len(runs["mlp"]) == 6 and term.sd > 0.03
    _session(rel / "calibration-2026-11-01-1000", [3.0, 3.0, 3.0], harness=1)  # another harness: left out
    _session(rel / "calibration-harness1-apart", [3.0, 3.0, 3.0])  # history, not a session: left out
    assert reruns.pooled(rel)[0] == term


def _two_workloads(folder, tiny, mlp):
    """A session: tiny_op's runs at the speedups `tiny`, mlp's at `mlp`, processes within ±1 %."""
    for i, (t, m) in enumerate(zip(tiny, mlp), 1):
        (folder / f"run-{i}").mkdir(parents=True)
        for name, c in (("tiny_op", t), ("mlp", m)):
            rec = run_record([c * math.exp(d) for d in (-0.01, 0.01, -0.01, 0.01)])
            rec.workload, rec.date = name, f"2026-12-0{i}T10:00:00+00:00"
            (folder / f"run-{i}" / f"{name}.json").write_text(rec.to_json())


def test_each_session_is_judged_with_the_terms_of_the_others_only(tmp_path):
    """Three sessions: tiny_op's runs differ by 3 % in each, mlp's agree. Judged with the others' terms,
    each one's own widens tiny_op's intervals and narrows mlp's against the machine's; the session
    whose runs differ most is not judged with a term its own spread made."""
    rel = tmp_path / "box" / "torch-2.15.0"
    _two_workloads(rel / experiments.CALIBRATION, [0.50, 0.515, 0.50, 0.515], [1.0] * 4)
    _two_workloads(rel / "calibration-2026-12-01-1000", [0.45, 0.4635, 0.45, 0.4635], [1.0] * 4)
    _two_workloads(rel / "calibration-2026-11-01-1000", [0.45, 0.4635, 0.45, 0.4635], [1.0] * 4)
    own, pooled = reruns.judged(rel), reruns.judged(rel, own=False)
    assert [f.name for f, _ in own] == [f.name for f, _ in pooled] == [
        "calibration", "calibration-2026-12-01-1000", "calibration-2026-11-01-1000"]
    for (_, mine), (_, shared) in zip(own, pooled):
        width = {(r.workload, s): r.half_width for s, rows in (("own", mine), ("pooled", shared)) for r in rows}
        assert width["tiny_op", "own"] > width["tiny_op", "pooled"]
        assert width["mlp", "own"] < width["mlp", "pooled"]
        assert sum(r.pairs for r in mine) == 2 * 12
    # out of sample: a session whose runs scatter widely, beside two whose runs agree, is judged with the
    # term of those two (none: their runs differ by less than their processes predict), not its own
    rel = tmp_path / "other" / "torch-2.15.0"
    _two_workloads(rel / experiments.CALIBRATION, [0.40, 0.50, 0.40, 0.50], [1.0] * 4)
    _two_workloads(rel / "calibration-2026-12-01-1000", [0.5] * 4, [1.0] * 4)
    _two_workloads(rel / "calibration-2026-11-01-1000", [0.5] * 4, [1.0] * 4)
    assert reruns.pooled(rel)[0].sd > 0.05  # in sample, its spread would make the term
    rec = reruns.sessions(rel)[0][1]["tiny_op"][0]
    alone = stats.relative_half_width(*data.speedup(rec, "default"))  # its processes only
    assert rec.result("default").run_sd is None and alone > 0
    assert {r.workload: r for r in reruns.judged(rel)[0][1]}["tiny_op"].half_width == pytest.approx(alone)
    assert reruns.judged(tmp_path / "nowhere") == []


def test_a_new_session_keeps_the_one_before_beside_it_named_by_its_date(tmp_path):
    folder = tmp_path / experiments.CALIBRATION
    assert reruns.keep_session(folder) is None  # nothing to keep
    _session(folder, [2.0, 2.0])
    kept = reruns.keep_session(folder)
    assert kept.name == "calibration-2026-12-01-1000" and not folder.exists() and (kept / "run-2").is_dir()
    _session(folder, [2.0, 2.0])
    assert reruns.keep_session(folder).name == "calibration-2026-12-01-1000-1"  # never over another


def test_calibrate_keeps_the_earlier_session_and_its_term_counts(tmp_path, monkeypatch):
    from eager_vs_compiled import calibrate, machine
    from helpers import RELEASE, as_steps

    slug = machine.describe()["slug"]
    rel = store.release_dir(tmp_path, slug, RELEASE)
    _session(rel / experiments.CALIBRATION, [2.0, 2.0])
    monkeypatch.setattr(measure, "workload_steps", as_steps(lambda name, *a, **k: run_record([2.0, 2.0, 2.0])))
    said = []
    calibrate.run(["mlp"], 2, tmp_path, said.append)
    assert (rel / "calibration-2026-12-01-1000" / "run-1" / "mlp.json").is_file()
    assert (rel / experiments.CALIBRATION / "run-2" / "mlp.json").is_file()
    assert any("kept as" in s for s in said) and reruns.pooled(rel)[0].sessions == 2


def test_after_rounds_narrow_only_the_modes_still_wide_get_more_rounds(monkeypatch):  # noqa: F811
    """mlp: `default`'s processes agree exactly, `max-autotune`'s differ by a few percent: from round
    ROUNDS_NARROW on, only max-autotune runs, until its interval is narrow or the budget is spent."""
    asked = []

    def fake(args, env, timeout):
        mode = args["mode"]
        asked.append(mode)
        wobble = 1.0 + (0.03 if asked.count(mode) % 2 else -0.03) * (mode == "max-autotune")
        procs = [{"n": 3, "eager_n": 3, "wall_s": 0.1}]
        got = ModeResult(mode, "ok", samples_s=[0.005 * wobble] * 3, eager_samples_s=[0.010] * 3, processes=procs,
                         first_call_s=2.0, max_abs_err=0.0, max_rel_err=0.0)
        return {mode: got, "eager": ModeResult("eager", "ok", samples_s=[0.010] * 3, processes=procs)}

    monkeypatch.setattr(rounds, "_run_child", fake)
    monkeypatch.setattr(measure, "_ensured", {})
    rec = measure.measure_workload("mlp", "cpu")
    assert len(rec.result("default").processes) == rounds.ROUNDS_NARROW
    assert len(rec.result("max-autotune").processes) > rounds.ROUNDS_NARROW
    assert asked[2 * rounds.ROUNDS_NARROW:] == ["max-autotune"] * (len(asked) - 2 * rounds.ROUNDS_NARROW)


def test_the_provenance_line_names_the_term_or_the_range_of_the_terms():
    from eager_vs_compiled.pages import provenance

    rec = run_record([2.0] * 3)
    tune = ModeResult("max-autotune", "ok", samples_s=list(rec.result("default").samples_s),
                      eager_samples_s=list(rec.result("default").eager_samples_s), processes=rec.result("default").processes)
    rec.results = [rec.result("default"), tune]  # both timed beside eager, three processes each
    rec.result("default").run_sd, tune.run_sd = 0.0052, 0.0049
    assert provenance.protocol_words(rec).endswith("intervals with the run-to-run terms ±0.49% to ±0.52%")
    tune.run_sd = 0.00521  # the same at the precision shown: one term
    assert provenance.protocol_words(rec).endswith("intervals with the run-to-run term ±0.52%")
    rec.result("default").run_sd = tune.run_sd = None
    assert "run-to-run" not in provenance.protocol_words(rec)


@pytest.mark.parametrize("point", [1.005, 0.995, 1.02, 0.98])
def test_the_words_follow_the_interval_with_the_term_on_both_sides(point):
    """Five processes that agree exactly: without the term any speedup off parity is a difference; with
    a term of 0.4 %, t(4) * 0.4 % is about 1.1 %: half a percent is no longer one, two percent still is."""
    from eager_vs_compiled.pages import provenance

    r = run_record([point] * 5).result("default")
    assert provenance.direction(r) == ("faster" if point > 1 else "slower")
    r.run_sd = 0.004
    far = abs(math.log(point)) > stats.t_quantile(0.975, 4) * 0.004
    expected = ("faster" if point > 1 else "slower") if far else "no measurable difference"
    assert provenance.direction(r) == expected
    assert far == (abs(point - 1) > 0.01)


def test_each_wide_mode_spends_a_budget_of_its_own(monkeypatch):  # noqa: F811
    """Two modes whose processes never agree, default's processes 10 s of a fake clock, max-autotune's
    20 s: each gets its budget's worth of extra rounds for itself (a budget shared by the workload would
    give each a third as many or fewer), and the one that stops first is said so once."""
    clock = [0.0]
    monkeypatch.setattr(rounds, "time", types.SimpleNamespace(perf_counter=lambda: clock[0],
                                                              monotonic=lambda: clock[0]))
    asked = []

    def fake(args, env, timeout):
        mode = args["mode"]
        asked.append(mode)
        clock[0] += 10.0 if mode == "default" else 20.0
        wobble = 1.0 + (0.08 if asked.count(mode) % 2 else -0.08)
        procs = [{"n": 3, "eager_n": 3}]
        got = ModeResult(mode, "ok", samples_s=[0.005 * wobble] * 3, eager_samples_s=[0.010] * 3, processes=procs,
                         first_call_s=2.0, max_abs_err=0.0, max_rel_err=0.0)
        return {mode: got, "eager": ModeResult("eager", "ok", samples_s=[0.010] * 3, processes=procs)}

    monkeypatch.setattr(rounds, "_run_child", fake)
    monkeypatch.setattr(measure, "_ensured", {})
    said = []
    rec = measure.measure_workload("mlp", "cpu", progress=said.append)
    for mode, cost in (("default", 10.0), ("max-autotune", 20.0)):
        extra = min(int(rounds.EXTRA_BUDGET_S["cpu"] // cost), rounds.ROUNDS_MAX - rounds.ROUNDS_MIN)
        assert len(rec.result(mode).processes) == rounds.ROUNDS_MIN + extra
        assert sum(f"mlp · {mode}: {rounds.ROUNDS_MIN + extra} rounds (its budget" in s for s in said) == 1
    assert sum("its budget for more is spent" in s for s in said) == 2  # once per mode, not every round after


def test_eager_processes_of_their_own_cost_each_wide_mode_a_share():
    def mode(name, last_s, n=4):
        return types.SimpleNamespace(mode=name, result=types.SimpleNamespace(processes=[{"wall_s": last_s}] * n))

    eager, a, b = mode("eager", 10.0), mode("a", 5.0), mode("b", 5.0)
    assert rounds._affordable([eager, a, b], {"a": 79.0, "b": 81.0}, 90.0) == [eager, a]  # 79 + 5 + 10/2
    assert rounds._affordable([eager, a, b], {"a": 81.0, "b": 81.0}, 90.0) == []
    assert rounds._affordable([a, b], {"a": 85.0, "b": 86.0}, 90.0) == [a]


def test_from_ten_processes_one_far_off_moves_the_interval_as_it_moves_the_median():
    """Yuen's trimmed mean: below ten processes the plain mean and s^2 / k; from ten on, the lowest and
    highest tenth left out, the error from the Winsorized variance, t at h - 1 (h kept)."""
    logs = [0.01, -0.01, 0.02, -0.02, 0.0]
    centre, var, df = stats.trimmed_location(logs)
    assert (centre, df) == (pytest.approx(0.0), 4) and var == pytest.approx(statistics.variance(logs) / 5)
    logs = [0.01 * (-1) ** i * (i % 3) for i in range(14)] + [0.15]  # fifteen, one far off (the MLP's: 12 %)
    centre, var, df = stats.trimmed_location(logs)
    xs = sorted(logs)
    wins = [xs[1]] + xs[1:14] + [xs[13]]
    assert centre == pytest.approx(statistics.fmean(xs[1:14])) and df == 12
    assert var == pytest.approx(statistics.variance(wins) * 14 / (13 * 12))
    plain = stats.t_quantile(0.975, 14) * math.sqrt(statistics.variance(logs) / 15)  # the plain mean's t
    r = run_record([math.exp(x) for x in logs]).result("default")
    assert rounds.half_width(None, r) < rounds.TARGET_HALF_WIDTH < plain


def test_the_pages_words_for_the_trimming_are_the_code_s():
    """The methodology page says in words what stats.TRIM is: "from ten processes on ... the lowest and
    the highest tenth" (the settings line renders the constant itself)."""
    assert round(1 / stats.TRIM) == 10 and int(stats.TRIM * 9) == 0 and int(stats.TRIM * 10) == 1
    page = (Path(__file__).parents[1] / "docs" / "benchmarks" / "methodology.md").read_text(encoding="utf-8")
    assert "From ten processes on" in page and "highest tenth" in page


@pytest.mark.parametrize("ratios, words", [
    ((2.0, 1.9, 1.8, 1.7), "the slower its eager calls, the lower its speedup"),
    ((1.7, 1.8, 1.9, 2.0), "the slower its eager calls, the higher its speedup"),
    ((2.0, 1.8, 1.8, 2.0), "no relation these runs can tell from chance"),
])
def test_what_moves_a_whole_run_is_said_as_the_runs_correlate(tmp_path, monkeypatch, ratios, words):
    """Four calibration runs, eager 10 to 13 ms a call: the sentence follows the correlation of log eager
    time and log speedup, and says nothing where t at n - 2 degrees of freedom does not tell it from chance."""
    from eager_vs_compiled import machine
    from eager_vs_compiled.pages import methodology

    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    rel = store.release_dir(tmp_path, machine.describe()["slug"], store.release(machine.versions()["torch"]))
    for i, (eager, ratio) in enumerate(zip((0.010, 0.011, 0.012, 0.013), ratios), 1):
        folder = rel / experiments.CALIBRATION / f"run-{i}"
        folder.mkdir(parents=True)
        (folder / "mlp.json").write_text(run_record([ratio] * 4, eager_s=eager).to_json())
    page = methodology.run_speed("mlp", "default")
    assert words in page, page
    lines = [line for line in page.splitlines() if " ms |" in line]
    assert [line.split("|")[2].strip() for line in lines] == ["13 ms", "12 ms", "11 ms", "10 ms"]  # slowest eager first
