"""The timing core (timing.py) with fake calls and a fake clock: how many calls make a sample, the
order in which eager and compiled are timed, and each rule that ends the sampling.

The clock is replaced for timing.py only (its `time` name), never for the process. Every cost is a
power-of-two fraction of a second, so the sums the clock makes and the per-call times `timer`
divides out are exact: the expected values below are derived by hand."""
import gc
import itertools
import types

import pytest

from eager_vs_compiled import timing

U = 2**-7  # one unit of fake time, in seconds


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(timing, "time", types.SimpleNamespace(perf_counter=fake.perf_counter))
    return fake


def fake_call(name: str, cost, clock: FakeClock, log: list):
    """A call that costs `cost(k)` seconds of fake time on its k-th call (from 0) and logs its name."""
    calls = itertools.count()

    def call(*inputs):
        log.append((name, gc.isenabled()))
        clock.now += cost(next(calls))
    return call


def names(log) -> list[str]:
    return [name for name, _ in log]


def no_sync():
    pass


def cfg(n_min: int, n_max: int, min_sample_s: float = U) -> dict:
    return {"min_sample_s": min_sample_s, "n_min": n_min, "n_max": n_max}


def alternating(k: int) -> float:
    """1, 2, 1, 2 ... units: a spread no number of samples pins down to 1 % within these tests."""
    return U * (1 + k % 2)


# --- calls_per_sample ------------------------------------------------------------------------------
def test_a_call_lasting_a_tenth_of_a_sample_is_calibrated_from_that_one_call(clock):
    log = []
    call = fake_call("f", lambda k: U, clock, log)
    # one call of 1/128 s is above a tenth of 1/32 s: ceil((1/32) / (1/128)) = 4 calls per sample
    assert timing.calls_per_sample(call, (), no_sync, min_sample_s=2**-5) == 4
    assert len(log) == 1


def test_a_block_lasting_exactly_a_tenth_of_a_sample_is_long_enough(clock):
    log = []
    call = fake_call("f", lambda k: U, clock, log)
    assert timing.calls_per_sample(call, (), no_sync, min_sample_s=10 * U) == 10  # U is exactly (10 U) / 10
    assert len(log) == 1


def test_a_block_just_under_a_tenth_of_a_sample_is_not(clock):
    log = []
    call = fake_call("f", lambda k: U, clock, log)
    # one call (1 unit) is under a tenth of 10.5 units (1.05): a block of 10 calls follows, then
    # ceil(10.5 / 1) = 11 calls per sample
    assert timing.calls_per_sample(call, (), no_sync, min_sample_s=10.5 * U) == 11
    assert len(log) == 1 + 10


def test_a_short_call_is_timed_in_blocks_ten_times_larger_until_a_block_lasts_a_tenth_of_a_sample(clock):
    log, syncs = [], []
    call = fake_call("f", lambda k: 2**-14, clock, log)
    # blocks of 1 and 10 calls (1/16384 s and 10/16384 s) are under a tenth of 1/32 s (1/320 s); a
    # block of 100 (100/16384 s) is over it: (1/32) / (1/16384) = 512 calls per sample
    assert timing.calls_per_sample(call, (), lambda: syncs.append(len(log)), min_sample_s=2**-5) == 512
    assert [b - a for a, b in zip(syncs[::2], syncs[1::2])] == [1, 10, 100]


def test_a_call_too_fast_to_time_stops_the_calibration_at_a_million_calls(clock):
    calls = itertools.count()
    syncs = []
    # the clock never moves: blocks of 1 to 10**6 calls, then the floor of 1 ns per call is taken:
    # (1/32 s) / 1 ns = 31,250,000 calls per sample
    assert timing.calls_per_sample(lambda: next(calls), (), lambda: syncs.append(next(calls)),
                                   min_sample_s=2**-5) == 31_250_000
    blocks = [b - a - 1 for a, b in zip(syncs[::2], syncs[1::2])]  # each sync took one number as well
    assert blocks == [10**p for p in range(7)]


# --- interleaved_samples ---------------------------------------------------------------------------
def test_eager_and_compiled_are_timed_in_turn_sample_after_sample(clock):
    log = []
    eager = fake_call("eager", lambda k: U, clock, log)
    compiled = fake_call("compiled", lambda k: U / 4, clock, log)
    series = timing.interleaved_samples([eager, compiled], (), no_sync, cfg(n_min=3, n_max=10), budget_s=1000)
    # a warm-up call of each; a calibration block of one call each (1 unit: 1 call per sample; a
    # quarter unit: 4 calls per sample); then samples in turn until n_min, where the constant times
    # are known exactly (their relative error is 0)
    sample = ["eager"] + ["compiled"] * 4
    assert names(log) == ["eager", "compiled", "eager", "compiled"] + sample * 3
    assert series == [[U] * 3, [U / 4] * 3]  # seconds per call, not per sample
    assert not any(enabled for _, enabled in log[4:])  # no collector pause inside a sample
    assert gc.isenabled()


def test_sampling_never_stops_before_the_minimum_count_even_without_budget(clock):
    log = []
    calls = [fake_call(n, alternating, clock, log) for n in ("eager", "compiled")]
    series = timing.interleaved_samples(calls, (), no_sync, cfg(n_min=5, n_max=100), budget_s=0)
    assert [len(s) for s in series] == [5, 5]


def test_sampling_stops_at_the_maximum_count_while_the_median_is_still_uncertain(clock):
    log = []
    calls = [fake_call(n, alternating, clock, log) for n in ("eager", "compiled")]
    series = timing.interleaved_samples(calls, (), no_sync, cfg(n_min=3, n_max=12), budget_s=1e9)
    assert [len(s) for s in series] == [12, 12]


@pytest.mark.parametrize("budget_units, samples", [(14, 5), (15, 6)])
def test_sampling_stops_when_the_budget_has_passed(clock, budget_units, samples):
    # Each call costs 1, 2, 1, 2 ... units; the warm-up and calibration calls take the 1 and the 2
    # (a calibration block of 2 units: 1 call per sample). Rounds of one eager and one compiled
    # sample then take 2, 4, 2, 4 ... units: 2, 6, 8, 12, 14, 18 units after 1 to 6 rounds. Another
    # round starts only while less than the budget has passed: 14 units stop it after round 5, 15
    # units after round 6.
    log = []
    calls = [fake_call(n, alternating, clock, log) for n in ("eager", "compiled")]
    series = timing.interleaved_samples(calls, (), no_sync, cfg(n_min=3, n_max=100), budget_s=budget_units * U)
    assert series == [[U * (1 + k % 2) for k in range(samples)]] * 2


def test_a_median_known_to_exactly_one_percent_is_known_well_enough(clock, monkeypatch):
    monkeypatch.setattr(timing, "stats", types.SimpleNamespace(median_rel_error=lambda s: timing.MEDIAN_PRECISION))
    log = []
    calls = [fake_call(n, alternating, clock, log) for n in ("eager", "compiled")]
    series = timing.interleaved_samples(calls, (), no_sync, cfg(n_min=3, n_max=100), budget_s=1e9)
    assert [len(s) for s in series] == [3, 3]
    assert timing.MEDIAN_PRECISION == 0.01


def test_sampling_stops_once_every_median_is_known_to_one_percent(clock):
    # Eager is constant (relative error 0). Compiled's first sample is 1/8 slower, the rest constant:
    # n samples of which one is 9/8 have a standard deviation of (1/8)/sqrt(n) units and a median of
    # 1 unit, so the relative error of the median is 1.2533 * (1/8) / n: 0.01044 at n = 15, 0.00979
    # at n = 16, the first at or under 1 %. (Calls 0 and 1 are the warm-up and calibration.)
    log = []
    eager = fake_call("eager", lambda k: U, clock, log)
    compiled = fake_call("compiled", lambda k: U * 9 / 8 if k == 2 else U, clock, log)
    series = timing.interleaved_samples([eager, compiled], (), no_sync, cfg(n_min=3, n_max=100), budget_s=1e9)
    assert [len(s) for s in series] == [16, 16]
    assert series[1] == [U * 9 / 8] + [U] * 15


# --- first_call ------------------------------------------------------------------------------------
def test_the_first_call_is_timed_up_to_the_synchronisation_after_it(clock):
    def compiled(a, b):
        clock.now += 3 * U
        return a + b

    def sync():  # a GPU's queued work finishes here: its time belongs to the first call
        clock.now += U

    clock.now = 5.0
    assert timing.first_call(compiled, (2, 3), sync) == (5, 4 * U)


# --- timer_agreement -------------------------------------------------------------------------------
class FakeTimer:
    """Stands in for torch.utils.benchmark.Timer: each blocked_autorange costs `cost` seconds of fake
    time and reports the next of `medians`."""
    made: list = []

    def __init__(self, clock, log, cost, medians):
        self.clock, self.log, self.cost, self.medians = clock, log, cost, iter(medians)

    def __call__(self, **kwargs):  # the class, as timer_agreement calls it
        FakeTimer.made.append(kwargs)
        return self

    def blocked_autorange(self, min_run_time):
        self.log.append(("Timer", min_run_time))
        self.clock.now += self.cost
        return types.SimpleNamespace(median=next(self.medians))


@pytest.fixture
def fake_timer(clock, monkeypatch):
    import torch.utils.benchmark

    collected = []
    monkeypatch.setattr(timing, "gc", types.SimpleNamespace(collect=lambda: collected.append(1), disable=gc.disable,
                                                            enable=gc.enable))
    FakeTimer.made = []

    def make(cost, medians, log):
        fake = FakeTimer(clock, log, cost, medians)
        monkeypatch.setattr(torch.utils.benchmark, "Timer", fake)
        return fake
    make.collected = collected
    return make


# Medians the fake Timer reports, round after round: their median is 12 ms (their mean is not).
TIMER_MEDIANS = [0.010, 0.011, 0.100, 0.012, 0.013, 0.014] + [0.012] * 9


@pytest.mark.parametrize("timer_cost, rounds, timer_median", [(0.0625, 15, 0.012), (0.5, 6, 0.0125), (1.0, 5, 0.012),
                                                              (0.421875, 7, 0.012)])
def test_harness_and_timer_alternate_in_rounds_for_five_to_fifteen_rounds_or_three_seconds(
        clock, fake_timer, timer_cost, rounds, timer_median):
    # A harness round: one discarded sample of 2 calls (2 units), then samples of 2 units until
    # 0.05 s have passed: 4 samples (8 units = 0.0625 s), so 10 units = 0.078125 s. The Timer's
    # round costs `timer_cost`. Rounds of 0.140625 s: all 15 fit in 3 s. Rounds of 0.578125 s: 2.89 s
    # after 5, 3.47 s after 6, so the seventh does not start. Rounds of 1.078125 s: the minimum, 5.
    # Rounds of exactly 0.5 s (0.078125 + 0.421875): 3 s after 6, which is not past 3 s: a seventh.
    # The Timer's median: of 10, 11, 100, 12, 13 ms: 12; with 14 ms too: 12.5; with 12 ms more: 12.
    log = []

    def call(*inputs):
        assert inputs == ("x",)
        log.append(("harness", gc.isenabled()))
        clock.now += U

    fake_timer(timer_cost, TIMER_MEDIANS, log)
    built = types.SimpleNamespace(call=call, inputs=("x",))
    ours, theirs = timing.timer_agreement(built, no_sync, threads=3, number=2)
    harness = [("harness", True)] * 2 + [("harness", False)] * 8  # the discarded sample outside no_gc
    timer = [("Timer", 0.05)]
    assert log == sum(((harness + timer) if i % 2 == 0 else (timer + harness) for i in range(rounds)), [])
    assert FakeTimer.made == [{"stmt": "call(*inputs)", "globals": {"call": call, "inputs": ("x",)}, "num_threads": 3}]
    assert ours == U  # seconds per call
    assert theirs == pytest.approx(timer_median, abs=1e-15)
    assert fake_timer.collected == [1]  # one full collection before the rounds, none inside them
    assert gc.isenabled()


def test_a_harness_round_ends_once_fifty_milliseconds_have_passed(clock, fake_timer):
    # The discarded call costs nothing, so the round's 50 ms start at 0; calls of 25 ms then end the
    # second sample at exactly 0.05 s (twice the double nearest 0.025 is the double nearest 0.05).
    log, calls = [], itertools.count()

    def call():
        log.append("harness")
        clock.now += 0.0 if next(calls) == 0 else 0.025

    fake_timer(1.0, TIMER_MEDIANS, log)
    timing.timer_agreement(types.SimpleNamespace(call=call, inputs=()), no_sync, threads=1, number=1)
    assert log[:log.index(("Timer", 0.05))] == ["harness"] * 3  # the discarded call and two samples
