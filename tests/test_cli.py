import subprocess

import pytest
import sys

from eager_vs_compiled import cli, machine, store
from helpers import ROOT, cli as run_in_process, make_record



def run_cli(*args, env=None):
    import os

    return subprocess.run([sys.executable, "-m", "eager_vs_compiled", *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src"), **(env or {})})


def test_unknown_workload_exits_2_and_lists_the_valid_ones(capsys):
    code, _, err = run_in_process(capsys, "measure", "--workload", "resnet9000")
    assert code == 2
    assert "resnet9000" in err and "pointwise_16" in err and "resnet50_infer_fp32" in err


def test_unknown_mode_exits_2_and_lists_the_valid_ones(capsys):
    code, _, err = run_in_process(capsys, "measure", "--mode", "turbo")
    assert code == 2
    assert "turbo" in err and "max-autotune" in err


def test_list_names_every_workload(capsys):
    code, out, _ = run_in_process(capsys, "list")
    assert code == 0
    from eager_vs_compiled import workloads

    for name in workloads.WORKLOADS:
        assert name in out


def test_show_prints_tables_of_every_machine(tmp_path, capsys):
    store.save(make_record("mlp"), tmp_path)
    other = dict(machine.describe(), slug="gpu-test-box", fingerprint="0123", gpus=[{"name": "Test GPU"}])
    store.save(make_record("mlp", machine_info=other), tmp_path)
    assert cli.main(["show", "mlp", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "gpu-test-box" in out and machine.describe()["slug"] in out and "Measured on" in out


def test_show_of_a_corrupt_record_of_this_machine_names_the_file(tmp_path, capsys):
    path = tmp_path / machine.describe()["slug"] / "torch-2.15.0" / "mlp.json"
    path.parent.mkdir(parents=True)
    path.write_text("{")
    assert cli.main(["show", "mlp", "--out", str(tmp_path)]) == 1
    assert f"{machine.describe()['slug']}/torch-2.15.0/mlp.json" in capsys.readouterr().err


def test_progress_bar_writes_one_line_per_step_when_piped(capsys):
    bar = cli.ProgressBar(2, stream=sys.stdout)
    bar.step("first")
    bar.step("second")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("[") and "1/2" in lines[0] and "first" in lines[0]
    assert "2/2" in lines[1]


def test_a_budget_too_small_for_anything_records_every_mode_as_skipped_and_warns(tmp_path):
    out = run_cli("measure", "-w", "tiny_op", "--budget", "1", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr  # everything skipped, recorded, reported: not a failure of the harness
    assert "warning: the budget (1 s) is far below the estimate for this plan" in out.stderr
    [rec] = store.records_for("tiny_op", tmp_path)
    assert [r.status for r in rec.results] == ["skipped", "skipped"]
    assert all("time budget" in r.message and r.median_s is None for r in rec.results)
    assert "2 skipped" in out.stderr


def test_bad_budget_and_family_exit_2_naming_the_input(capsys):
    code, _, err = run_in_process(capsys, "measure", "--budget", "-5")
    assert code == 2 and "-5" in err
    code, _, err = run_in_process(capsys, "measure", "--family", "resnot")
    assert code == 2 and "resnot" in err and "pointwise" in err


def test_workloads_named_with_w_are_measured_in_the_order_given(capsys):
    code, out, _ = run_in_process(capsys, "measure", "-w", "transformer_block", "-w", "tiny_op", "-w", "mlp", "--dry-run")
    assert code == 0
    planned = [line.split(":")[0] for line in out.splitlines() if ": " in line and "(about" in line]
    assert planned == ["transformer_block", "tiny_op", "mlp"]  # the registry's order is tiny_op, mlp, transformer


def test_gpu_profile_without_a_gpu_says_how_to_rehearse(capsys):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA GPU: --profile gpu is its own profile here")
    code, _, err = run_in_process(capsys, "measure", "--profile", "gpu")
    assert code == 2 and "--device cpu" in err


# The GPU plan rehearsed on the CPU, end to end: tests/test_core_imports.py, on a bare image.
