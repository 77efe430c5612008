"""tools/gpu-run.sh, the prepared run for a lent GPU: its plan (the recipes first), its refusals, and
its packing (one flat file back, nothing measured left out, paths relative to the store)."""
import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import time

from helpers import ROOT

from eager_vs_compiled import snippets

SCRIPT = ROOT / "tools" / "gpu-run.sh"
_spec = importlib.util.spec_from_file_location("gpu_steps", ROOT / "tools" / "gpu_steps.py")
gpu_steps = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gpu_steps)


def gpu_run(tmp_path, *args, **env):
    env = {**os.environ, "PYTHON": sys.executable, "EVC_MEASUREMENTS": str(tmp_path / "m"),
           "EVC_CACHE": str(tmp_path / "cache"), **env}
    return subprocess.run(["sh", str(SCRIPT), str(tmp_path / "out"), *args], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)


def test_dry_run_plans_the_recipes_first_then_the_gpu_snippets_then_the_rest(tmp_path):
    run = gpu_run(tmp_path, "480", EVC_GPU_DRY="1", EVC_GPU_REHEARSE="1")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    first_plan = out.index("resnet50_infer_recipes: eager, default")
    needs_gpu = sorted(p.relative_to(snippets.root()).as_posix() for p in snippets.root().rglob("*.py")
                       if "cuda" in snippets.requirements(p.read_text(encoding="utf-8")))
    assert len(needs_gpu) >= 5
    for rel in needs_gpu:
        assert first_plan < out.index(f"{rel}: requires cuda") < out.index("tiny_op: eager")
    steps = [line for line in run.stderr.splitlines() if line.startswith("gpu-run: ")]
    assert [s.split()[1] for s in steps[1:]] == ["2.", "3.", "4.", "5.", "done"]  # dry: no peaks step
    assert "(360 s)" in steps[1]  # three quarters of the budget for the recipes
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["evc-gpu-files.txt", "evc-gpu-records.tar"]
    with tarfile.open(tmp_path / "out" / "evc-gpu-records.tar") as tar:
        assert tar.getnames() == []  # a dry run measures nothing
    assert json.loads(out[out.index("{"):out.index("\n}\n") + 2])["machine"]["slug"]


def test_a_budget_that_is_not_whole_seconds_is_refused_by_name(tmp_path):
    run = gpu_run(tmp_path, "5m")
    assert run.returncode == 2 and "'5m'" in run.stderr and "usage: tools/gpu-run.sh OUT [SECONDS]" in run.stderr
    assert not (tmp_path / "out").exists()


def test_pack_keeps_what_this_run_wrote_and_measured(tmp_path):
    root, out = tmp_path / "m", tmp_path / "out"
    folder = root / "gpu-x" / "torch-2.11.0"
    (folder / "captures").mkdir(parents=True)
    out.mkdir()
    old = folder / "tiny_op.json"
    old.write_text(json.dumps({"results": [{"mode": "eager", "status": "ok"}]}))
    os.utime(old, (time.time() - 3600,) * 2)  # from an earlier run: already committed
    stamp = tmp_path / "stamp"
    stamp.touch()
    os.utime(stamp, (time.time() - 60,) * 2)
    (folder / "mlp.json").write_text(json.dumps({"results": [{"mode": "eager", "status": "ok"},
                                                             {"mode": "default", "status": "skipped"}]}))
    (folder / "vit.json").write_text(json.dumps({"results": [{"mode": "eager", "status": "skipped"}]}))
    (folder / "captures" / "a__b.json").write_text(json.dumps({"snippet": "a/b.py", "stdout": "x"}))
    (folder / "machine_peaks.json").write_text("{not json")  # packed as it is: its reader names the fault

    assert gpu_steps.pack(root, stamp, out) == 0
    kept = ["gpu-x/torch-2.11.0/captures/a__b.json", "gpu-x/torch-2.11.0/machine_peaks.json",
            "gpu-x/torch-2.11.0/mlp.json"]
    with tarfile.open(out / "evc-gpu-records.tar") as tar:
        assert tar.getnames() == kept
    assert (out / "evc-gpu-files.txt").read_text().split() == kept


def test_the_steps_helper_refuses_a_wrong_call(capsys):
    assert gpu_steps.main(["pack", "only-one"]) == 2
    assert "gpu_steps.py pack ROOT STAMP OUT" in capsys.readouterr().err
