"""`calibrate`: what one run's interval says of another's speedup, counted by hand, and the inputs it refuses."""
import math

import pytest

from eager_vs_compiled import calibrate
from eager_vs_compiled.records import ModeResult
from helpers import cli, make_record


T2_OVER_ROOT3 = 4.303 / math.sqrt(3)  # Student's t at 97.5 % with 2 degrees of freedom, over sqrt(3 processes)


def run_of(point: float, half: float):
    """A tiny_op record whose `default` ran in three processes, eager beside it, every sample constant,
    with ratios point * e^-d, point, point * e^d: its speedup is `point` and its 95% interval
    point * e^(+-half) (Student's t over the log ratios: half = 4.303 * d / sqrt(3))."""
    rec, n, d = make_record("tiny_op"), 5, half / T2_OVER_ROOT3
    ratios = [point * math.exp(x) for x in (-d, 0.0, d)]
    rec.results = [ModeResult("eager", "ok", samples_s=[r for r in ratios for _ in range(n)]),
                   ModeResult("default", "ok", first_call_s=1.0, max_rel_err=0.0, samples_s=[1.0] * n * len(ratios),
                              eager_samples_s=[r for r in ratios for _ in range(n)],
                              processes=[{"n": n, "eager_n": n} for _ in ratios])]
    return rec.finish()


THREE = {"tiny_op": [run_of(2.1, 0.05), run_of(2.4, 0.04), run_of(2.2, 0.02)]}


def test_inside_overlap_and_spread_are_counted_over_the_runs():
    # points 2.1, 2.4, 2.2; intervals [2.00, 2.21], [2.31, 2.50], [2.16, 2.24]. Inside (interval i holds
    # point j): only the first holds the third's 2.2. Overlap: the first and the third only.
    (row,) = calibrate.rows(THREE)
    assert row.speedups == pytest.approx([2.1, 2.4, 2.2])
    assert (row.inside, row.pairs, row.overlap, row.unordered) == (1, 6, 1, 3)
    assert row.spread == pytest.approx(2.4 / 2.1 - 1)
    assert row.half_width == pytest.approx(math.sinh(0.04), rel=0.01)  # the median of the three, each sinh(half)
    assert row.padded == 0  # every half-width under the runs' spread of 14 %


def test_an_interval_wider_than_both_the_floor_and_the_runs_spread_is_counted_as_padded():
    same = [run_of(2.0, 0.4) for _ in range(3)]  # every run 2.0 exactly, each interval about ±40 %
    (row,) = calibrate.rows({"tiny_op": same})
    assert (row.inside, row.overlap, row.spread, row.padded) == (6, 3, 0.0, 3)
    narrow = [run_of(2.0, 0.005) for _ in range(3)]  # ±0.5 %: under the 2 % floor, never padded
    assert calibrate.rows({"tiny_op": narrow})[0].padded == 0


def test_the_report_sums_every_row(tmp_path):
    table = calibrate.rows(THREE)
    assert table[0].workload == "tiny_op" and "| all | | | | 1 of 6 (17%) | 1 of 3 (33%) | 0 |" in calibrate.report(table)


@pytest.mark.parametrize("args, says", [
    (("--runs", "1"), "--runs must be between 2 and 20, not 1"),
    (("--protocols", "--protocol", "alone"), "--protocol goes without --protocols"),
    (("--mode", "default"), "--mode goes with --protocols, --interference or --throughput"),
    (("--protocols", "--rounds", "0"), "--rounds must be between 1 and 20, not 0"),
    (("--protocols", "--interference"), "one of --protocols, --interference, --throughput, --footprint at a time"),
    (("--interference", "--protocol", "alone"), "--protocol goes without --interference"),
    (("--throughput", "--profile", "gpu"), "--throughput measures the cpu profile"),
])
def test_calibrate_refuses_a_bad_input_by_name(capsys, tmp_path, args, says):
    code, _, err = cli(capsys, "calibrate", "--out", str(tmp_path), "--workload", "tiny_op", *args)
    assert code == 2 and says in err


def test_a_report_of_a_folder_without_runs_says_so(capsys, tmp_path):
    code, _, err = cli(capsys, "calibrate", "--report", "--out", str(tmp_path))
    assert code == 1 and "no calibration records in" in err and str(tmp_path) in err
    assert not any(tmp_path.iterdir())  # nothing measured, nothing written
