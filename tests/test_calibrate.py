"""`calibrate`: what one run's interval says of another's speedup, counted by hand, and the inputs it refuses."""
import pytest

from eager_vs_compiled import calibrate
from eager_vs_compiled.records import ModeResult
from helpers import cli, make_record


def run_of(*ratios: float):
    """A tiny_op record whose `default` ran in one process per ratio, eager beside it, every sample
    constant: its speedup is the median ratio and its 95% interval runs from the lowest to the highest."""
    rec, n = make_record("tiny_op"), 5
    rec.results = [ModeResult("eager", "ok", samples_s=[r for r in ratios for _ in range(n)]),
                   ModeResult("default", "ok", first_call_s=1.0, max_rel_err=0.0, samples_s=[1.0] * n * len(ratios),
                              eager_samples_s=[r for r in ratios for _ in range(n)],
                              processes=[{"n": n, "eager_n": n} for _ in ratios])]
    return rec.finish()


def test_inside_overlap_and_spread_are_counted_over_the_runs():
    # points 2.1, 2.4, 2.2; intervals [2.0, 2.2], [2.3, 2.5], [2.15, 2.25]. Inside (interval i holds point j):
    # only the first holds the third's 2.2 (its end). Overlap: the first and the third only.
    (row,) = calibrate.rows({"tiny_op": [run_of(2.0, 2.1, 2.2), run_of(2.3, 2.4, 2.5), run_of(2.15, 2.2, 2.25)]})
    assert row.speedups == [2.1, 2.4, 2.2]
    assert (row.inside, row.pairs, row.overlap, row.unordered) == (1, 6, 1, 3)
    assert row.spread == pytest.approx(2.4 / 2.1 - 1)
    assert row.half_width == pytest.approx(0.2 / 2 / 2.4)  # the median of 0.2/2/2.1, 0.2/2/2.4 and 0.1/2/2.2
    assert row.padded == 0  # every half-width under the runs' spread of 14 %


def test_an_interval_wider_than_both_the_floor_and_the_runs_spread_is_counted_as_padded():
    same = [run_of(1.0, 2.0, 3.0) for _ in range(3)]  # every run 2.0 exactly, each interval 1.0 to 3.0
    (row,) = calibrate.rows({"tiny_op": same})
    assert (row.inside, row.overlap, row.spread, row.padded) == (6, 3, 0.0, 3)
    narrow = [run_of(1.99, 2.0, 2.01) for _ in range(3)]  # ±0.5 %: under the 2 % floor, never padded
    assert calibrate.rows({"tiny_op": narrow})[0].padded == 0


def test_the_report_sums_every_row(tmp_path):
    table = calibrate.rows({"tiny_op": [run_of(2.0, 2.1, 2.2), run_of(2.3, 2.4, 2.5), run_of(2.15, 2.2, 2.25)]})
    assert table[0].workload == "tiny_op" and "| all | | | | 1 of 6 (17%) | 1 of 3 (33%) | 0 |" in calibrate.report(table)


@pytest.mark.parametrize("args, says", [
    (("--runs", "1"), "--runs must be between 2 and 20, not 1"),
    (("--protocols", "--protocol", "alone"), "--protocol goes without --protocols"),
    (("--mode", "default"), "--mode goes with --protocols"),
    (("--protocols", "--rounds", "0"), "--rounds must be between 1 and 20, not 0"),
])
def test_calibrate_refuses_a_bad_input_by_name(capsys, tmp_path, args, says):
    code, _, err = cli(capsys, "calibrate", "--out", str(tmp_path), "--workload", "tiny_op", *args)
    assert code == 2 and says in err


def test_a_report_of_a_folder_without_runs_says_so(capsys, tmp_path):
    code, _, err = cli(capsys, "calibrate", "--report", "--out", str(tmp_path))
    assert code == 1 and "no calibration records in" in err and str(tmp_path) in err
    assert not any(tmp_path.iterdir())  # nothing measured, nothing written
