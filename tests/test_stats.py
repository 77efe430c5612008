import math

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
    fast, slow = stats._rng("w", "default", k), stats._rng("w", "default", k)
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
