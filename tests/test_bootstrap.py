"""The speedup interval on every page: a paired bootstrap of the interleaved samples, read off by
percentile_interval. Expected values are derived by hand in the comments."""
from eager_vs_compiled import stats
from eager_vs_compiled.pages import provenance
from eager_vs_compiled.records import ModeResult

# Eager drifts up by 80 % across the run (a machine warming up, a neighbour starting); compiled,
# timed right after each eager sample, drifts with it and is exactly half of it sample by sample
# (halving is exact in binary floating point).
DRIFTING_EAGER = [0.010, 0.011, 0.012, 0.013, 0.014, 0.015, 0.016, 0.017, 0.018]
HALF = [e / 2 for e in DRIFTING_EAGER]


def test_paired_resampling_cancels_drift_so_a_constant_ratio_gives_a_zero_width_interval():
    # Resampling the pairs together: any draw of indices takes the same positions from both series,
    # so median(compiled draw) = median(eager draw) / 2 and every bootstrap speedup is exactly 2.0.
    # Resampling each series on its own would pair a late eager with an early compiled sample
    # (0.018 / 0.005 = 3.6) and the interval would be wide.
    dist = stats.boot_speedups(DRIFTING_EAGER, HALF, stats.seeded_rng("paired", "test"))
    assert set(dist) == {2.0}
    assert stats.percentile_interval(dist) == (2.0, 2.0)


def test_the_interval_the_pages_print_is_the_paired_one():
    result = ModeResult("default", "ok", samples_s=list(HALF), eager_samples_s=list(DRIFTING_EAGER)).finish(1)
    assert result.speedup == 2.0  # 0.014 / 0.007
    assert provenance.interval(result) == (2.0, 2.0)
    assert provenance.speedup(result) == "**2.00×** (2.00–2.00)"


def test_series_of_unequal_length_are_resampled_each_on_its_own():
    # No pairs to keep: a draw of the three compiled samples is independent of the eager draw, so
    # with constant eager 0.012 the speedups are 0.012 over a median of {0.004, 0.006, 0.012}: 3, 2, 1.
    dist = stats.boot_speedups([0.012] * 4, [0.004, 0.006, 0.012], stats.seeded_rng("unpaired", "test"), n=400)
    assert set(dist) == {3.0, 2.0, 1.0}


def test_percentile_interval_reads_the_central_share_of_the_sorted_distribution():
    # 5 values, level 0.5: indices int(0.25 * 4) = 1 and int(0.75 * 4) = 3 of the sorted list.
    assert stats.percentile_interval([50.0, 10.0, 40.0, 20.0, 30.0], level=0.5) == (20.0, 40.0)
    # 11 values, level 0.95: int(0.025 * 10) = 0 and int(0.975 * 10) = 9.
    assert stats.percentile_interval([float(v) for v in range(10, -1, -1)]) == (0.0, 9.0)


def test_percentile_interval_of_a_full_bootstrap_size():
    # 2000 draws (BOOTSTRAP_RESAMPLES), level 0.95: int(0.025 * 1999) = int(49.975) = 49 and
    # int(0.975 * 1999) = int(1949.025) = 1949.
    dist = [float(v) for v in range(1999, -1, -1)]
    assert stats.percentile_interval(dist) == (49.0, 1949.0)


def test_a_single_value_distribution_is_its_own_interval():
    assert stats.percentile_interval([1.5]) == (1.5, 1.5)
