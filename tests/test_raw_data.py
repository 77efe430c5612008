"""The raw data under each table (pages/downloads.py): the CSV gives a speedup and its interval only for
a mode that finished and matched eager, as the tables do."""
import csv
import io

import pytest

from eager_vs_compiled.pages import downloads
from eager_vs_compiled.records import STATUSES, ModeResult, Record

EAGER = [0.010, 0.012, 0.011, 0.013, 0.009]
HALF = [e / 2 for e in EAGER]  # paired ratio exactly 2: speedup 2.0, interval 2.0–2.0


def record(status: str) -> Record:
    """Eager and one compiled mode timed beside it at exactly twice eager's speed, with `status`
    (a mismatch is timed too: child.py checks, then times every mode)."""
    eager = ModeResult("eager", "ok", samples_s=list(EAGER)).finish(1)
    compiled = ModeResult("default", status, message="outputs: max relative error 3.00e-02 > tolerance 1e-03",
                          samples_s=list(HALF), eager_samples_s=list(EAGER), first_call_s=1.0).finish(1)
    return Record(workload="mlp", title="MLP", profile="cpu", device="cpu", spec={}, spec_hash="0", harness_version=1,
                  machine={"slug": "cpu-test-2c"}, versions={"torch": "2.15.0"}, date="2026-01-01T00:00:00+00:00",
                  git_commit=None, results=[eager, compiled])


def csv_row(rec: Record, mode: str) -> dict:
    return next(r for r in csv.DictReader(io.StringIO(downloads.to_csv(rec))) if r["mode"] == mode)


def test_a_mode_that_matched_eager_has_its_speedup_and_interval_in_the_csv():
    row = csv_row(record("ok"), "default")
    assert (row["speedup"], row["speedup_low"], row["speedup_high"]) == ("2.0", "2.0", "2.0")
    assert row["median_s"] == "0.0055"  # median of the halves: 0.011 / 2


@pytest.mark.parametrize("status", [s for s in STATUSES if s != "ok"])
def test_a_mode_that_is_not_ok_has_no_speedup_or_interval_in_the_csv(status):
    rec = record(status)
    assert rec.result("default").speedup is None and rec.result("default").breakeven_iters is None  # finish()
    rec.result("default").speedup = 2.0  # as a record written before finish() knew better would hold
    row = csv_row(rec, "default")
    assert row["status"] == status
    assert (row["speedup"], row["speedup_low"], row["speedup_high"]) == ("", "", "")


def test_the_json_download_of_a_mismatching_mode_carries_no_speedup_or_break_even(tmp_path):
    """The site's JSON download is the record as loaded (hooks/evc.py writes `to_json()` of it): the
    derived figures are recomputed there, and a mode that is not ok gets none, whatever the file said."""
    import json

    from eager_vs_compiled import records

    written = record("mismatch")
    raw = json.loads(written.to_json())
    raw["results"][1].update(speedup=2.0, breakeven_iters=3.0)  # a file that still carries them
    path = tmp_path / "mlp.json"
    path.write_text(json.dumps(raw))
    download = json.loads(records.load(path).to_json())["results"][1]
    assert download["status"] == "mismatch" and download["speedup"] is None and download["breakeven_iters"] is None
    assert download["samples_s"] == HALF  # the raw samples stay: they are measurements, not claims
