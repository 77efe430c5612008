"""Failure injection: each fault gives a clear error or a visible "not measured", never a wrong
number, and never loses what was already recorded. Every fault we inject, and where:

 1. a snippet that raises ................ test_site::test_a_failing_directive_stops_the_build_naming_page_and_line
 2. a snippet that hangs ................. test_snippets::test_a_hanging_snippet_times_out
 3. a directive naming a missing snippet . test_site::test_a_failing_directive_stops_the_build_naming_page_and_line
 4. a corrupt record of this machine ..... test_measure::test_corrupt_record_of_this_machine_is_an_error_not_a_number
 5. a record of an unknown schema ........ test_records::test_untrustworthy_record_is_rejected_by_name
 6. a notebook cell that raises .......... here
 7. a measurement out of memory .......... here (the kernel's OOM killer, simulated)
 8. an unknown workload on the CLI ....... test_cli::test_unknown_workload_exits_2_and_lists_the_valid_ones
 9. a read-only measurements folder ...... here
10. two builds writing records at once ... here
11. a field of the wrong type or range ... test_records::test_a_field_of_the_wrong_type_or_range_is_a_record_error_naming_it
12. a derived figure edited by hand ...... test_records::test_derived_figures_are_recomputed_from_the_samples_never_trusted
13. <script> or <...> in a record ........ test_rebuilds::test_record_text_is_escaped_on_the_page
14. backticks in a snippet's output ...... test_rebuilds::test_a_snippet_output_with_backticks_gets_a_longer_fence
15. another machine's unreadable record .. test_rebuilds::test_an_unreadable_record_of_another_machine_is_skipped_and_named
16. this machine's unreadable record ..... test_rebuilds::test_an_unreadable_record_of_this_machine_is_still_an_error
17. ten megabytes of snippet output ...... test_rebuilds::test_a_huge_snippet_output_is_capped_and_says_how_much_was_cut
18. NaN in a compiled output ............. test_rebuilds::test_a_nan_in_the_compiled_output_is_a_mismatch_that_can_be_saved
19. a truncated child result ............. test_rebuilds::test_a_truncated_child_result_is_that_modes_crash_and_the_suite_goes_on
20. Ctrl-C and SIGTERM during measure .... test_rebuilds::test_an_interrupted_measure_stops_kills_its_child_and_keeps_finished_records
21. modes skipped for the time budget .... test_rebuilds::test_modes_skipped_for_the_budget_are_measured_next_time_and_the_rest_is_kept
22. a budget far below the plan .......... test_rebuilds::test_the_cli_warns_when_the_budget_is_far_below_its_own_estimate
23. some modes failed .................... test_rebuilds::test_failed_modes_are_reported_and_exit_0_unless_strict
24. --budget nan, a bad EVC_MACHINE ...... test_rebuilds::test_bad_inputs_to_measure_are_refused_by_name
25. two contributors with one GPU model .. test_rebuilds::test_a_gpu_slug_carries_a_short_fingerprint
26. a CPU slug taken by other hardware ... test_rebuilds::test_a_cpu_slug_taken_by_other_hardware_gets_this_machines_fingerprint
27. saving over another machine's record . test_rebuilds::test_a_record_is_never_saved_over_another_machines_record
28. a small GPU for the peaks ............ test_rebuilds::test_peaks_fit_a_small_gpu
29. a CUDA out-of-memory error ........... test_rebuilds::test_a_cuda_out_of_memory_in_a_workload_is_that_modes_oom
30. ru_maxrss in bytes on macOS .......... test_rebuilds::test_peak_memory_is_bytes_on_macos_and_kib_on_linux
31. a Python outside the tested range .... test_rebuilds::test_evc_refuses_a_python_outside_the_tested_range_naming_python
32. a half-made venv ..................... test_rebuilds::test_evc_rebuilds_a_half_made_venv_and_says_why
33. a driver this torch cannot use ....... test_rebuilds::test_evc_check_prints_the_preflight_line_of_a_working_venv
34. a GPU workflow on a runner without GPU test_rebuilds::test_the_workflows_run_gpu_steps_only_with_a_gpu_and_always_upload_the_records
35. tests writing into the working tree .. test_rebuilds::test_the_tests_never_use_the_committed_store
36. a build over an older release ........ test_measure::test_a_record_of_an_older_release_is_never_remeasured_or_overwritten
"""
import json
import multiprocessing
import os
import signal
import tempfile
import textwrap
from pathlib import Path

import pytest

from eager_vs_compiled import isolate, machine, measure, records, store, workloads
from eager_vs_compiled.pages import tables
from helpers import RELEASE, ROOT, as_steps, build, make_record


@pytest.mark.slow
@pytest.mark.beside_build
def test_6_a_notebook_cell_that_raises_fails_the_build_naming_the_notebook(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n")
    (tmp_path / "docs" / "broken_tutorial.py").write_text(textwrap.dedent('''\
        # %% [markdown]
        # # A tutorial whose second cell fails
        # %%
        x = 1
        # %%
        raise ValueError("cell failed on purpose")
        '''))
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(f'''\
        site_name: t
        strict: true
        hooks: [{ROOT / "hooks" / "evc.py"}]
        plugins:
          - mkdocs-jupyter:
              include: ["*_tutorial.py"]
              execute: true
              allow_errors: false
        '''))
    env = {"EVC_SNIPPETS": str(tmp_path / "snippets"), "EVC_CACHE": str(tmp_path / "cache"),
           "EVC_MEASUREMENTS": str(tmp_path / "m")}
    out = build(tmp_path / "site", cwd=tmp_path, env=env)
    assert out.returncode != 0
    assert "broken_tutorial.py" in out.stderr and "cell failed on purpose" in out.stderr
    assert not (tmp_path / "site" / "broken_tutorial" / "index.html").exists()


def test_7_a_measurement_killed_for_memory_shows_oom_and_no_number(tmp_path, monkeypatch):
    """The kernel's OOM killer sends SIGKILL: simulated by the child's exit status."""
    monkeypatch.setattr(isolate, "run", lambda *a, **k: (-signal.SIGKILL, "", ""))
    result = measure.measure_mode(workloads.get("mlp"), workloads.default_profile(), "default")
    assert result.status == "oom" and result.median_s is None and result.speedup is None
    assert "SIGKILL" in result.message
    rec = make_record("mlp")
    rec.results[1] = result
    rows = tables.table(rec).splitlines()
    row = next(r for r in rows if r.startswith("| <code>default</code>"))
    assert "**oom**" in row and "×" not in row and " ms" not in row  # visibly not measured, no number


def test_9_a_read_only_measurements_folder_is_a_clear_error_before_measuring(tmp_path, monkeypatch):
    folder = store.release_dir(tmp_path / "measurements", machine.describe()["slug"], RELEASE)
    stale = make_record("mlp")
    stale.harness_version = 0
    old = store.save(stale, tmp_path / "measurements")
    before = old.read_text()
    folder.chmod(0o555)
    if os.geteuid() == 0:  # root ignores permissions: fail the write as a read-only folder does
        real = tempfile.mkstemp

        def read_only(*args, dir=None, **kwargs):
            if dir is not None and Path(dir).resolve() == folder.resolve():
                raise PermissionError(13, "Permission denied", str(dir))
            return real(*args, dir=dir, **kwargs)

        monkeypatch.setattr(tempfile, "mkstemp", read_only)
    measured = []
    monkeypatch.setattr(measure, "workload_steps", as_steps(lambda *a, **k: measured.append(a) or make_record("mlp")))
    monkeypatch.setattr(measure, "_ensured", {})
    try:
        with pytest.raises(records.RecordWriteError, match=r"cannot write measurement records to .*"
                           + folder.name + r": Permission denied; nothing was measured"):
            measure.ensure_record("mlp", tmp_path / "measurements")
    finally:
        folder.chmod(0o755)
    assert measured == []  # no minutes spent on a result that could not be kept
    assert old.read_text() == before


def _save_many(root: str, eager_s: float, n: int) -> None:
    for _ in range(n):
        store.save(make_record("mlp", eager=(eager_s,) * 3), Path(root))


def test_10_two_builds_writing_the_same_record_never_leave_a_broken_file(tmp_path):
    path = store.save(make_record("mlp"), tmp_path)
    ctx = multiprocessing.get_context("fork")
    writers = [ctx.Process(target=_save_many, args=(str(tmp_path), s, 150)) for s in (0.010, 0.020)]
    for w in writers:
        w.start()
    seen = set()
    while any(w.is_alive() for w in writers):
        seen.add(records.load(path).result("eager").median_s)  # raises on a half-written file
    for w in writers:
        w.join()
        assert w.exitcode == 0
    final = records.load(path)
    assert final.result("eager").median_s in (0.010, 0.020)
    assert seen <= {0.010, 0.011, 0.020}  # only whole records were ever read
    assert [p.name for p in path.parent.iterdir()] == ["mlp.json"]  # no temp files left behind
    json.loads(path.read_text())
