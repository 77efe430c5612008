"""Failure injection: each fault gives a clear error or a visible "not measured", never a wrong
number, and never loses what was already recorded.

The ten faults and where each is injected:
 1. a snippet that raises ............ test_site::test_a_raising_snippet_fails_the_build_and_is_named
 2. a snippet that hangs ............. test_snippets::test_a_hanging_snippet_times_out
 3. a missing include ................ test_site::test_missing_include_fails_the_build
 4. a corrupt record ................. test_measure::test_corrupt_record_of_this_machine_is_an_error_not_a_number
 5. a record of an unknown schema .... test_records::test_untrustworthy_record_is_rejected_by_name
 6. a notebook cell that raises ...... here
 7. a measurement out of memory ...... here (the kernel's OOM killer, simulated)
 8. an unknown workload on the CLI ... test_cli::test_unknown_workload_exits_2_and_lists_the_valid_ones
 9. a read-only measurements folder .. here
10. two builds writing records at once here
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
from helpers import RELEASE, ROOT, build, make_record


@pytest.mark.slow
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
    row = next(r for r in rows if r.startswith("| `default`"))
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
    monkeypatch.setattr(measure, "measure_workload", lambda *a, **k: measured.append(a) or make_record("mlp"))
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
