"""The host fit (hosts.py): how a speedup moves with the host's speed, fitted on the calibration's
processes, and each process's speedup set to the machine's usual speed, in the term, the interval, the
stop rule, the records `measure` writes and the judged sessions; a record without it reads as measured."""
import math
import statistics

import pytest

from eager_vs_compiled import data, hosts, measure, records, reruns, rounds, stats, terms
from eager_vs_compiled.records import ModeResult
from helpers import make_record
from test_schedule import child  # noqa: F401 (the faked measurement child)

REF = 1e-5  # the usual eager time per call of these runs
SLOPE = -0.5  # the speedup falls by half as much as eager's time rises (in logs), as the Xeon's tiny op


def host_run(eager_times, slope=SLOPE, usual=0.5, n=3, name="mlp"):
    """A run of `name` whose `default` ran beside eager in one process per eager time: each process's
    speedup usual * (eager time / REF) ** slope, exactly (its samples all alike)."""
    rec = make_record(name)
    e = [t for t in eager_times for _ in range(n)]
    c = [t / (usual * (t / REF) ** slope) for t in eager_times for _ in range(n)]
    procs = [{"n": n, "eager_n": n} for _ in eager_times]
    rec.results = [ModeResult("eager", "ok", samples_s=list(e), processes=[{"n": n} for _ in eager_times]),
                   ModeResult("default", "ok", samples_s=c, eager_samples_s=e, processes=procs)]
    return rec.finish()


def speeds(scale, k=8):
    """k eager times around REF * scale: a run in a stretch of the host `scale` times as slow."""
    return [REF * scale * math.exp(0.02 * (i - (k - 1) / 2)) for i in range(k)]


def test_the_fit_is_the_least_squares_slope_of_the_processes_log_ratio_on_their_log_eager_time():
    runs = {"mlp": [host_run(speeds(1.0)), host_run(speeds(1.1)), host_run(speeds(0.95))]}
    (name, mode, fit), = hosts.fit(runs)
    meds = sorted(t for s in (1.0, 1.1, 0.95) for t in speeds(s))
    assert (name, mode) == ("mlp", "default")
    assert fit.slope == pytest.approx(SLOPE) and fit.se == pytest.approx(0.0, abs=1e-9)
    assert fit.ref_s == pytest.approx(statistics.median(meds))
    # fewer processes than MIN_PROCESSES, or an eager time that never moves: no fit
    assert hosts.fit({"mlp": [host_run(speeds(1.0, k=hosts.MIN_PROCESSES - 1))]}) == ()
    assert len(hosts.fit({"mlp": [host_run(speeds(1.0, k=hosts.MIN_PROCESSES))]})) == 1
    assert hosts.fit({"mlp": [host_run([REF] * 12), host_run([REF] * 12)]}) == ()
    assert hosts.ols([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 2.0, 4.0]) == (pytest.approx(0.8), pytest.approx(math.sqrt(1.8 / 2 / 5)))


def test_a_run_in_a_slow_stretch_is_set_back_to_the_usual_speed_and_leaves_no_term():
    """Three runs in stretches 0.9x, 1x and 1.2x as slow: as measured, their speedups differ (the term is
    their spread); set to the usual speed, they agree, and nothing is left to the term."""
    runs = {"mlp": [host_run(speeds(s)) for s in (0.9, 1.0, 1.2)]}
    raw = [r.result("default").speedup for r in runs["mlp"]]
    assert raw[0] / raw[2] == pytest.approx((0.9 / 1.2) ** SLOPE, rel=1e-9)
    plain = terms.estimate(runs, "here", lambda rec, mode: terms.speedup_stat(rec, mode))
    term = terms.estimate(runs, "here")
    assert plain.sd > 0.05 and plain.hosts == () and term.sd == pytest.approx(0.0, abs=1e-6)
    # a record without a fit (all measured before them) is compared with the term of runs as measured
    assert terms.estimate(runs, "here", terms.STATS["speedup"]) == plain
    fit = term.host("mlp", "default")
    assert fit.slope == pytest.approx(SLOPE) and term.host("mlp", "max-autotune") is None
    set_back = [reruns._with_term(rec, term, True).result("default") for rec in runs["mlp"]]
    usual = 0.5 * (fit.ref_s / REF) ** SLOPE  # every process's speedup at the fit's usual time
    assert [r.speedup for r in set_back] == [pytest.approx(usual, rel=1e-9)] * 3
    assert all(r.host == hosts.as_field(fit) for r in set_back)
    lo, hi = data.speedup_interval(set_back[2])
    assert lo <= usual <= hi and hi / lo < 1.001


def test_a_record_without_a_host_fit_reads_as_it_was_measured_and_one_with_it_round_trips(tmp_path):
    rec = host_run(speeds(1.2))
    r = rec.result("default")
    e, c = r.paired_processes()
    assert r.host is None and r.speedup == statistics.median([statistics.median(a) / statistics.median(b)
                                                               for a, b in zip(e, c)])
    assert stats.log_ratios(e, c) == [math.log(statistics.median(a) / statistics.median(b)) for a, b in zip(e, c)]
    fit = stats.Host(SLOPE, 0.01, REF)
    r.host = hosts.as_field(fit)
    rec.finish()
    assert r.speedup == pytest.approx(0.5, rel=1e-9)  # each process set back to REF
    path = tmp_path / "mlp.json"
    path.write_text(rec.to_json())
    back = records.load(path).result("default")
    assert back.host == {"slope": SLOPE, "se": 0.01, "ref_s": REF} and back.speedup == r.speedup
    # the slope's own error widens the interval: se times how far the run's eager time is from REF
    var = stats.host_variance(e, fit)
    assert var == pytest.approx((0.01 * math.log(1.2)) ** 2, rel=1e-6)
    assert stats.host_variance(e, None) == 0.0


def test_the_stop_rule_reads_the_interval_set_to_the_usual_speed():
    """Processes whose speedups differ only by their host's speed: wide as measured, narrow once set to
    the usual speed, and the stop rule's half-width is the pages' own either way."""
    rec = host_run([REF * x for x in (0.8, 1.25, 0.9, 1.1, 1.0, 1.3)])
    r = rec.result("default")
    wide = rounds.half_width(None, r)
    r.host = hosts.as_field(stats.Host(SLOPE, 0.0, REF))
    narrow = rounds.half_width(None, rec.finish().result("default"))
    assert wide > 0.05 and narrow < 1e-6
    assert narrow == stats.relative_half_width(r.speedup, *data.speedup_interval(r))


def test_measure_writes_each_mode_s_host_fit_and_says_so(child, monkeypatch):  # noqa: F811
    fit = stats.Host(SLOPE, 0.04, 0.010)
    term = reruns.Term(0.004, 2, 4, "there", own=(("tiny_op", "default", 0.004),), hosts=(("tiny_op", "default", fit),))
    monkeypatch.setattr(reruns, "here", lambda: term)
    said = []
    rec = measure.measure_workload("tiny_op", "cpu", progress=said.append)
    assert rec.result("default").host == hosts.as_field(fit) and rec.result("eager").host is None
    assert rec.result("default").speedup == pytest.approx(2.5)  # eager ran at the fit's usual time
    assert any("set to the machine's usual speed" in s and "default -0.50 ±0.04" in s for s in said)
    monkeypatch.setattr(reruns, "here", lambda: term._replace(hosts=()))
    rec = measure.measure_workload("tiny_op", "cpu", progress=said.append)
    assert rec.result("default").host is None


def test_the_methodology_page_shows_each_fit_and_the_runs_before_and_after(tmp_path, monkeypatch):
    """Three calibration runs in stretches 0.9x, 1x and 1.2x as slow: the page's table shows the slope with
    a true minus sign, the usual eager time, the runs' spread as measured and none left once set back,
    in both languages; a record measured with a fit says so in its provenance line."""
    from eager_vs_compiled import experiments, machine, store
    from eager_vs_compiled.pages import hostfit, lang, provenance

    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    rel = store.release_dir(tmp_path, machine.describe()["slug"], store.release(machine.versions()["torch"]))
    for i, scale in enumerate((0.9, 1.0, 1.2), 1):
        folder = rel / experiments.CALIBRATION / f"run-{i}"
        folder.mkdir(parents=True)
        (folder / "mlp.json").write_text(host_run(speeds(scale)).to_json())
    page = hostfit.table()
    row = next(line for line in page.splitlines() if "mlp / " in line)
    spread = statistics.stdev(math.log(host_run(speeds(s)).result("default").speedup) for s in (0.9, 1.0, 1.2))
    assert f"| \u22120.50 ± 0.00 |" in row and f"±{spread:.2%} | ±0.00% |" in row, row
    assert "(\u22120.50): a process whose eager call takes 10% longer shows a speedup \u22124.7% different" in page
    with lang.using("zh"):
        zh = hostfit.table()
    assert "对 eager 耗时的斜率" in zh and "加速比相差 \u22124.7%" in zh
    rec = host_run(speeds(1.0))
    assert "usual speed" not in provenance.protocol_words(rec)
    rec.result("default").host = hosts.as_field(stats.Host(SLOPE, 0.0, REF))
    assert provenance.protocol_words(rec.finish()).endswith(", speedups set to the machine's usual speed")
