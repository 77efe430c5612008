"""The inference engines as modes of the harness (engines.py): a model an engine cannot export is
refused by name, a mode that cannot run here says why. Each engine measured on a tiny model, checked
against eager: test_yourmodel (the how-to's example, the very run its page shows)."""
import os
import subprocess
import sys
import textwrap

import pytest
import torch

from eager_vs_compiled import engines, recipes, records
from helpers import ROOT

FACTORIES = textwrap.dedent("""\
    import torch

    class Branchy(torch.nn.Module):
        def forward(self, x):  # which branch runs depends on the data: torch.export cannot trace it
            return x * 2 if x.sum() > 0 else x - 1

    def branchy():
        return Branchy(), (torch.randn(8, 16),)
    """)


def _measure(tmp_path, target: str, modes: list[str], *extra: str):
    (tmp_path / "readers.py").write_text(FACTORIES)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    args = [sys.executable, "-m", "eager_vs_compiled", "measure", "--model", f"{tmp_path / 'readers.py'}:{target}",
            "--out", str(tmp_path / "out"), *[a for m in modes for a in ("--mode", m)], *extra]
    out = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
    [path] = (tmp_path / "out").rglob(f"readers-{target}.json")
    return out, records.load(path)


@pytest.mark.slow
def test_a_model_an_engine_cannot_export_is_an_error_naming_the_engine_and_the_model(tmp_path):
    out, rec = _measure(tmp_path, "branchy", ["onnxruntime"], "--strict")
    assert out.returncode == 1, out.stderr[-2000:]  # --strict: a failed mode fails the command
    for engine in ("onnxruntime",):  # aotinductor's refusal: the test below, in this process
        r = rec.result(engine)
        assert r.status == "error", (engine, r)
        assert f"{engine} could not export {tmp_path / 'readers.py'}:branchy" in r.message, r.message
        assert "data-dependent" in r.message, r.message  # the exporter's reason, not only that it failed


def test_an_export_failure_names_engine_and_model_and_the_exporters_reason(tmp_path):
    class Branchy(torch.nn.Module):
        def forward(self, x):
            return x * 2 if x.sum() > 0 else x - 1

    with pytest.raises(engines.ExportFailed, match=r"^aotinductor could not export my-model: "
                                                    r"GuardOnDataDependentSymNode: .*data-dependent"):
        engines.convert("aotinductor", frozenset(), Branchy(), (torch.randn(4, 4),), tmp_path, "my-model")
    assert "\x1b[" not in engines._first_line(RuntimeError("\x1b[96mcoloured\x1b[0m"))


@pytest.mark.parametrize("mode, step, device, reason", [
    ("onnxruntime", "training", "cpu", "onnxruntime runs inference only"),
    ("onnxruntime+bf16", "inference", "cpu", "onnxruntime takes no knob bf16 (it takes: none)"),
    ("openvino+cl", "inference", "cpu", "openvino takes no knob cl (it takes: bf16)"),
    ("openvino", "inference", "cuda", "OpenVINO runs on Intel CPUs and GPUs, not on a CUDA device"),
    ("tensorrt", "inference", "cpu", "TensorRT runs on NVIDIA GPUs only"),
])
def test_an_engine_mode_that_cannot_run_here_says_why(mode, step, device, reason):
    assert recipes.unsupported(recipes.parse(mode), step, device) == reason


def test_a_missing_engine_package_is_skipped_with_how_to_install_it(monkeypatch):
    monkeypatch.setattr(engines.importlib.util, "find_spec", lambda name: None if name == "openvino" else object())
    why = recipes.unsupported(recipes.parse("openvino"), "inference", "cpu")
    assert why.startswith("openvino needs openvino, which is not installed") and "[engines]" in why


def test_engine_modes_parse_as_recipes_and_unknown_ones_are_refused():
    assert recipes.parse("aotinductor+freezing+cl").engine == "aotinductor"
    assert recipes.parse("default+freezing").engine is None
    with pytest.raises(ValueError, match="unknown mode 'tvm'"):
        recipes.parse("tvm")


def test_the_artifact_size_counts_every_file_the_engine_saved(tmp_path):
    (tmp_path / "model.onnx").write_bytes(b"x" * 10)
    (tmp_path / "weights").mkdir()
    (tmp_path / "weights" / "model.onnx.data").write_bytes(b"y" * 32)
    assert engines.artifact_bytes(tmp_path) == 42
    assert engines.artifact_bytes(tmp_path / "nothing-here") is None
