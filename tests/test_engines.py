"""The inference engines as modes of the harness (engines.py): a model an engine cannot export is
refused by name, a mode that cannot run here says why. Each engine measured on a tiny model, checked
against eager: test_yourmodel (the how-to's example, the very run its page shows)."""
import json
import textwrap

import pytest
import torch

from eager_vs_compiled import child, engines, recipes, records, workloads

FACTORIES = textwrap.dedent("""\
    import torch

    class Branchy(torch.nn.Module):
        def forward(self, x):  # which branch runs depends on the data: torch.export cannot trace it
            return x * 2 if x.sum() > 0 else x - 1

    def branchy():
        return Branchy(), (torch.randn(8, 16),)
    """)


def test_a_model_an_engine_cannot_export_is_an_error_naming_the_engine_and_the_model(tmp_path):
    # The measurement child itself, run in this process (the parent runs exactly this in a fresh one):
    # eager runs, the export fails, and the result says which engine could not export which model, why.
    (tmp_path / "readers.py").write_text(FACTORIES)
    target = f"{tmp_path / 'readers.py'}:branchy"
    args = {"workload": "readers-branchy", "model": target, "profile": "cpu", "device": "cpu",
            "mode": "onnxruntime", "phase": "time", "engine_dir": str(tmp_path / "engine")}
    assert child._child_main([json.dumps(args), str(tmp_path / "result.json")]) == 0
    r = records.ModeResult(**json.loads((tmp_path / "result.json").read_text())["onnxruntime"])
    assert r.status == "error" and not r.samples_s, r
    assert r.message.startswith(f"ExportFailed: onnxruntime could not export {target}: TorchExportError"), r.message
    assert "data-dependent" in r.message, r.message  # the exporter's reason, not only that it failed


def test_measure_model_strict_fails_on_a_failed_mode_and_reports_it_otherwise(tmp_path, monkeypatch, capsys):
    from argparse import Namespace

    from eager_vs_compiled import isolate, measure, modelcmd
    from helpers import make_record

    (tmp_path / "readers.py").write_text(FACTORIES)
    rec = make_record("mlp")
    rec.results[-1].status, rec.results[-1].message = "error", "ExportFailed: onnxruntime could not export x: why"
    monkeypatch.setattr(isolate, "module", lambda *a, **k: (1, "", "readiness skipped in this test"))
    monkeypatch.setattr(measure, "ensure_record", lambda *a, **k: rec)
    monkeypatch.setattr(modelcmd, "workload_for", lambda target, profile, shape=None: rec_workload)
    rec_workload = Namespace(name="mlp", modes={"cpu": ("eager", "default")}, warm=True, megacache=False)
    for strict, code in ((True, 1), (False, 0)):
        args = Namespace(model=f"{tmp_path / 'readers.py'}:branchy", out=tmp_path / "out", workload=None, family=None,
                         mode=None, input_shape=None, profile="cpu", force=False, device=None, strict=strict)
        assert modelcmd.measure_command(args) == code
        assert "could not export x: why" in capsys.readouterr().out  # the report lists the failed mode


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
    ("onnxruntime+bf16", "inference", "cpu", "onnxruntime takes no knob bf16 (it takes: transformers)"),
    ("openvino+cl", "inference", "cpu", "openvino takes no knob cl (it takes: bf16, dynamic)"),
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


@pytest.mark.parametrize("name", [name for name, w in workloads.WORKLOADS.items()
                                  if w.sizes.get("cpu", {}).get("arch", "").startswith("vit")])
def test_every_vit_workload_has_a_live_head_so_its_check_compares_something(name):
    # torchvision zeroes ViT's head at init: with random weights every output would be 0 (every compiled
    # mode and engine "correct", and no gradient reaching the backbone). The ViT workloads re-draw it.
    built = workloads.get(name).build("cpu", torch.device("cpu"))
    with torch.no_grad():
        out = built.model(*built.inputs)
    assert out.abs().max() > 0 and not torch.equal(out[0], out[1]), out
