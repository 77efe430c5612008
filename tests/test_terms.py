"""What whole runs differ by (terms.py), per figure, and the comparisons of two records that add it
(data.change, data.compare, the releases page): each threshold from both sides."""
import dataclasses
import math

import pytest

from eager_vs_compiled import data, records, stats, store, terms
from eager_vs_compiled.pages import releases, rule
from eager_vs_compiled.records import ModeResult
from helpers import make_record

SLUG = "box-2c"


def run(scale: float, compile_s: float, memory: int, harness: int | None = None, torch: str = "2.15.0",
        procs=(1.0, 1.0, 1.0)) -> records.Record:
    """One calibration run of mlp on machine SLUG: eager and default each in len(procs) processes, every
    time `scale` times its base (so the run's mean log time is log(scale) plus the processes' own), a cold
    compile of `compile_s` and a peak memory of `memory` bytes."""
    rec = make_record("mlp", machine_info={"slug": SLUG, "fingerprint": "f"}, torch_version=torch)
    n = 3
    procs_meta = [{"n": n, "eager_n": n} for _ in procs]
    eager = [0.010 * scale * p for p in procs for _ in range(n)]
    mine = [0.005 * scale * p for p in procs for _ in range(n)]
    rec.results = [ModeResult("eager", "ok", samples_s=list(eager), processes=[{"n": n} for _ in procs],
                              peak_memory_bytes=memory),
                   ModeResult("default", "ok", samples_s=mine, eager_samples_s=list(eager), processes=procs_meta,
                              first_call_s=compile_s + 0.005 * scale, compile_warm_s=0.5, max_rel_err=0.0,
                              peak_memory_bytes=memory)]
    if harness is not None:
        rec.harness_version = harness
    return rec.finish()


def write_session(root, folder: str, runs: list[records.Record], rel: str = "2.15.0"):
    for i, rec in enumerate(runs, 1):
        where = store.release_dir(root, SLUG, rel) / folder / f"run-{i}"
        where.mkdir(parents=True)
        (where / "mlp.json").write_text(rec.to_json())


@pytest.fixture
def calibrated(tmp_path, monkeypatch):
    """A store whose machine SLUG has one calibration session: three runs whose times differ by 5 % (log
    sd), whose processes agree exactly (W = 0), and whose cold compiles differ by 20 %."""
    monkeypatch.setattr(terms, "roots", lambda: [tmp_path])
    terms._spreads.cache_clear()
    d, c = 0.05, 0.20
    write_session(tmp_path, "calibration", [run(math.exp(-d), 10 * math.exp(-c), 100), run(1.0, 10.0, 100),
                                            run(math.exp(d), 10 * math.exp(c), 100)])
    yield tmp_path
    terms._spreads.cache_clear()


def test_each_figure_has_the_spread_of_its_runs_beyond_what_their_processes_predict(calibrated):
    sp = terms.spreads(run(1.0, 10.0, 100))
    assert sp.time.of("mlp", "eager") == pytest.approx(0.05) and sp.time.of("mlp", "default") == pytest.approx(0.05)
    assert sp.cold.of("mlp", "default") == pytest.approx(0.20, rel=1e-3)  # one measurement a run: W = 0
    assert sp.memory.sd == 0.0 and sp.speedup.sd == pytest.approx(0.0, abs=1e-12)  # the ratio never moved
    assert sp.warm.sd == 0.0 and sp.warm.groups == 1  # the same warm compile in every run
    assert sp.of("median_s", "mlp", "eager") == sp.time.of("mlp", "eager")


def test_processes_that_differ_as_much_as_the_runs_leave_no_term_for_the_time(tmp_path, monkeypatch):
    monkeypatch.setattr(terms, "roots", lambda: [tmp_path])
    terms._spreads.cache_clear()
    wide = (math.exp(-0.05), math.exp(0.05), math.exp(-0.05), math.exp(0.05))
    write_session(tmp_path, "calibration", [run(1.0, 10.0, 100, procs=wide), run(1.0, 10.0, 100, procs=wide[::-1])])
    assert terms.spreads(run(1.0, 10.0, 100)).time.sd == 0.0
    terms._spreads.cache_clear()


def test_a_record_gets_the_calibration_of_its_own_harness_and_falls_back_to_another_release(tmp_path, monkeypatch):
    monkeypatch.setattr(terms, "roots", lambda: [tmp_path])
    terms._spreads.cache_clear()
    narrow = [run(math.exp(d), 10.0, 100) for d in (-0.01, 0.0, 0.01)]
    wide = [run(math.exp(d), 10.0, 100, harness=5) for d in (-0.04, 0.0, 0.04)]
    write_session(tmp_path, "calibration", narrow)
    write_session(tmp_path, "calibration-harness5", wide)
    assert terms.spreads(run(1.0, 10.0, 100)).time.sd == pytest.approx(0.01)
    older = run(1.0, 10.0, 100, harness=5, torch="2.14.1")  # no calibration of 2.14.1: the machine's other release
    assert terms.spreads(older).time.sd == pytest.approx(0.04)
    assert terms.spreads(older).time.source.endswith("calibration-harness5")
    assert terms.spreads(run(1.0, 10.0, 100, harness=2)) == terms.NO_SPREADS  # no calibration of that harness
    assert terms.spreads(dataclasses.replace(older, machine={"slug": "another"})) == terms.NO_SPREADS
    terms._spreads.cache_clear()


def pair(old_compile: float, new_compile: float, new_scale: float = 1.0):
    return run(1.0, old_compile, 100), run(new_scale, new_compile, 100)


@pytest.mark.parametrize("new_compile, beyond", [(10 * math.exp(0.70), True), (10 * math.exp(0.40), False)])
def test_a_compile_time_is_a_change_only_beyond_what_two_runs_differ_by(calibrated, new_compile, beyond):
    """The term is 20 % a run: two runs differ by sqrt(2) * 20 % = 28 % (sd), so the ratio's 95 % interval
    reaches 1.96 * 0.283 = 0.554 in log: a log ratio of 0.70 leaves out parity, 0.40 does not."""
    old, new = pair(10.0, new_compile)
    c = data.change(old, new, "default", "compile_cold_s", 0.0)
    assert c.ratio == pytest.approx(new_compile / 10.0, rel=1e-3) and c.beyond_noise is beyond
    assert c.verdict == ("slower compile" if beyond else "within the noise")
    assert math.log(c.high / c.ratio) == pytest.approx(1.96 * 0.2 * math.sqrt(2), rel=0.02)


def test_without_a_calibration_a_figure_measured_once_keeps_the_noisy_threshold():
    old, new = pair(10.0, 10.0 * (1 + stats.NOISY_IQR_FRACTION / 2))
    assert data.change(old, new, "default", "compile_cold_s", 0.0).beyond_noise is False
    old, new = pair(10.0, 10.0 * (1 + 2 * stats.NOISY_IQR_FRACTION))
    assert data.change(old, new, "default", "compile_cold_s", 0.0).beyond_noise is True


@pytest.mark.parametrize("scale, beyond", [(math.exp(0.16), True), (math.exp(0.12), False)])
def test_a_time_per_call_is_a_change_only_beyond_what_two_runs_differ_by(calibrated, scale, beyond, monkeypatch):
    """Processes that agree exactly and a time term of 5 %: the interval is 1.96 * sqrt(2) * 5 % = 0.139 in log."""
    old, new = pair(10.0, 10.0, new_scale=scale)
    c = data.change(old, new, "eager", "median_s", 0.0)
    assert c.beyond_noise is beyond and c.verdict == ("slower" if beyond else "within the noise")
    # without the calibration, the same two records differ beyond their processes' noise in both cases
    monkeypatch.setattr(terms, "roots", lambda: [])
    terms._spreads.cache_clear()
    assert data.change(old, new, "eager", "median_s", 0.0).verdict == "slower"


def test_a_speedup_whose_record_carries_its_term_gets_it_once(calibrated, tmp_path):
    rec = run(1.0, 10.0, 100)
    assert data.run_term(rec, "default", "speedup") == terms.spreads(rec).speedup.of("mlp", "default")
    rec.result("default").run_sd = 0.01
    assert data.run_term(rec, "default", "speedup") == 0.0
    assert data.run_term(rec, "no-such-mode", "median_s") == 0.0


def test_the_releases_page_says_what_data_change_says(calibrated, monkeypatch):
    old, new = pair(10.0, 10 * math.exp(0.40))
    machine = releases.Machine(SLUG, ["2.14.1", "2.15.0"], {"2.14.1": {"mlp": old}, "2.15.0": {"mlp": new}}, None)
    cold = next(m for m in releases.METRICS if m.key == "compile_cold_s")
    table, changes = releases.metric_table(machine, cold, 0.0)
    assert changes == [("mlp", "default", pytest.approx(math.exp(0.40), rel=1e-3), False)]
    assert "+49% (−14% to +159%), within the noise" in table  # exp(0.40 ± 1.96 * sqrt(2) * 0.20)
    c = data.change(old, new, "default", "compile_cold_s", 0.0)._replace(low=1.1, high=2.0, beyond_noise=True,
                                                                          verdict="slower compile")
    assert rule.said(c, cold.words) == "**+49% (+10% to +100%): slower compile**"


@pytest.mark.parametrize("same_record", [True, False])
def test_two_recipes_of_two_runs_are_compared_with_what_runs_differ_by(calibrated, same_record):
    """The recipe page's rule (recipe.versus): 20 % apart with processes that agree exactly is a clear
    difference inside one run; across two runs of a machine whose times move 5 % a run it still is (the
    interval reaches 1.96 * sqrt(2) * 5 % = 14 %), but 10 % apart is not."""
    from eager_vs_compiled.pages import recipe

    base = run(1.0, 10.0, 100)
    for gap, across in ((math.exp(0.20), "faster"), (math.exp(0.10), "within the noise")):
        other = base if same_record else run(gap, 10.0, 100)
        slow = dataclasses.replace(base.result("default"), mode="slow") if same_record else other.result("default")
        if same_record:
            slow.samples_s = [s * gap for s in slow.samples_s]
            slow.finish(1)
        said = recipe.versus(base.result("default"), base, slow, other, 0.0)[3]
        assert said == ("faster" if same_record else across)


def test_a_time_shown_alone_holds_what_a_rerun_adds_where_the_machine_has_a_calibration(calibrated, monkeypatch):
    """The engines page's latency and the releases page's cells: processes that agree exactly give a
    point-wide interval; with the machine's 5 % time term, 1.96 * 5 % in log on each side."""
    from eager_vs_compiled.pages import engines

    rec = run(1.0, 10.0, 100)
    lo, hi = stats.percentile_interval(data.rerun_distribution(rec, "eager", "median_s", ("k",)))
    assert math.log(hi / 0.010) == pytest.approx(1.96 * 0.05, rel=0.02) and lo < 0.010 < hi
    assert engines._time(rec.result("eager"), rec) == "10 ms (9.06 ms–11 ms)"
    monkeypatch.setattr(terms, "roots", lambda: [])
    terms._spreads.cache_clear()
    assert stats.percentile_interval(data.rerun_distribution(rec, "eager", "median_s", ("k",))) == (0.010, 0.010)
    assert data.rerun_distribution(rec, "eager", "compile_cold_s", ("k",)) is None  # one measurement: no distribution


def test_calibrate_reports_what_its_runs_differ_by_in_every_figure(capsys, tmp_path):
    from eager_vs_compiled import machine
    from helpers import RELEASE, cli

    slug, d, c = machine.describe()["slug"], 0.05, 0.20
    for i, rec in enumerate([run(math.exp(-d), 10 * math.exp(-c), 100), run(1.0, 10.0, 100),
                             run(math.exp(d), 10 * math.exp(c), 100)], 1):
        where = store.release_dir(tmp_path, slug, RELEASE) / "calibration" / f"run-{i}"
        where.mkdir(parents=True)
        (where / "mlp.json").write_text(rec.to_json())
    code, out, _ = cli(capsys, "calibrate", "--report", "--out", str(tmp_path))
    assert code == 0 and ("time per call ±5.0%, cold compile ±20.0%, warm compile ±0.0%, peak memory ±0.0%") in out


def test_the_rule_reads_as_chinese_and_its_table_has_its_provenance(calibrated):
    from eager_vs_compiled.pages import lang, rule

    old, new = pair(10.0, 10.0)
    machine = releases.Machine(SLUG, ["2.14.1", "2.15.0"], {"2.14.1": {"mlp": old}, "2.15.0": {"mlp": new}}, None)
    text = rule.rule(machine, 0.0)
    assert "runs. So each change" not in text and "parity. Two releases" in text and "{: .evc-provenance }" in text
    with lang.using("zh"):
        zh = rule.rule(machine, 0.0)
    assert "。两个版本" in zh and "。 " not in zh and "±5.0%" in zh


def test_a_percentage_keeps_the_side_of_zero_it_is_on():
    from eager_vs_compiled.pages import rule

    assert [rule.pct(r) for r in (0.7, 1.0, 1.003, 0.9996, 1.25)] == ["−30%", "+0%", "+0.3%", "−0.04%", "+25%"]


def test_a_change_reads_as_chinese():
    from eager_vs_compiled.pages import lang, rule

    c = data.Change("mlp", "eager", "median_s", 1.0, 1.3, 1.3, 1.1, 1.5, True, "slower")
    with lang.using("zh"):
        assert rule.said(c, ("faster", "slower")) == "**+30%（+10% 至 +50%）：更慢**"
