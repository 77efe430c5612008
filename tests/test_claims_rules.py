"""The rules that compute a claim's verdict from records (pages/claims.py), on records built by hand
with known intervals, a case on each side of each rule's threshold.

Eager takes 1/64 s in all 9 samples. A compiled mode of ratio r takes (1/64)/r in all 9 (r a power
of two: exact), so every bootstrap draw gives r and the interval is (r, r). A mode of ratios (a, b)
takes (1/64)/a in 5 samples and (1/64)/b in 4: the median of any 9 draws is one of the two values,
each one in over a third of the draws, so the 95% interval is exactly (min(a, b), max(a, b))."""
import pytest

from helpers import pages_read
from eager_vs_compiled.pages import claims, provenance
from eager_vs_compiled.records import ModeResult, Record

E = 2**-6
MARK = claims.COMPUTED


def record(name: str, ratios=(2,), status: str = "ok", cold_s: float | None = None,
           memory: tuple[int, int] | None = None) -> Record:
    """A record of eager and `default`: compiled at `ratios` of eager's speed (see the docstring),
    a cold compile of `cold_s` seconds (None: no first call timed), peak memory (eager, compiled)."""
    compiled = [E / ratios[0]] * 5 + [E / ratios[-1]] * 4
    eager = ModeResult("eager", "ok", samples_s=[E] * 9, peak_memory_bytes=memory[0] if memory else None).finish(1)
    # compile_cold_s = first call - median; the median is E / ratios[0] (5 of the 9 samples)
    first = None if cold_s is None else cold_s + E / ratios[0]
    default = ModeResult("default", status, samples_s=compiled, eager_samples_s=[E] * 9, first_call_s=first,
                         peak_memory_bytes=memory[1] if memory else None).finish(1)
    return Record(workload=name, title=name, profile="cpu", device="cpu", spec={}, spec_hash="0", harness_version=1,
                  machine={"slug": "cpu-test-2c"}, versions={"torch": "2.15.0"}, date="2026-01-01T00:00:00+00:00",
                  git_commit=None, results=[eager, default])


@pytest.fixture
def records(monkeypatch):
    """Put records where the rules read them: this machine's fresh records of the build context."""
    held: dict[str, Record] = {}
    pages_read(monkeypatch, held)

    def put(*recs: Record) -> list[str]:
        held.update({r.workload: r for r in recs})
        return [r.workload for r in recs]
    return put


@pytest.mark.parametrize("ratios, interval", [((2,), (2.0, 2.0)), ((1, 4), (1.0, 4.0)), ((2, 0.5), (0.5, 2.0))])
def test_the_records_of_these_tests_have_the_intervals_their_docstring_derives(ratios, interval):
    assert provenance.interval(record("w", ratios).result("default")) == interval


# --- range: inside, wholly outside, overlapping a boundary ------------------------------------------
@pytest.mark.parametrize("ratios, low, high, verdict", [
    ((2,), 2.0, 3.0, "true"),      # the interval (2, 2) touches the low end: inside
    ((2,), 2.001, 3.0, "false"),   # just above it: wholly below the range
    ((2,), 1.0, 2.0, "true"),      # touches the high end: inside
    ((2,), 1.0, 1.999, "false"),   # wholly above the range
    ((1, 4), 0.5, 8.0, "true"),
    ((1, 4), 2.0, 8.0, "depends"),  # (1, 4) overlaps the low boundary
    ((1, 4), 0.5, 2.0, "depends"),  # and the high one
    ((1, 4), 4.0, 8.0, "depends"),  # touching the range at one point is not wholly outside it
    ((1, 4), 0.5, 1.0, "depends"),
])
def test_range_rule(records, ratios, low, high, verdict):
    records(record("w", ratios))
    assert claims.range_verdict("w", low, high) == verdict + MARK
    assert claims.range_verdict("w", low, high, mode="default") == verdict + MARK


def test_range_rule_judges_the_mode_it_names_not_the_fastest(records):
    rec = record("w", (2,))
    rec.results.append(ModeResult("max-autotune", "ok", samples_s=[E / 4] * 9, eager_samples_s=[E] * 9).finish(1))
    records(rec)
    assert claims.range_verdict("w", 1.0, 3.0, mode="default") == "true" + MARK  # (2, 2)
    assert claims.range_verdict("w", 1.0, 3.0) == "false" + MARK  # the fastest: max-autotune, (4, 4)


def test_range_rule_cannot_judge_a_mode_that_did_not_match_eager(records):
    records(record("w", (2,), status="mismatch"))
    assert claims.range_verdict("w", 1.0, 3.0) == "unverifiable" + MARK
    assert claims.range_verdict("w", 1.0, 3.0, mode="default") == "unverifiable" + MARK


# --- faster: above 1x, below 1x, straddling it ---------------------------------------------------
@pytest.mark.parametrize("ratios, verdict", [
    ((2,), "true"),
    ((0.5,), "false"),
    ((2, 0.5), "depends"),
    ((1,), "depends"),       # exactly 1x is neither above nor below
    ((1, 4), "depends"),     # a low end of exactly 1x is not above 1x
    ((1, 0.25), "depends"),  # a high end of exactly 1x is not below it
])
def test_faster_rule(records, ratios, verdict):
    records(record("w", ratios))
    assert claims.faster_verdict("w") == verdict + MARK


def test_faster_rule_cannot_judge_a_mode_that_did_not_match_eager(records):
    records(record("w", (2,), status="mismatch"))
    assert claims.faster_verdict("w", mode="default") == "unverifiable" + MARK


# --- memory: more than 10 % lower, more than 10 % higher, in between ----------------------------------
@pytest.mark.parametrize("compiled_bytes, verdict", [
    (899, "true"),      # 0.899 of eager's peak: more than 10 % lower
    (900, "depends"),   # 0.9: exactly 10 % lower is not more
    (1100, "depends"),  # 1.1: exactly 10 % higher is not more
    (1101, "false"),
])
def test_memory_rule(records, compiled_bytes, verdict):
    records(record("w", memory=(1000, compiled_bytes)))
    assert claims.memory_verdict("w") == verdict + MARK


def test_memory_rule_needs_both_peaks(records):
    records(record("w"))
    assert claims.memory_verdict("w") == "unverifiable" + MARK


# --- seconds: the cold compile inside the claimed range, or outside ---------------------------------
@pytest.mark.parametrize("low, high, verdict", [
    (1.0, 3.0, "true"), (1.0, 2.999, "false"),  # a cold compile of 3 s at the high end, then above it
    (3.0, 5.0, "true"), (3.001, 5.0, "false"),  # at the low end, then below it
])
def test_seconds_rule(records, low, high, verdict):
    records(record("w", cold_s=3.0))
    assert record("w", cold_s=3.0).result("default").compile_cold_s == 3.0
    assert claims.seconds_verdict("w", low, high) == verdict + MARK


def test_seconds_rule_without_a_compile_time_or_a_matching_mode(records):
    records(record("no-first-call"), record("wrong", cold_s=3.0, status="mismatch"))
    assert claims.seconds_verdict("no-first-call", 1.0, 5.0) == "unverifiable" + MARK
    assert claims.seconds_verdict("wrong", 1.0, 5.0) == "unverifiable" + MARK


# --- usually: most workloads above the claimed speedup, most below, neither ---------------------------
@pytest.mark.parametrize("ratios, threshold, verdict", [
    ([(2,), (2,), (1,)], 1.5, "true"),              # 2 of 3 wholly above 1.5x
    ([(2,), (1,), (1,)], 1.5, "false"),             # 2 of 3 wholly below
    ([(2,), (2,), (1,), (1,)], 1.5, "depends"),     # 2 of 4 is not most
    ([(2,), (2,), (1,)], 1.999, "true"),
    ([(2,), (2,), (1,)], 2.0, "depends"),           # an interval of (2, 2) is not above 2x
    ([(2,), (1, 4), (1, 4)], 1.5, "depends"),       # intervals straddling the threshold count for neither
])
def test_usually_rule(records, ratios, threshold, verdict):
    names = records(*(record(f"w{i}", r) for i, r in enumerate(ratios)))
    assert claims.usually_verdict(names, threshold) == verdict + MARK


def test_usually_rule_counts_only_workloads_with_an_interval(records):
    names = records(record("a", (2,)), record("b", (2,)),
                    *(record(f"wrong{i}", (0.5,), status="mismatch") for i in range(3)))
    assert claims.usually_verdict(names, 1.5) == "true" + MARK  # 2 of the 2 judged; the 3 mismatches are not


# --- free: false when any workload is slower or pays a compile ----------------------------------------
@pytest.mark.parametrize("workloads, verdict", [
    ([dict(ratios=(2,)), dict(ratios=(2,), cold_s=0.0)], "true"),
    ([dict(ratios=(2,)), dict(ratios=(1,))], "true"),              # exactly 1x is not slower
    ([dict(ratios=(2,)), dict(ratios=(2,), cold_s=3.0)], "false"),  # pays a cold compile
    ([dict(ratios=(2,)), dict(ratios=(0.5,))], "false"),            # slower
    ([dict(ratios=(2,)), dict(ratios=(0.5,), cold_s=3.0, status="mismatch")], "true"),  # not a result
])
def test_free_rule(records, workloads, verdict):
    names = records(*(record(f"w{i}", **w) for i, w in enumerate(workloads)))
    assert claims.free_verdict(names) == verdict + MARK
