import re


from eager_vs_compiled import machine, records, store
from eager_vs_compiled.pages import benchmarks, context, home, provenance, tables
from helpers import make_record


def test_table_has_every_column_and_a_provenance_line():
    text = tables.table(make_record("mlp"))
    for column in tables.HEADER:
        assert column in text
    assert "<code>max-autotune</code>" in text and "2.20×" in text  # 11 ms / 5 ms
    assert "Measured on" in text and machine.describe()["slug"] in text and "n = 3–3" in text
    assert "torch " + machine.versions()["torch"] in text


def test_failed_mode_shows_its_status_and_no_number():
    rec = make_record("mlp")
    rec.results[1] = records.ModeResult("default", "error", message="BackendCompilerFailed: boom | x")
    row = [line for line in tables.table(rec).splitlines() if line.startswith("| <code>default</code>")][0]
    assert "**error**: BackendCompilerFailed: boom &#124; x" in row
    assert not re.search(r"\d+(\.\d+)? (ms|s|µs)", row)


def test_time_formatting_picks_a_readable_unit():
    assert provenance.fmt_time(0.000123) == "123 µs"
    assert provenance.fmt_time(0.0456) == "45.6 ms"
    assert provenance.fmt_time(12.5) == "12.5 s"
    assert provenance.fmt_time(None) == "—"


def test_workload_section_shows_other_machines_in_their_own_tab(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    context.use(context.BuildContext.of_this_machine())  # a build of its own
    store.save(make_record("mlp"), tmp_path)
    other = dict(machine.describe(), slug="gpu-test-box", fingerprint="0123", gpus=[{"name": "Test GPU"}])
    store.save(make_record("mlp", machine_info=other), tmp_path)
    text = benchmarks.workload("mlp")
    assert '=== "Test GPU (committed)"' in text and "(this build)" in text
    assert text.count("Measured on") == 2


def test_corrupt_record_of_another_machine_is_left_out_with_a_note_naming_it(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    context.use(context.BuildContext.of_this_machine())  # a build of its own
    monkeypatch.setattr(store, "SKIPPED", {})
    store.save(make_record("mlp"), tmp_path)
    bad = tmp_path / "other-box" / "torch-2.15.0" / "mlp.json"
    bad.parent.mkdir(parents=True)
    bad.write_text("[]")
    text = benchmarks.workload("mlp")
    assert text.count("Measured on") == 1 and "Committed records skipped" in text
    assert "other-box/torch-2.15.0/mlp.json" in text and "top level is not an object" in text


def test_chart_is_inline_svg_that_follows_the_colour_scheme(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    context.use(context.BuildContext.of_this_machine())  # a build of its own
    store.save(make_record("mlp"), tmp_path)
    svg = home.speedup_chart(["mlp"])
    assert svg.count("<svg") == 1 and "currentColor" in svg and 'role="img"' in svg
    assert "#010101" not in svg and "<metadata" not in svg
    assert not re.search(r"(href|src)=\"https?:|url\(https?:", svg)  # nothing fetched: works offline
    assert "mlp · default" in svg and "2.20×" in svg


def test_table_warns_when_eager_differs_between_processes():
    steady = make_record("mlp", eager=(0.010, 0.010, 0.010))
    assert "differed between processes" not in tables.table(steady)
    drifting = make_record("mlp", eager=(0.010, 0.010, 0.010))
    drifting.results[0] = records.ModeResult("eager", "ok", samples_s=[0.02, 0.02, 0.02]).finish(64)
    assert "Eager's median differed between processes on this machine (10 ms to 20 ms)" in tables.table(drifting)


def test_freshness_stamp_names_each_source_with_its_dates_and_torch():
    shown = [dict(kind=k, machine=m, date=d, torch=t) for k, m, d, t in (
        ("measured", "cpu-a", "2026-11-30T10:00:00+00:00", "2.14.1"), ("measured", "cpu-a", "2026-12-02", "2.14.1"),
        ("measured", "gpu-h200", "2026-12-01", "2.11.0"), ("ran", "cpu-a", "2026-12-02", "2.14.1"))]
    stamp = provenance.freshness("cpu-a", "2.14.1", "2026-12-02", shown)
    assert stamp.startswith("Numbers measured on cpu-a (2026-11-30 to 2026-12-02, torch 2.14.1); "
                            "on gpu-h200 (2026-12-01, torch 2.11.0). Snippets run on cpu-a")
    assert stamp.endswith("Built 2026-12-02 on cpu-a with torch 2.14.1.")
    assert provenance.freshness("cpu-a", "2.14.1", "2026-12-02", []).startswith("No measured numbers")


def test_every_number_a_page_shows_carries_a_marker_the_footer_reads():
    rec = make_record("mlp")
    text = tables.table(rec)
    [mark] = provenance.markers(text)
    assert mark == {"kind": "measured", "machine": machine.describe()["slug"], "date": rec.date,
                    "torch": rec.versions["torch"], "key": f"{machine.describe()['slug']}/mlp", "mine": True}
    assert provenance.markers(text.replace('"', "&quot;")) == [mark]  # as it reads once HTML-escaped
    assert "Numbers measured on" in provenance.freshness("x", "y", "z", provenance.markers(text))
