import math
import random

import pytest

from eager_vs_compiled import stats


def test_median_and_iqr_of_known_samples():
    samples = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert stats.median(samples) == 3.0
    assert stats.iqr(samples) == pytest.approx(2.0)  # inclusive quartiles 2 and 4


def test_iqr_of_one_sample_is_zero():
    assert stats.iqr([0.5]) == 0.0


def test_median_of_nothing_is_an_error():
    with pytest.raises(ValueError):
        stats.median([])


def test_noisy_flag_follows_spread():
    assert not stats.is_noisy([1.0, 1.01, 0.99, 1.0, 1.02])
    assert stats.is_noisy([1.0, 1.5, 0.7, 1.2, 0.9])


def test_breakeven_is_compile_time_over_saving():
    assert stats.breakeven_iterations(10.0, eager_s=0.3, compiled_s=0.1) == pytest.approx(50.0)


def test_breakeven_is_none_when_compiled_is_not_faster():
    assert stats.breakeven_iterations(10.0, eager_s=0.1, compiled_s=0.1) is None
    assert stats.breakeven_iterations(10.0, eager_s=0.1, compiled_s=0.2) is None


def test_relative_error_of_median_needs_three_samples():
    assert stats.median_rel_error([1.0, 1.0]) == math.inf
    assert stats.median_rel_error([1.0, 1.0, 1.0]) == 0.0


@pytest.mark.parametrize("k", [1, 2, 3, 7, 41, 100])
def test_the_bootstrap_draws_the_indices_randrange_would(k):
    # The intervals on the pages depend on these draws: the fast path must not move them.
    fast, slow = stats.seeded_rng("w", "default", k), stats.seeded_rng("w", "default", k)
    for _ in range(50):
        assert stats._draw(fast, k) == [slow.randrange(k) for _ in range(k)]


def test_the_median_of_zero_durations_has_no_relative_error_to_speak_of():
    assert stats.median_rel_error([0.0, 0.0, 0.0]) == math.inf  # not a division by zero


@pytest.mark.parametrize("old, new", [(4.0, 5.0), (5.0, 4.0)])
def test_a_ratio_exactly_on_the_noise_floor_is_not_a_change(old, new):
    # 5/4 = 1.25 = 1 + floor and 4/5 = 0.8 = 1/(1 + floor): on the band's edges, inside it
    ratio = new / old
    assert stats.ratio_change(old, new, None, 0.25) == (ratio, ratio, ratio, False)
    assert stats.ratio_change(old, new * 1.001 if new > old else new * 0.999, None, 0.25)[3] is True


def test_the_median_of_nothing_says_so():
    with pytest.raises(ValueError, match="^no samples$"):
        stats.median([])


def test_the_iqr_of_two_samples_is_half_their_distance():
    assert stats.iqr([1.0, 3.0]) == 1.0  # inclusive quartiles 1.5 and 2.5


def test_noisy_means_an_iqr_above_a_tenth_of_the_median():
    assert not stats.is_noisy([9.0, 10.0, 11.0])  # IQR 1 (9.5 to 10.5), median 10: exactly a tenth
    assert stats.is_noisy([9.0, 10.0, 11.5])  # IQR 1.25: above
    assert not stats.is_noisy([10.0, 10.5, 11.0])  # IQR 0.5 on 10.5: under (the IQR times the median is not)
    assert not stats.is_noisy([0.0, 0.0, 0.0])  # no median to be relative to: not a division by zero


def test_a_compile_of_under_a_second_or_a_negative_estimate_is_counted_as_it_is():
    assert stats.breakeven_iterations(0.5, eager_s=2**-6, compiled_s=2**-7) == 64.0  # 0.5 s / (1/128 s)
    assert stats.breakeven_iterations(-1.0, eager_s=2**-6, compiled_s=2**-7) == 0.0


def test_the_bootstrap_seed_follows_the_key():
    assert stats.seeded_rng("mlp", "default").random() == stats.seeded_rng("mlp", "default").random()
    assert stats.seeded_rng("mlp", "default").random() != stats.seeded_rng("mlp", "max-autotune").random()


def test_series_of_unequal_length_draw_the_asked_number_of_resamples_each(monkeypatch):
    asked = []

    def medians(samples, rng, n=stats.BOOTSTRAP_RESAMPLES):
        asked.append((len(samples), n))
        return [float(len(samples))] * n

    monkeypatch.setattr(stats, "boot_medians", medians)
    assert stats.boot_speedups([1.0] * 3, [1.0] * 4, stats.seeded_rng("k"), n=5) == [0.75] * 5
    assert asked == [(3, 5), (4, 5)]


# --- two levels: processes, then samples --------------------------------------------------------------
def test_a_modes_time_from_several_processes_is_the_median_of_their_medians():
    assert stats.process_point([[1.0, 2.0, 3.0], [10.0], [4.0, 5.0, 6.0]]) == 5.0  # median of 2, 10, 5


def test_one_steady_process_gives_a_point_not_an_interval():
    assert set(stats.boot_process_medians([[3.0, 3.0, 3.0]], stats.seeded_rng("one"), n=50)) == {3.0}


def test_the_interval_spans_what_the_processes_differ_by():
    """Eager ran at 10, 11 and 12 ms in three processes (each steady), the mode at 5 ms: a rerun may find
    any of 2.0x, 2.2x, 2.4x, and the 95% interval says so (one process's samples alone would give a point)."""
    eager = [[0.010] * 20, [0.011] * 20, [0.012] * 20]
    mode = [[0.005] * 20] * 3
    dist = stats.boot_process_speedups(eager, mode, stats.seeded_rng("spread"))
    assert {round(x, 6) for x in dist} <= {2.0, 2.2, 2.4}
    assert tuple(round(x, 6) for x in stats.percentile_interval(dist)) == (2.0, 2.4)


def test_a_process_without_samples_is_refused():
    with pytest.raises(ValueError, match="every process needs samples"):
        stats.boot_process_medians([[1.0], []], stats.seeded_rng("x"), n=5)


# --- paired: eager timed beside the mode in each process ------------------------------------------------
def test_a_paired_speedup_is_the_median_of_the_ratios_inside_each_process():
    """A slow window slowed both modes of the second process: its ratio is still 2, where the median of
    all eager medians (20) over the median of all mode medians (10, another process's) would agree only
    by luck; here eager medians 10, 20, 12 and mode medians 5, 10, 4 give ratios 2, 2, 3."""
    eager = [[0.010] * 5, [0.020] * 5, [0.012] * 5]
    mode = [[0.005] * 5, [0.010] * 5, [0.004] * 5]
    assert stats.paired_point(eager, mode) == pytest.approx(2.0)
    assert stats.process_point(eager) / stats.process_point(mode) == pytest.approx(12 / 5)


def test_paired_processes_are_drawn_together_so_a_common_slow_window_cancels():
    """Each process steady; the second twice as slow in both modes. Paired, every process says 2 and so
    does every draw; drawn apart (as for modes timed in processes of their own), 1 to 4."""
    eager = [[0.010] * 9, [0.020] * 9, [0.010] * 9]
    mode = [[0.005] * 9, [0.010] * 9, [0.005] * 9]
    assert {round(x, 9) for x in stats.paired_speedups(eager, mode, stats.seeded_rng("p"), n=200)} == {2.0}
    apart = stats.boot_process_speedups(eager, mode, stats.seeded_rng("p"), n=200)
    assert min(apart) == pytest.approx(1.0) and max(apart) == pytest.approx(4.0)


def test_a_paired_interval_is_students_t_over_the_processes_log_ratios():
    """Three processes with ratios e^0.00, e^0.02, e^0.04 (their medians; the samples around them do not
    matter): mean log 0.02, s = 0.02, scale 0.02/sqrt(3); with 2 degrees of freedom the 97.5 % point is
    4.303 (the printed table), so the interval is e^(0.02 +- 0.04969). A bootstrap of three processes
    could not reach past e^0 and e^0.04."""
    mode = [[0.010, 0.011, 0.009]] * 3
    eager = [[0.010 * math.exp(x) * f for f in (1.0, 1.3, 0.8)] for x in (0.0, 0.02, 0.04)]
    low, high = stats.percentile_interval(stats.paired_speedups(eager, mode, stats.seeded_rng("t")))
    half = 4.303 * 0.02 / math.sqrt(3)
    assert low == pytest.approx(math.exp(0.02 - half), rel=2e-3)
    assert high == pytest.approx(math.exp(0.02 + half), rel=2e-3)
    assert low < 1.0 and high > math.exp(0.04)


@pytest.mark.parametrize("df, table", [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (9, 2.262),
                                       (30, 2.042)])
def test_t_quantiles_match_the_printed_table(df, table):
    assert stats.t_quantile(0.975, df) == pytest.approx(table, rel=1.5e-3)
    assert stats.t_quantile(0.025, df) == pytest.approx(-table, rel=1.5e-3)


@pytest.mark.parametrize("u, df", [(0.0, 3), (1.0, 3), (0.5, 0)])
def test_t_quantile_refuses_what_has_none(u, df):
    with pytest.raises(ValueError, match="t quantile"):
        stats.t_quantile(u, df)


def test_more_processes_that_agree_narrow_the_paired_interval():
    """The same spread of ratios in 3 and in 9 processes: t's quantile falls (4.303 to 2.306) and the scale
    with sqrt(k), so the stop rule's extra rounds buy a narrower interval."""
    def width(k):
        logs = [0.01 * ((i % 3) - 1) for i in range(k)]
        eager = [[math.exp(x)] for x in logs]
        lo, hi = stats.percentile_interval(stats.paired_speedups(eager, [[1.0]] * k, stats.seeded_rng("w")))
        return hi / lo
    assert width(9) < width(3)


def test_paired_pairs_are_resampled_together_within_a_process_by_the_first_bootstrap():
    """One process whose pairs drift together (sample i of both modes 1 + i/10 times slower): any
    resample of the pairs keeps the ratio at 3."""
    eager = [[0.003 * (1 + i / 10) for i in range(11)]] * 2
    mode = [[0.001 * (1 + i / 10) for i in range(11)]] * 2
    assert {round(x, 9) for x in stats.boot_paired_speedups(eager, mode, stats.seeded_rng("d"), n=100)} == {3.0}


@pytest.mark.parametrize("eager, mode", [([[1.0]], [[1.0], [1.0]]), ([[1.0, 1.0]], [[1.0]]), ([], []),
                                         ([[]], [[]])])
def test_unpaired_series_are_refused(eager, mode):
    for draws in (stats.paired_speedups, stats.boot_paired_speedups):
        with pytest.raises(ValueError, match="paired"):
            draws(eager, mode, stats.seeded_rng("x"), n=3)


def test_an_interval_is_widened_to_hold_its_point_and_only_then():
    dist = [1.0 + i / 1000 for i in range(1001)]  # 1.000 to 2.000
    assert stats.interval_holding(1.5, dist) == stats.percentile_interval(dist)
    assert stats.interval_holding(0.9, dist) == (0.9, stats.percentile_interval(dist)[1])
    assert stats.interval_holding(2.5, dist) == (stats.percentile_interval(dist)[0], 2.5)


def _coverage(k: int, draws, n: int) -> float:
    """Simulated reruns: k processes whose ratios scatter around a true speedup of 1 (log-normal, 3 % between
    processes, each process steady inside); the share of 400 reruns whose interval holds the truth."""
    rng, hits = random.Random(f"coverage-{k}"), 0
    for _ in range(400):
        logs = [rng.gauss(0.0, 0.03) for _ in range(k)]
        lo, hi = stats.percentile_interval(draws([[math.exp(x)] * 5 for x in logs], [[1.0] * 5] * k, rng, n=n))
        hits += lo <= 1.0 <= hi
    return hits / 400


@pytest.mark.parametrize("k", [3, 6])
def test_a_paired_interval_covers_the_true_speedup_about_as_often_as_it_says(k):
    assert 0.92 <= _coverage(k, stats.paired_speedups, 400) <= 0.98


def test_the_first_bootstrap_of_three_processes_covers_far_less():
    """Each process steady inside, it cannot reach past the processes' extremes: with three, at most 1 - 2 * (1/2)^3 = 75 % of reruns."""
    assert _coverage(3, stats.boot_paired_speedups, 200) < 0.80
