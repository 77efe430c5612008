"""The torch releases compared page: a column per release, changes judged against the noise."""
import re

import pytest

from eager_vs_compiled import machine, measure, stats, store
from eager_vs_compiled.pages import releases, rule
from helpers import as_steps, make_record

OTHER = dict(machine.describe(), slug="cpu-test-box", fingerprint="feedbeef", cpu="Test CPU", cores=4)


@pytest.fixture
def tmp_store(tmp_path, monkeypatch):
    """An empty store; the page layer reads it and never measures (a measurement here fails the test)."""
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))

    def never(*args, **kwargs):
        raise AssertionError("a page measured")
    monkeypatch.setattr(measure, "workload_steps", as_steps(never))
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    return tmp_path


def _release(root, version, eager, compiled):
    for name in ("mlp", "tiny_op"):
        store.save(make_record(name, machine_info=OTHER, torch_version=version, eager=eager, compiled=compiled), root)


def _header(text: str, slug: str) -> list[str]:
    section = text.split(f"(`{slug}`)", 1)[1]
    line = next(ln for ln in section.splitlines() if ln.startswith("| Workload | Mode |"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_a_third_release_adds_a_column_with_no_code_change(tmp_store):
    _release(tmp_store, "2.13.0", (0.010, 0.011, 0.012), (0.005, 0.006, 0.005))
    _release(tmp_store, "2.14.1+cpu", (0.010, 0.011, 0.012), (0.005, 0.006, 0.005))
    two = releases.compare()
    assert _header(two, "cpu-test-box") == ["Workload", "Mode", "torch 2.13.0", "torch 2.14.1", "2.14.1 vs 2.13.0"]
    _release(tmp_store, "2.15.0", (0.010, 0.011, 0.012), (0.004, 0.004, 0.004))
    three = releases.compare()
    assert _header(three, "cpu-test-box") == ["Workload", "Mode", "torch 2.13.0", "torch 2.14.1", "torch 2.15.0",
                                             "2.15.0 vs 2.14.1"]
    assert three.count('class="evc-chart"') >= 1 and "torch 2.15.0" in three.split("<svg", 1)[1]
    provenance = three.split("(`cpu-test-box`)", 1)[1]
    assert "| 2.13.0 | 2.13.0 | v" in provenance and "| history |" in provenance


def test_the_build_release_of_this_machine_is_its_own_and_older_ones_are_history(tmp_store):
    mine = machine.describe()["slug"]
    store.save(make_record("mlp", torch_version="2.0.0"), tmp_store)
    store.save(make_record("mlp"), tmp_store)  # this release's, as the prepare step measured it
    text = releases.compare()
    section = text.split(f"(`{mine}`)", 1)[1]
    assert "| 2.0.0 | 2.0.0 |" in section and "| history |" in section
    assert "| this build |" in section


def test_nothing_to_compare_says_so(tmp_store):
    _release(tmp_store, "2.15.0", (0.01,) * 3, (0.005,) * 3)
    assert "Nothing to compare yet" in releases.compare()


def test_a_difference_inside_the_noise_is_not_called_a_change():
    from eager_vs_compiled import data, stats

    def c(ratio, beyond, verdict):
        return data.Change("mlp", "eager", "median_s", 1.0, ratio, ratio, ratio, ratio, beyond, verdict)
    assert rule.said(c(1.05, False, "within the noise"), ("faster", "slower")) == "+5%, within the noise"
    assert rule.said(c(0.70, True, "faster"), ("faster", "slower")) == "**−30%: faster**"
    assert rule.said(c(1.30, True, "slower"), ("faster", "slower")) == "**+30%: slower**"
    # the rule: a change only when the interval lies wholly outside ±floor
    assert stats.ratio_change(1.00, 1.05, None, 0.10)[3] is False
    assert stats.ratio_change(1.00, 0.70, None, 0.10)[3] is True
    # A big point change whose interval reaches into the noise band is not a change either.
    assert stats.ratio_change(1.0, 1.5, [1.05, 1.5, 2.0], 0.10)[3] is False


def test_speedup_changes_use_the_paired_bootstrap_interval(tmp_store):
    steady = (0.010,) * 20
    _release(tmp_store, "2.14.1", steady, (0.005,) * 20)
    _release(tmp_store, "2.15.0", steady, (0.0025,) * 20)
    text = releases.compare()
    row = next(ln for ln in text.split("### Speedup over eager", 1)[1].splitlines() if ln.startswith("| MLP"))
    assert "2.00× (2–2)" in row and "4.00× (4–4)" in row
    assert re.search(r"\*\*\+100%: bigger speedup\*\*", row)


def test_bootstrap_interval_is_reproducible_and_contains_the_median():
    samples = [1.0, 1.1, 0.9, 1.2, 1.05, 0.95, 1.3]
    a = stats.percentile_interval(stats.boot_medians(samples, stats.seeded_rng("x")))
    b = stats.percentile_interval(stats.boot_medians(samples, stats.seeded_rng("x")))
    assert a == b and a[0] <= stats.median(samples) <= a[1]


def test_noise_floor_is_the_largest_eager_spread_between_processes():
    rec = make_record("mlp")  # two compiled modes, eager timed beside each
    rec.results[1].eager_samples_s = [0.010] * 3
    rec.results[2].eager_samples_s = [0.013] * 3
    assert releases.noise_floor([rec]) == pytest.approx(0.3)
    assert releases.noise_floor([make_record("tiny_op")]) == stats.NOISY_IQR_FRACTION


def test_two_workloads_of_one_title_are_told_apart_by_name():
    rows = [("tiny_op", "default"), ("engines_tiny_op", "default"), ("mlp", "default")]
    assert releases._title("tiny_op", rows).endswith("(<code>tiny_op</code>)")
    assert releases._title("engines_tiny_op", rows).endswith("(<code>engines_tiny_op</code>)")
    assert "<code>" not in releases._title("mlp", rows) and "<code>" not in releases._title("tiny_op", rows[:1])
