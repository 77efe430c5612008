"""The shared words and lines of every page (pages/provenance.py), on known inputs: units, escaping,
the words that follow a speedup's interval, the provenance line of a record, tabs and the markers a
page carries. The expected text is written out by hand."""
import json

import pytest

from eager_vs_compiled import machine, store
from eager_vs_compiled.pages import provenance as p
from eager_vs_compiled.pages.lang import using
from eager_vs_compiled.records import ModeResult, Record
from eager_vs_compiled.rounds import HARNESS_VERSION

BOX = {"slug": "cpu-test-2c", "cpu": "Test CPU", "cores": 2, "fingerprint": "f00d"}


def result(mode="default", status="ok", compiled=(0.005, 0.005, 0.005), eager=(0.010, 0.010, 0.010), **kw) -> ModeResult:
    return ModeResult(mode, status, samples_s=list(compiled), eager_samples_s=list(eager), first_call_s=2.0, **kw).finish(1)


def record(results=None, box=BOX, date="2026-01-02T03:04:05+00:00", torch="2.15.0", **kw) -> Record:
    fields = dict(workload="mlp", title="MLP", profile="cpu", device="cpu",
                  spec={"sizes": {"batch": 64, "features": 512}, "dtype": "float32", "step": "inference"},
                  spec_hash="abc", harness_version=2, machine=box, versions={"torch": torch, "python": "3.11.7"},
                  date=date, git_commit=None,
                  results=results if results is not None else [ModeResult("eager", "ok", samples_s=[0.01]).finish(1)])
    fields.update(kw)
    return Record(**fields)


# --- units -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seconds, text", [
    (None, "—"), (1.0, "1 s"), (1.5, "1.5 s"), (123.4, "123 s"), (1234.0, "1234 s"), (0.0123, "12.3 ms"), (0.001, "1 ms"),
    (0.1234, "123 ms"), (0.00099, "990 µs"), (2.5e-6, "2.5 µs"), (5e-7, "0.5 µs"), (0.0, "0 µs"),
])
def test_times_are_shown_in_the_largest_unit_with_three_digits(seconds, text):
    assert p.fmt_time(seconds) == text


@pytest.mark.parametrize("size, text", [
    (None, "—"), (2**30, "1.00 GiB"), (3 * 2**29, "1.50 GiB"), (2**30 - 2**20, "1023 MiB"), (5 * 2**20, "5 MiB"),
])
def test_bytes_are_shown_in_gib_from_one_gib_and_mib_below(size, text):
    assert p.fmt_bytes(size) == text


# --- escaping ----------------------------------------------------------------------------------------
def test_record_text_is_escaped_to_one_line_of_literal_markdown():
    hostile = '<b a="1">x</b> | [y](javascript:alert(1))\n\t\'z\''
    want = "&lt;b a=&quot;1&quot;&gt;x&lt;/b&gt; &#124; &#91;y&#93;(javascript:alert(1)) &#x27;z&#x27;"
    assert p.esc(hostile) == want and p.cell(hostile) == want
    assert p.code("a<b") == "<code>a&lt;b</code>"
    assert p.esc(3) == "3"


def test_a_fence_is_longer_than_any_run_of_backticks_inside():
    assert p.fence("plain") == "````text\nplain\n````\n"
    assert p.fence("a ````` b", "python") == "``````python\na ````` b\n``````\n"


# --- machines ----------------------------------------------------------------------------------------
def test_a_machine_is_named_by_its_label_and_its_slug_in_each_language():
    assert p.machine_label(BOX) == "Test CPU, 2 cores"
    assert p.machine_words({**BOX, "cpu": "<Fast>"}) == "**&lt;Fast&gt;, 2 cores** (<code>cpu-test-2c</code>)"
    assert p.machine_words({}) == "**?, ? cores** (<code>?</code>)"
    gpu = {**BOX, "gpus": [{"name": "H200"}, {"name": "H200"}]}
    with using("zh"):
        assert p.machine_label(BOX) == "Test CPU，2 核"
        assert p.machine_label({}) == "?，? 核"
        assert p.machine_label(gpu) == "H200 ×2"
    assert p.label({**BOX, "cpu": "A&B"}) == "A&amp;B, 2 cores"


def test_a_tab_indents_its_body_under_its_label():
    assert p.tab("Box", "line 1\nline 2") == '=== "Box"\n\n    line 1\n    line 2\n'


def test_the_tab_of_this_machine_says_this_build_and_others_committed():
    mine = {**BOX, "slug": machine.describe()["slug"]}
    here = dict(box=mine, harness_version=HARNESS_VERSION, torch=machine.versions()["torch"])
    assert p.tab_label(mine["slug"], [record(**here)]) == "Test CPU, 2 cores (this build)"
    assert p.tab_label("cpu-test-2c", [record()]) == "Test CPU, 2 cores (committed)"
    # this machine's record of an older harness or torch release is committed history, not this build's
    assert p.tab_label(mine["slug"], [record(**{**here, "harness_version": 2})]) == "Test CPU, 2 cores (committed)"
    assert p.tab_label(mine["slug"], [record(**{**here, "torch": "2.9.1"})]) == "Test CPU, 2 cores (committed)"
    mixed = [record(**here), record(**{**here, "harness_version": 2})]  # an overview chart of this machine
    assert p.tab_label(mine["slug"], mixed) == "Test CPU, 2 cores (this build)"


# --- the words a speedup earns -----------------------------------------------------------------------
def test_only_a_finished_checked_timed_mode_is_ok():
    assert p.ok(result()) and not p.ok(None)
    assert not p.ok(result(status="mismatch"))
    assert not p.ok(ModeResult("default", "ok"))  # no samples, no time


def test_the_best_mode_is_the_fastest_ok_compiled_one():
    fast = result("max-autotune", compiled=(0.0025,) * 3)  # 4.00×
    slow = result("default")  # 2.00×
    wrong = result("reduce-overhead", status="mismatch", compiled=(0.001,) * 3)
    eager = ModeResult("eager", "ok", samples_s=[0.01], speedup=9.0)
    assert p.best(record([eager, slow, fast, wrong])) is fast
    assert p.best(record([eager, slow])) is slow
    assert p.best(record([eager, wrong])) is None


@pytest.mark.parametrize("compiled, words, shown, calls", [
    ((0.005,) * 3, "faster", "**2.00×** (2.00–2.00)", "399 calls"),  # (2 s - 5 ms) / 5 ms saved per call
    ((0.020,) * 3, "slower", "**0.50×** (0.50–0.50)", "never (slower)"),
    ((0.010,) * 3, "no measurable difference", "**1.00×** (1.00–1.00)", "— (no measurable difference)"),
])
def test_the_words_and_the_break_even_follow_the_interval(compiled, words, shown, calls):
    r = result(compiled=compiled)
    assert p.direction(r) == words and p.verdict(r) == words
    assert p.speedup(r) == shown and p.speedup(r, bold=False) == shown.replace("**", "")
    assert p.breakeven(r) == calls


@pytest.mark.parametrize("ci, words, shown", [
    # a bound that two decimals would print as 1.00 gets the digits that put it on its side of 1
    ((0.972, 0.9962), "slower", "0.98× (0.97–0.996)"),
    ((0.972, 1.0004), "no measurable difference", "0.98× (0.97–1.0004)"),
    ((1.0031, 1.04), "faster", "1.02× (1.003–1.04)"),
    ((0.9994, 1.04), "no measurable difference", "1.02× (0.999–1.04)"),
    ((0.994, 1.006), "no measurable difference", "1.02× (0.99–1.01)"),
    ((0.982, 0.998), "slower", "0.997× (0.98–0.998)"),  # the point too: not 1.00× beside "slower"
])
def test_a_bound_near_one_is_printed_on_the_side_its_words_say(ci, words, shown, monkeypatch):
    point = float(shown.split("×")[0])
    r = result(compiled=(0.010 / point,) * 3)
    monkeypatch.setattr(p, "interval", lambda _r: ci)
    assert p.direction(r) == words and p.speedup(r, bold=False) == shown
    low, high = (float(v) for v in shown.split("(")[1].rstrip(")").split("–"))
    assert (low > 1, high < 1) == (words == "faster", words == "slower")  # as printed, as said


@pytest.mark.parametrize("value, text", [
    (0.996, "0.996"), (1.004, "1.004"), (0.9996, "0.9996"), (1.00004, "1.00004"),
    (0.994, "0.99"), (1.006, "1.01"), (1.0, "1.00"), (0.97, "0.97"), (12.345, "12.35"),
])
def test_a_ratio_is_printed_with_two_decimals_unless_they_would_round_it_onto_one(value, text):
    from eager_vs_compiled.pages.ratios import ratio, with_interval

    assert ratio(value) == text
    assert with_interval(0.98, 0.97, value) == f"0.98× (0.97–{text})"


def test_the_break_even_is_written_with_thousands_separators():
    r = result(compiled=(0.009,) * 3)  # 1 ms saved per call, 2 s - 9 ms to repay: 1,991 calls
    assert p.breakeven(r) == "1,991 calls"


def test_without_an_interval_there_are_no_words():
    alone = ModeResult("default", "ok", samples_s=[0.005], speedup=2.0)  # no eager beside it
    assert p.direction(alone) is None and p.verdict(alone) == "—" and p.breakeven(alone) == "—"
    assert p.speedup(alone) == "**2.00×**"
    assert p.speedup(ModeResult("default", "ok")) == "—"
    faster_no_breakeven = result()
    faster_no_breakeven.breakeven_iters = None
    assert p.breakeven(faster_no_breakeven) == "—"


def test_the_words_in_chinese():
    with using("zh"):
        assert p.verdict(result()) != "faster" and p.breakeven(result(compiled=(0.02,) * 3)) != "never (slower)"


# --- provenance lines ----------------------------------------------------------------------------------
def test_span_is_one_day_or_a_range_and_the_torch_versions():
    one = record(date="2026-01-02T03:04:05+00:00")
    later = record(date="2026-03-04T00:00:00+00:00", torch="2.14.1")
    assert p.span([one, one]) == ("2026-01-02", "2.15.0")
    assert p.span([later, one]) == ("2026-01-02 to 2026-03-04", "2.14.1, 2.15.0")
    middle = record(date="2026-02-01T00:00:00+00:00", versions={})
    assert p.span([later, middle, one]) == ("2026-01-02 to 2026-03-04", "2.14.1, 2.15.0, ?")


def test_the_stamp_under_a_chart_names_machine_days_torch_profile_and_what(monkeypatch):
    monkeypatch.setattr(p, "shown", lambda r: f"<m {r.date[:10]}>")
    recs = [record(), record(date="2026-01-05T00:00:00+00:00")]
    assert p.stamp(recs, "all modes") == (
        "Measured on **Test CPU, 2 cores** (<code>cpu-test-2c</code>) · 2026-01-02 to 2026-01-05 · torch 2.15.0 · "
        "cpu profile; all modes\n{: .evc-provenance }\n<m 2026-01-02><m 2026-01-05>")
    assert p.stamp(recs[:1]).endswith("; conditions of each workload beside its table on its family page"
                                      "\n{: .evc-provenance }\n<m 2026-01-02>")


def test_the_record_line_names_everything_a_number_depends_on():
    r1 = result(threads=2)
    r2 = result("max-autotune", compiled=(0.004,) * 5, threads=4)
    rec = record([ModeResult("eager", "ok", samples_s=[0.01] * 7).finish(64), r1, r2], git_commit="0123abcd",
                 spec={"sizes": {"batch": 64, "features": 512}, "dtype": "float32", "layout": "channels_last",
                       "step": "inference", "how": "torch.no_grad()"})
    assert p.record_line(rec, page=False) == (
        "Measured on **Test CPU, 2 cores** (<code>cpu-test-2c</code>) · 2026-01-02 · torch 2.15.0 · "
        "Python 3.11.7 · 2/4 threads · n = 3–7 samples per mode · one process per mode, eager timed beside it · cpu profile (batch 64, features 512, float32, "
        "channels_last, inference: torch.no_grad()) · harness v2, commit <code>0123abcd</code>")
    cuda = record(device="cuda", versions={"torch": "2.15.0", "python": "3.12", "cuda": "13.0"},
                  results=[ModeResult("eager", "skipped")])
    assert p.record_line(cuda, page=False) == (
        "Measured on **Test CPU, 2 cores** (<code>cpu-test-2c</code>) · 2026-01-02 · torch 2.15.0, CUDA 13.0 · "
        "Python 3.12 · no samples · cpu profile (batch 64, features 512, float32, contiguous, inference) · harness v2")
    assert p.record_line(record(spec={}), page=False).endswith(
        " · n = 1–1 samples per mode · one process per mode, eager timed beside it · cpu profile (, None, contiguous, None) · harness v2")  # a spec without sizes
    on_page = p.record_line(cuda)
    assert on_page.startswith(p.record_line(cuda, page=False) + "\n{: .evc-provenance }\n")
    assert p.markers(on_page) == [{"kind": "measured", "machine": "cpu-test-2c", "date": "2026-01-02T03:04:05+00:00",
                                   "torch": "2.15.0", "key": "cpu-test-2c/mlp", "mine": False}]


def test_the_note_on_skipped_records_names_each_file_relative_to_the_store(monkeypatch, tmp_path):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    monkeypatch.setattr(store, "SKIPPED", {})
    assert p.skipped_note() == ""
    monkeypatch.setattr(store, "SKIPPED", {str(tmp_path / "box" / "torch-2.15.0" / "b.json"): "newer <schema>",
                                           "/elsewhere/a.json": "unreadable",
                                           str(tmp_path / "box" / "x.svg"): "not a record"})
    assert p.skipped_note() == (
        '\n!!! warning "Committed records skipped"\n    These records of other machines cannot be read by this '
        "version of the site, so they are not shown:\n\n"
        "    - `/elsewhere/a.json`: unreadable\n"
        "    - `box/torch-2.15.0/b.json`: newer &lt;schema&gt;\n")
    assert p.skipped_note(".svg") == (
        '\n!!! warning "Committed records skipped"\n    These records of other machines cannot be read by this '
        "version of the site, so they are not shown:\n\n    - `box/x.svg`: not a record\n")


# --- markers -----------------------------------------------------------------------------------------
def test_a_marker_is_an_inert_comment_that_reads_back_unchanged():
    hostile = record(box={**BOX, "slug": "a-->b<[`&]>"})
    text = p.shown(hostile)
    assert text.startswith("\n<!-- evc:shown {") and text.endswith("} -->\n")
    assert "-->" not in text[:-5] and not set("<>&[]`") & set(text[len("\n<!-- evc:shown "):-len(" -->\n")])
    assert p.markers(text) == [{"kind": "measured", "machine": "a-->b<[`&]>", "date": "2026-01-02T03:04:05+00:00",
                                "torch": "2.15.0", "key": "a-->b<[`&]>/mlp", "mine": False}]
    assert p.markers(text.replace('"', "&quot;")) == p.markers(text)  # as an HTML page may carry it
    assert json.loads(text.split("evc:shown ", 1)[1].rsplit(" -->", 1)[0]) == p.markers(text)[0]  # sorted, plain JSON


def test_a_record_of_this_machine_and_release_is_marked_mine():
    me = {**BOX, "slug": machine.describe()["slug"]}
    this_torch = machine.versions()["torch"]
    assert p.markers(p.shown(record(box=me, torch=this_torch + "+local")))[0]["mine"] is True
    assert p.markers(p.shown(record(box=me, torch="1.13.0")))[0]["mine"] is False
    assert p.markers(p.shown(record(box=me, versions={})))[0]["mine"] is False  # no torch: not this release
    assert p.markers(p.shown(record(box={}, versions={})))[0] == {
        "kind": "measured", "machine": "?", "date": "2026-01-02T03:04:05+00:00", "torch": "?", "key": "None/mlp",
        "mine": False}


class Run:
    def __init__(self, skipped="", cached=False):
        self.skipped, self.cached = skipped, cached
        self.machine, self.date, self.torch, self.path = "box", "2026-02-03T00:00:00", "2.15.0", "how-to/x.py"


@pytest.mark.parametrize("run, how", [(Run(), "ran"), (Run(cached=True), "cached"), (Run(skipped="cuda"), "skipped")])
def test_a_snippet_marker_says_whether_it_ran_came_from_the_cache_or_was_skipped(run, how):
    assert p.markers(p.shown_run(run)) == [{"kind": "ran", "machine": "box", "date": "2026-02-03T00:00:00",
                                            "torch": "2.15.0", "key": "how-to/x.py", "how": how}]


def test_a_capture_marker_names_its_snippet_with_question_marks_for_what_it_lacks():
    assert p.markers(p.shown_capture({"snippet": "t/x.py", "machine": "gpu", "date": "2026", "torch": "2.11.0"})) == [
        {"kind": "captured", "machine": "gpu", "date": "2026", "torch": "2.11.0", "key": "t/x.py"}]
    assert p.shown_capture({}) == (  # the keys sorted: a rebuild writes the same bytes
        '\n<!-- evc:shown {"date": "?", "key": "?", "kind": "captured", "machine": "?", "torch": "?"} -->\n')


def test_the_footer_says_where_and_when_each_kind_of_content_was_produced():
    shown = [
        {"kind": "measured", "machine": "box", "date": "2026-01-05T00:00", "torch": "2.15.0"},
        {"kind": "measured", "machine": "box", "date": "2026-01-02T00:00", "torch": "2.15.0"},
        {"kind": "measured", "machine": "gpu", "date": "2026-01-03T00:00", "torch": "2.11.0"},
        {"kind": "ran", "machine": "box", "date": "2026-02-01T00:00", "torch": "2.15.0", "how": "ran"},
        {"kind": "ran", "machine": "gpu", "date": "2026-02-01T00:00", "torch": "2.15.0", "how": "skipped"},
        {"kind": "captured", "machine": "<gpu>", "date": "2025-12-31T00:00", "torch": "2.11.0"},
    ]
    assert p.freshness("me", "2.15.0", "2026-02-02", shown) == (
        "Numbers measured on box (2026-01-02 to 2026-01-05, torch 2.15.0); on gpu (2026-01-03, torch 2.11.0). "
        "Snippets run on box (2026-02-01, torch 2.15.0). "
        "Errors captured on &lt;gpu&gt; (2025-12-31, torch 2.11.0). Built 2026-02-02 on me with torch 2.15.0.")
    assert p.freshness("me", "2.15.0", "2026-02-02", shown[3:4]) == (  # no numbers, but a snippet run
        "Snippets run on box (2026-02-01, torch 2.15.0). Built 2026-02-02 on me with torch 2.15.0.")
    assert p.freshness("me", "2.15.0", "2026-02-02", shown[4:5]) == (
        "No measured numbers on this page. Built 2026-02-02 on me with torch 2.15.0.")
