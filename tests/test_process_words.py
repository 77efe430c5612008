"""The words beside a number of harness 3 follow its interval drawn over processes: each threshold
from both sides. Samples are constant inside a process, so the interval's ends are the extreme
process medians (with three processes, a bootstrap median lands on the largest one in 7 of 27 draws,
far more than the 2.5 % tail): every case below sits a hair on one side of parity."""
import math

import pytest

from eager_vs_compiled import data, freshness, measure, records, stats
from eager_vs_compiled.pages import provenance, recipe, releases
from eager_vs_compiled.records import ModeResult
from helpers import make_record


def procs(*medians: float, n: int = 5) -> dict:
    """samples_s and processes of a mode whose processes ran at `medians`, n samples each."""
    return {"samples_s": [m for m in medians for _ in range(n)], "processes": [{"n": n, "phase": "rerun"} for _ in medians]}


def record(eager: tuple, mode: tuple, mode_name: str = "default") -> records.Record:
    rec = make_record("tiny_op")
    rec.results = [ModeResult("eager", "ok", **procs(*eager)),
                   ModeResult(mode_name, "ok", first_call_s=2.0, max_rel_err=0.0, **procs(*mode))]
    return rec.finish()


@pytest.mark.parametrize("mode, words", [
    ((0.97, 0.98, 0.999), "faster"),  # slowest process 0.1 % under eager: the interval clears parity
    ((0.97, 0.98, 1.001), "no measurable difference"),  # 0.1 % over: it holds parity
    ((1.001, 1.02, 1.03), "slower"),
    ((0.999, 1.02, 1.03), "no measurable difference"),
])
def test_a_modes_words_follow_its_interval_over_processes_on_both_sides_of_parity(mode, words):
    rec = record((1.0, 1.0, 1.0), mode)
    r = rec.result("default")
    assert r.baseline is rec.result("eager") and not r.eager_samples_s
    low, high = data.speedup_interval(r)
    assert low == pytest.approx(1 / max(mode)) and high == pytest.approx(1 / min(mode))
    assert provenance.direction(r) == words
    assert {"faster": "calls", "slower": "never", "no measurable difference": "no measurable difference"}[words] \
        in provenance.breakeven(r)


def test_the_point_is_the_median_of_the_process_medians_and_no_one_process_decides():
    rec = record((1.0, 1.2, 1.0, 1.0, 5.0), (0.5, 0.5, 0.6, 0.5, 0.5))
    eager, mode = rec.result("eager"), rec.result("default")
    assert eager.median_s == 1.0 and mode.median_s == 0.5 and mode.speedup == 2.0
    assert len(mode.process_samples()) == 5 and rec.processes_per_mode == 5


@pytest.mark.parametrize("other, words", [((1.001, 1.002, 1.003), "faster"), ((0.999, 1.002, 1.003), "within the noise")])
def test_two_modes_compared_follow_their_interval_with_no_floor_when_each_has_processes(other, words):
    """The noise floor is gone for records of several processes per mode: parity is the threshold."""
    rec = record((2.0, 2.0, 2.0), (1.0, 1.0, 1.0))
    rec.results.append(ModeResult("max-autotune", "ok", first_call_s=2.0, max_rel_err=0.0, **procs(*other)))
    rec.finish()
    assert data.noise_floor([rec]) == 0.0
    winner, slower = rec.result("default"), rec.result("max-autotune")
    point, low, high, said = recipe.versus(winner, rec, slower, rec, data.noise_floor([rec]))
    assert low == pytest.approx(min(other)) and said == words


def test_a_record_of_one_process_per_mode_keeps_the_noise_floor():
    legacy = make_record("mlp")  # eager timed beside each mode, no processes: harness 2's shape
    assert data.one_process(legacy) and data.noise_floor([legacy]) >= stats.NOISY_IQR_FRACTION
    assert "one process per mode" in provenance.record_line(legacy, page=False)


@pytest.mark.parametrize("new, real", [((0.999, 0.99, 0.98), True), ((1.001, 0.99, 0.98), False)])
def test_a_change_between_releases_follows_its_interval_with_no_floor(new, real):
    old = record((1.0, 1.0, 1.0), (0.5, 0.5, 0.5))
    newer = record(new, (0.5, 0.5, 0.5))
    changes = {(c.mode, c.metric): c for c in data.compare(old, newer)}
    assert changes[("eager", "median_s")].beyond_noise is real
    assert changes[("eager", "median_s")].verdict == ("faster" if real else "within the noise")


def test_a_later_process_that_fails_keeps_the_earlier_ones_and_says_why(monkeypatch):
    from eager_vs_compiled import rounds, workloads

    calls = []

    def child(args, env, timeout):  # eager timed beside the mode in each process, as the real child does
        calls.append(args["phase"])
        assert args["protocol"] == "interleaved" and args["mode"] != "eager"
        if args["mode"] == "default" and args["phase"] == "rerun":
            return {"default": ModeResult("default", "crashed", message="exit code -11")}
        beside = {"samples_s": [0.02] * 5, "processes": [{"n": 5, "eager_n": 5}]}
        return {args["mode"]: ModeResult(args["mode"], "ok", first_call_s=1.0, max_rel_err=0.0, samples_s=[0.01] * 5,
                                         eager_samples_s=[0.02] * 5, processes=[{"n": 5, "eager_n": 5}]),
                "eager": ModeResult("eager", "ok", **beside)}

    monkeypatch.setattr(rounds, "_run_child", child)
    rec = measure.measure_workload("tiny_op", "cpu")
    r = rec.result("default")
    assert r.status == "ok" and len(r.process_samples()) == 2 and "crashed: exit code -11" in r.message
    assert r.paired_processes() is not None and r.speedup == 2.0 and len(rec.result("eager").process_samples()) == 2
    assert not freshness.unfinished(rec, workloads.get("tiny_op").modes["cpu"])


def test_a_process_entry_that_does_not_add_up_is_refused(tmp_path):
    rec = record((1.0, 1.0, 1.0), (0.5, 0.5, 0.5))
    rec.result("default").processes[0]["n"] = 4  # 14 samples counted, 15 in the list
    path = tmp_path / "tiny_op.json"
    path.write_text(rec.to_json())
    with pytest.raises(records.RecordError, match="processes count 14 samples_s, the list has 15"):
        records.load(path)


def test_the_releases_page_keeps_a_threshold_for_figures_measured_once():
    """No calibration of the machine (the tests look for none): a compile time measured once per run is
    a change only beyond the harness's noisy threshold, on both sides of it (tests/test_terms.py: with one)."""
    old = record((1.0, 1.0, 1.0), (0.5, 0.5, 0.5))
    for factor, beyond in ((1 + stats.NOISY_IQR_FRACTION / 2, False), (1 + 2 * stats.NOISY_IQR_FRACTION, True)):
        new = record((1.0, 1.0, 1.0), (0.5, 0.5, 0.5))
        new.result("default").compile_cold_s = old.result("default").compile_cold_s * factor
        assert data.change(old, new, "default", "compile_cold_s", 0.0).beyond_noise is beyond


# --- eager timed beside the mode in each process (interleaved protocol): paired, ratio by ratio --------
def paired(eager: tuple, mode: tuple) -> records.Record:
    """A record whose mode ran in len(mode) processes, each timing eager beside it (constant samples)."""
    rec = make_record("tiny_op")
    n = 5
    rec.results = [ModeResult("eager", "ok", samples_s=[e for e in eager for _ in range(n)]),
                   ModeResult("default", "ok", first_call_s=2.0, max_rel_err=0.0,
                              samples_s=[m for m in mode for _ in range(n)],
                              eager_samples_s=[e for e in eager for _ in range(n)],
                              processes=[{"n": n, "eager_n": n, "protocol": "interleaved"} for _ in mode])]
    return rec.finish()


T2 = 4.303  # Student's t, 2 degrees of freedom, 97.5 % (the printed table)


def _ratios(sign: int, margin: float) -> tuple:
    """Three process ratios e^(c - 0.01), e^c, e^(c + 0.01) whose interval's near end lies `margin` (in
    log) beyond parity (margin > 0) or short of it: s = 0.01, half-width T2 * 0.01 / sqrt(3)."""
    half = T2 * 0.01 / math.sqrt(3)
    c = sign * (half + margin)
    return tuple(math.exp(c + d) for d in (-0.01, 0.0, 0.01))


@pytest.mark.parametrize("ratios, words", [
    (_ratios(+1, +0.001), "faster"),  # the interval's low end 0.1 % over parity
    (_ratios(+1, -0.001), "no measurable difference"),  # ... 0.1 % under it
    (_ratios(-1, +0.001), "slower"),
    (_ratios(-1, -0.001), "no measurable difference"),
])
def test_a_paired_modes_words_follow_the_interval_of_its_per_process_ratios(ratios, words):
    eager = (1.0, 3.0, 2.0)  # each process in a window of its own speed: the ratios alone decide
    rec = paired(eager, tuple(e / q for e, q in zip(eager, ratios)))
    r = rec.result("default")
    assert r.paired_processes() is not None and r.speedup == pytest.approx(sorted(ratios)[1])
    low, high = data.speedup_interval(r)
    centre, half = math.log(ratios[1]), T2 * 0.01 / math.sqrt(3)
    assert math.log(low) == pytest.approx(centre - half, abs=2e-4)
    assert math.log(high) == pytest.approx(centre + half, abs=2e-4)
    assert provenance.direction(r) == words


def test_a_slow_window_that_slows_both_sides_of_a_process_moves_no_paired_speedup():
    rec = paired((1.0, 2.5, 1.2), (0.5, 1.25, 0.6))  # every process 2x, however fast its window
    low, high = data.speedup_interval(rec.result("default"))
    assert rec.result("default").speedup == pytest.approx(2.0)
    assert (low, high) == (pytest.approx(2.0), pytest.approx(2.0))


def test_an_interval_holds_its_point_where_the_median_of_the_ratios_and_their_mean_part():
    """Nine processes (too few for trimming), five at ratio 1 and four at e^0.1: the point (the median
    ratio) is 1.0, while t's interval around the mean log ratio (0.044 +- 2.306 * 0.0527 / 3) starts
    above 1; the shown interval is widened down to the point, and the words say no measurable difference."""
    ratios = (1.0,) * 5 + (math.exp(0.1),) * 4
    eager = tuple(1.0 + i / 10 for i in range(9))
    rec = paired(eager, tuple(e / q for e, q in zip(eager, ratios)))
    r = rec.result("default")
    assert r.speedup == pytest.approx(1.0)
    draws = data.speedup_distribution(r, ("test",))
    assert stats.percentile_interval(draws)[0] > 1.0  # t's own interval leaves the point out
    low, high = data.speedup_interval(r)
    assert low == pytest.approx(1.0) and high > math.exp(0.04)
    assert provenance.direction(r) == "no measurable difference"
