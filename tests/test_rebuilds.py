"""Rebuilds that survive: bad records from forks, interrupted and partial measurements, other
people's machines. Each test injects one fault and asserts the exact behaviour (the table of all
injections is in test_failures.py)."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from eager_vs_compiled import child, isolate, machine, measure, rounds, peaks, records, snippets, store, workloads
from eager_vs_compiled.pages import code, provenance, tables
from helpers import ROOT, as_steps, cli, make_record

OTHER = dict(machine.describe(), slug="cpu-someone-else-8c", fingerprint="0badc0de0badc0de")


def _write(root: Path, rec, edit=None) -> Path:
    path = store.save(rec, root)
    if edit:
        raw = json.loads(path.read_text())
        edit(raw)
        path.write_text(json.dumps(raw))
    return path


# --- records and captures -------------------------------------------------------------------------
def test_record_text_is_escaped_on_the_page():
    rec = make_record("mlp")
    rec.title = "MLP <script>alert(1)</script>"
    rec.results[1] = records.ModeResult("default", "error", message="TypeError: <built-in function add> | x")
    text = tables.table(rec) + provenance.esc(rec.title)
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "&lt;built-in function add&gt;" in text and "&#124; x" in text


def test_a_snippet_output_with_backticks_gets_a_longer_fence(tmp_path, monkeypatch):
    (tmp_path / "ticks.py").write_text('"""Prints fences."""\nprint("`````\\n<script>x</script>")\nassert True\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    monkeypatch.setenv("EVC_CACHE", str(tmp_path / "cache"))
    shown = code.snippet("ticks.py")
    assert "``````text\n`````\n<script>x</script>\n``````" in shown  # six ticks: one more than inside


def test_an_unreadable_record_of_another_machine_is_skipped_and_named(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    monkeypatch.setattr(store, "SKIPPED", {})
    path = _write(tmp_path, make_record("mlp", machine_info=OTHER), lambda raw: raw.update(schema=99))
    _write(tmp_path, make_record("mlp"))
    found = store.records_for("mlp", tmp_path)
    assert [r.machine["slug"] for r in found] == [machine.describe()["slug"]]
    assert "newer schema version 99" in store.SKIPPED[str(path)] and "upgrade" in store.SKIPPED[str(path)]
    note = provenance.skipped_note("/mlp.json")
    assert "Committed records skipped" in note and "cpu-someone-else-8c/torch-" in note


def test_an_unreadable_record_of_this_machine_is_still_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    _write(tmp_path, make_record("mlp"), lambda raw: raw.update(schema=99))
    with pytest.raises(records.RecordError, match="newer schema version 99"):
        store.records_for("mlp", tmp_path)


def test_a_huge_snippet_output_is_capped_and_says_how_much_was_cut(tmp_path, monkeypatch):
    (tmp_path / "loud.py").write_text('"""Ten megabytes."""\nprint("x" * 10_000_000)\nassert True\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    monkeypatch.setenv("EVC_CACHE", str(tmp_path / "cache"))
    result = snippets.run("loud.py")
    assert len(result.stdout) < snippets.OUTPUT_LIMIT + 200
    assert "characters (0 lines) of output cut here" in result.stdout and "9,980,0" in result.stdout
    assert sum(p.stat().st_size for p in (tmp_path / "cache").rglob("*.json")) < 100_000


# --- interrupted and partial measurements --------------------------------------------------------
def test_a_nan_in_the_compiled_output_is_a_mismatch_that_can_be_saved(tmp_path):
    result = records.ModeResult("default", "ok", samples_s=[0.01] * 3, eager_samples_s=[0.01] * 3)
    child._check(result, [(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, 2.0]))], 1e-3)
    assert result.status == "mismatch" and "NaN or inf" in result.message and result.max_rel_err is None
    rec = make_record("mlp")
    rec.results[1] = result.finish(64)
    assert records.load(store.save(rec, tmp_path)).result("default").status == "mismatch"


def test_a_truncated_child_result_is_that_modes_crash_and_the_suite_goes_on(monkeypatch):
    def truncated(name, args, env, timeout, cwd=None):
        Path(args[1]).write_text('{"default": {"mode": "default", "sta')
        return 0, "", ""

    monkeypatch.setattr(rounds.isolate, "module", truncated)
    got = rounds._run_child({"mode": "default", "phase": "time"}, {}, 10)
    assert got["default"].status == "crashed" and "unreadable result" in got["default"].message


@pytest.mark.slow
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_measure_stops_kills_its_child_and_keeps_finished_records(tmp_path, sig, code):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # As from a terminal: a test run started in the background (a CI script, `cmd &`) inherits SIGINT
    # ignored, and a process that starts with SIGINT ignored never sees Ctrl-C at all.
    proc = subprocess.Popen([sys.executable, "-m", "eager_vs_compiled", "measure", "-w", "tiny_op", "-w", "mlp",
                             "--out", str(tmp_path)], env=env, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    kids = []
    deadline = time.monotonic() + 120
    # Wait until it runs a measurement child (not some helper it starts while importing, say: a signal
    # then would land before measure's handler is in place, which is not what this test is about).
    while not kids and time.monotonic() < deadline:
        kids = [pid for pid, _ in isolate.children(proc.pid) if b"eager_vs_compiled.child" in _cmdline(pid)]
        if not kids:
            time.sleep(0.1)
    try:
        assert kids, "measure started no child process"
        # Stopped, the child can never finish on its own: measure exits only if it kills the child
        # (SIGKILL ends a stopped process too). No stopwatch: with both cores busy, a prompt stop can
        # still take more than 15 s, and a child near its end could finish within any fixed limit.
        for kid in kids:
            os.kill(kid, signal.SIGSTOP)
        os.kill(proc.pid, sig)
        try:
            assert proc.wait(timeout=180) == code
        except subprocess.TimeoutExpired:
            pytest.fail("measure waited for its (stopped) child instead of killing it")
        assert "interrupted: the records already written are kept" in proc.stderr.read()
        assert _gone(kids, within_s=60), "the child outlived measure"
    finally:
        for pid in [proc.pid, *kids]:
            if _state(pid) not in ("gone", "Z"):
                os.kill(pid, signal.SIGKILL)
        proc.wait()
    assert not list(tmp_path.rglob("*.tmp")), "a half-written record was left behind"


KILL_CHILDREN = """
import subprocess, sys
from eager_vs_compiled import isolate
# (stderr to /dev/null: a grandchild left alive must not hold the test's pipe open for 600 s)
group = subprocess.Popen(["sh", "-c", "sleep 600 & echo $!; wait"], stdout=subprocess.PIPE, text=True,
                         stderr=subprocess.DEVNULL, start_new_session=True)  # as isolate.run starts one: a group of its own
grandchild = int(group.stdout.readline())
alone = subprocess.Popen(["sleep", "600"], stderr=subprocess.DEVNULL)
isolate.kill_children()
print(group.wait(timeout=60), alone.wait(timeout=60), grandchild)
"""


def test_kill_children_kills_each_child_with_its_group():
    # What measure does on Ctrl-C for a child that was being started as the signal came.
    out = subprocess.run([sys.executable, "-c", KILL_CHILDREN], capture_output=True, text=True, timeout=180,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, check=True).stdout.split()
    assert out[:2] == ["-9", "-9"], out
    grandchild = int(out[2])
    try:  # it would sleep 600 s: gone well within the poll's 60 s only if it was killed
        assert _gone([grandchild], within_s=60), "the group's other process lived on"
    finally:
        if _state(grandchild) not in ("gone", "Z"):
            os.kill(grandchild, signal.SIGKILL)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _gone(pids: list[int], within_s: float) -> bool:
    """Whether every process of `pids` has ended (gone, or a zombie its parent has not reaped yet)
    within `within_s` seconds: a killed process ends as soon as the kernel schedules it, which on
    two busy cores can take a while, so poll rather than sleep a fixed time."""
    deadline = time.monotonic() + within_s
    while any(_state(pid) not in ("gone", "Z") for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_modes_skipped_for_the_budget_are_measured_next_time_and_the_rest_is_kept(tmp_path, monkeypatch):
    rec = make_record("mlp")
    rec.results[2] = records.ModeResult("max-autotune", "skipped", message="time budget: 3 s left, about 40 s needed")
    store.save(rec, tmp_path)
    asked = []

    def fake(name, profile=None, modes=None, **kwargs):
        asked.append(modes)
        return make_record(name, compiled=(0.004, 0.004, 0.004))

    monkeypatch.setattr(measure, "workload_steps", as_steps(fake))
    monkeypatch.setattr(measure, "_ensured", {})
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    done = measure.ensure_record("mlp", tmp_path)
    assert asked == [["max-autotune"]]
    assert done.result("default").samples_s == rec.result("default").samples_s  # kept as it was
    assert done.result("max-autotune").status == "ok" and done.result("max-autotune").median_s == 0.004


@pytest.mark.parametrize("args, env, message", [
    (["--budget", "nan"], {}, "--budget must be a positive number of seconds, not nan"),
    ([], {"EVC_MACHINE": "My Box!"}, "EVC_MACHINE='My Box!' is not a machine slug"),
])
def test_bad_inputs_to_measure_are_refused_by_name(args, env, message, monkeypatch, capsys):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, _, err = cli(capsys, "measure", "-w", "tiny_op", *args)
    assert code == 2 and message in err, err[-500:]


def test_failed_modes_are_reported_and_exit_0_unless_strict(tmp_path, monkeypatch, capsys):
    from eager_vs_compiled import cli

    def one_failure(name, *a, **k):
        rec = make_record(name)
        rec.results[1] = records.ModeResult(rec.results[1].mode, "error", message="InductorError: boom")
        return rec

    monkeypatch.setattr(measure, "ensure_steps", as_steps(one_failure))
    assert cli.main(["measure", "-w", "tiny_op", "--out", str(tmp_path)]) == 0
    assert "1 mode(s) failed" in capsys.readouterr().err
    assert cli.main(["measure", "-w", "tiny_op", "--out", str(tmp_path), "--strict"]) == 1


# --- other people's machines ----------------------------------------------------------------------
def test_a_gpu_slug_carries_a_short_fingerprint(monkeypatch):
    monkeypatch.setattr(machine, "_gpus", lambda: [{"name": "NVIDIA H100 80GB HBM3", "capability": "9.0",
                                                    "memory_gib": 80}])
    machine.describe.cache_clear()
    try:
        me = machine.describe()
        assert me["slug"] == f"gpu-nvidia-h100-80gb-hbm3-{me['fingerprint'][:4]}"
    finally:
        machine.describe.cache_clear()


def test_a_cpu_slug_taken_by_other_hardware_gets_this_machines_fingerprint(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    monkeypatch.delenv("EVC_MACHINE", raising=False)
    machine.describe.cache_clear()
    try:
        mine = machine.describe()
        other = dict(mine, fingerprint="0badc0de0badc0de")
        store.save(make_record("mlp", machine_info=other), tmp_path)
        machine.describe.cache_clear()
        assert machine.describe()["slug"] == f"{mine['slug']}-{mine['fingerprint'][:4]}"
    finally:
        machine.describe.cache_clear()


def test_a_record_is_never_saved_over_another_machines_record(tmp_path):
    store.save(make_record("mlp", machine_info=dict(machine.describe(), fingerprint="0badc0de0badc0de")), tmp_path)
    with pytest.raises(records.RecordWriteError, match="record of another machine with the same slug"):
        store.save(make_record("mlp"), tmp_path)


def test_peaks_fit_a_small_gpu():
    small = peaks.sizes("cuda", free_bytes=6 * 2**30)  # what an 8 GB card has free
    assert 2 * small["copy_mib"] * 2**20 <= 0.4 * 6 * 2**30 + 1
    assert 3 * small["matmul_n"] ** 2 * 4 <= 0.4 * 6 * 2**30
    assert peaks.sizes("cuda", free_bytes=140 * 2**30) == peaks.SIZES["cuda"]


def test_a_cuda_out_of_memory_in_a_workload_is_that_modes_oom(tmp_path, monkeypatch):
    def oom(*args, **kwargs):
        raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")

    monkeypatch.setattr(workloads.Workload, "build", oom)
    out = tmp_path / "result.json"
    child._child_main([json.dumps({"workload": "mlp", "profile": "cpu", "mode": "default", "phase": "time"}), str(out)])
    result = records.ModeResult(**json.loads(out.read_text())["default"])
    assert result.status == "oom" and "CUDA out of memory" in result.message


def test_peak_memory_without_proc_is_bytes_on_macos_and_kib_on_linux(monkeypatch, tmp_path):
    class Usage:
        ru_maxrss = 1000

    monkeypatch.setattr(isolate.resource, "getrusage", lambda who: Usage())
    monkeypatch.setattr(isolate.sys, "platform", "darwin")
    assert isolate.peak_rss(str(tmp_path / "no-proc")) == (1000, "process_peak_rss")
    monkeypatch.setattr(isolate.sys, "platform", "linux")
    assert isolate.peak_rss(str(tmp_path / "no-proc")) == (1000 * 1024, "process_peak_rss")
    (tmp_path / "status").write_text("Name:\tpython\nVmHWM:\t  8832 kB\nVmRSS:\t  8000 kB\n")
    assert isolate.peak_rss(str(tmp_path / "status")) == (8832 * 1024, "process_hwm")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="no /proc here")
def test_a_childs_peak_memory_is_its_own_not_its_parents(tmp_path):
    """getrusage's ru_maxrss survives execve: a child of a parent holding 200 MiB would report at least
    that. The harness reads the child's own high-water mark (VmHWM) instead."""
    import numpy as np

    held = np.ones(200 * 2**20 // 8)  # the parent's 200 MiB, resident
    script = tmp_path / "child.py"
    script.write_text("import resource, sys\nsys.path.insert(0, sys.argv[1])\nfrom eager_vs_compiled import isolate\n"
                      "print(isolate.peak_rss()[0], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)\n")
    code, out, err = isolate.run([sys.executable, str(script), str(ROOT / "src")], None, 60)
    own, inherited = map(int, out.split())
    assert code == 0 and held.sum() > 0, err
    assert own < 100 * 2**20 < 200 * 2**20 <= inherited, (own, inherited)


def test_a_timing_process_asks_for_huge_pages_unless_the_caller_says_otherwise(monkeypatch):
    monkeypatch.delenv(rounds.THP_ENV, raising=False)
    assert rounds.allocator_env()[rounds.THP_ENV] == "1" == rounds._cache_env("/tmp/x")[rounds.THP_ENV]
    monkeypatch.setenv(rounds.THP_ENV, "0")
    assert rounds.allocator_env()[rounds.THP_ENV] == "0" and rounds.allocator_env(own=True)[rounds.THP_ENV] == "1"


def test_a_process_entry_says_how_much_of_its_memory_is_on_huge_pages(tmp_path):
    (tmp_path / "rollup").write_text("Rss:  800000 kB\nAnonymous:  700000 kB\nAnonHugePages:  393216 kB\n")
    assert child._huge_bytes(str(tmp_path / "rollup")) == 393216 * 1024
    assert child._huge_bytes(str(tmp_path / "none")) is None


def _thp_mode() -> str | None:
    try:
        text = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text()
    except OSError:
        return None
    return text.split("[")[1].split("]")[0] if "[" in text else None


@pytest.mark.skipif(_thp_mode() != "madvise", reason="huge pages only for memory that asks: needs THP in madvise mode")
def test_torch_puts_large_tensors_on_huge_pages_only_when_the_harness_asks():
    """What rounds.allocator_env relies on: with THP_MEM_ALLOC_ENABLE=1 torch's CPU allocator madvises its
    buffers of 2 MiB and more (c10/core/impl/alloc_cpu.cpp); without it, none of them lands on huge pages."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import torch\n"
            "from eager_vs_compiled import child\n"
            "xs = [torch.ones(2 ** 22) for _ in range(8)]\nprint(child._huge_bytes())\n")
    got = {}
    for value in ("0", "1"):
        env = {**os.environ, rounds.THP_ENV: value}
        out = subprocess.run([sys.executable, "-c", code, str(ROOT / "src")], capture_output=True, text=True,
                             env=env, timeout=120)
        assert out.returncode == 0, out.stderr
        got[value] = int(out.stdout.split()[-1])
    assert got["0"] < 16 * 2 ** 20 <= 64 * 2 ** 20 <= got["1"], got


def _evc(*args, env=None):
    return subprocess.run([str(ROOT / "evc.sh"), *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=120)


def test_evc_refuses_a_python_outside_the_tested_range_naming_python(tmp_path):
    fake = tmp_path / "python3.9"
    fake.write_text('#!/bin/sh\n[ "$1" = --version ] && echo "Python 3.9.18" && exit 0\nexit 1\n')
    fake.chmod(0o755)
    out = _evc("check", env={"PYTHON": str(fake), "EVC_VENV": str(tmp_path / "venv")})
    assert out.returncode == 2 and f"PYTHON={fake} is Python 3.9.18" in out.stderr and "PYTHON=python3.11" in out.stderr


def test_evc_rebuilds_a_half_made_venv_and_says_why(tmp_path):
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    out = _evc("check", env={"PYTHON": sys.executable, "EVC_VENV": str(tmp_path / "venv")})
    assert out.returncode == 0 and "cannot be reused (it has no pip (a half-made venv))" in out.stdout


def test_evc_check_prints_the_preflight_line_of_a_working_venv():
    venv = Path(sys.executable).parents[1]
    out = _evc("check", env={"PYTHON": sys.executable, "EVC_VENV": str(venv)})
    assert out.returncode == 0 and f"evc: torch {torch.__version__} (CUDA build" in out.stderr


def test_the_workflows_run_gpu_steps_only_with_a_gpu_and_always_upload_the_records():
    gpu = (ROOT / ".github" / "workflows" / "gpu.yml").read_text()
    ci = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    assert "if: steps.gpu.outputs.present == 'true'" in gpu and "if: always()" in gpu
    for text in (gpu, ci):
        assert "persist-credentials: false" in text
        for retired in ("checkout@v4", "upload-artifact@v4", "deploy-pages@v4", "setup-python@v5", "setup-node@v4"):
            assert retired not in text, retired
    assert "apt-get install" not in ci and "EVC_CHROMIUM" in ci


def test_the_tests_never_use_the_committed_store():
    assert Path(os.environ["EVC_MEASUREMENTS"]).resolve() != (ROOT / "measurements").resolve()
    assert (Path(os.environ["EVC_MEASUREMENTS"]) / "cpu-intel-xeon-2c").is_dir() or store.machines()


def test_a_committed_fresh_model_report_wins_over_an_older_one_in_the_cache(tmp_path, monkeypatch):
    """After a pull brings a report measured again (a new harness), the build cache's older copy must not
    make prepare measure it once more."""
    from eager_vs_compiled import paths, prepare
    from eager_vs_compiled.pages.report import REPORT_FILES, REPORTS

    me = machine.describe()
    rel = store.release(machine.versions()["torch"])
    kept = store.release_dir(tmp_path / "store", me["slug"], rel) / REPORTS
    cached = store.release_dir(tmp_path / "cache" / REPORTS, me["slug"], rel)
    for folder, text in ((kept, "new"), (cached, "old")):
        folder.mkdir(parents=True)
        for ext in REPORT_FILES:
            (folder / f"m-f.{ext}").write_text(f"{text} {ext}")
    monkeypatch.setattr(paths, "cache", lambda: tmp_path / "cache")
    monkeypatch.setattr(store, "model_name", lambda target: "m-f")
    monkeypatch.setattr(prepare, "_fresh", lambda target, folder, *a: (folder / "m-f.json").read_text() == "new json")
    ran = []
    monkeypatch.setattr(prepare.isolate, "module", lambda *a, **k: ran.append(a) or (0, "", ""))
    prepare.report("m.py:f", (), out=tmp_path / "store")
    assert ran == []
    assert all((cached / f"m-f.{ext}").read_text() == f"new {ext}" for ext in REPORT_FILES)
