"""Inference engines measured as modes of the harness, beside eager and torch.compile.

An engine mode converts the model once (the conversion is its "compile": export, optimisation,
code generation), saves what a deployment would ship (an artifact on disk) and runs from it:
- `onnxruntime`: `torch.onnx.export` (the torch.export-based exporter), then an ONNX Runtime
  session (CPU execution provider; the CUDA provider on a GPU where the installed build has it);
  `onnxruntime+transformers` puts the exported graph through ONNX Runtime's transformer optimizer
  first (`onnxruntime.transformers.optimizer.optimize_model`: fused attention, LayerNorm, GELU);
- `openvino`: `openvino.convert_model` from the module, compiled for the CPU with the precision
  stated: `openvino` is f32, `openvino+bf16` is bf16 (OpenVINO's CPU default on a CPU with AMX is
  bf16, silently: we never leave it to the default);
- `aotinductor`: `torch.export` + AOTInductor (`torch._inductor.aoti_compile_and_package`), the
  package loaded with `aoti_load_package`: what a deployment without Python-level compile runs;
  recipe knobs (freezing, cl, bf16) apply as to torch.compile;
- `tensorrt`: torch-tensorrt's dynamo path, on an NVIDIA GPU where torch_tensorrt is installed.

Cold phase: conversion + first call (the first call converts, so `timing.first_call` times both); warm
phase: a fresh process loads the saved artifact and calls it (what deployment starts with).
Engines run inference only. Standard library + torch; each engine's package is imported when used.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ENGINES = ("onnxruntime", "openvino", "aotinductor", "tensorrt")
# python modules an engine needs (a missing one: the mode is recorded as skipped, with this name)
NEEDS = {"onnxruntime": ("onnxruntime", "onnx", "onnxscript"), "openvino": ("openvino",),
         "aotinductor": (), "tensorrt": ("torch_tensorrt",)}
KNOBS = {"onnxruntime": frozenset({"transformers"}), "openvino": frozenset({"bf16", "dynamic"}),
         "aotinductor": frozenset({"freezing", "cl", "bf16"}), "tensorrt": frozenset({"bf16"})}
INSTALL = "pip install -c constraints.txt -e '.[engines]' (./evc.sh installs it)"


class ExportFailed(Exception):
    """The engine could not convert the model: the message names the engine and the model."""


def of(mode: str) -> str | None:
    """The engine a mode name runs ('openvino+bf16' -> 'openvino'), None for any other name (even
    one no parser knows: callers that must not raise on a bad mode use this)."""
    base = mode.split("+")[0]
    return base if base in ENGINES else None


def missing(engine: str) -> list[str]:
    return [m for m in NEEDS[engine] if importlib.util.find_spec(m) is None]


def unsupported(engine: str, knobs: frozenset, step: str, device_type: str) -> str | None:
    """Why this engine mode cannot run here (recorded as `skipped` with this reason), or None."""
    if step != "inference":
        return f"{engine} runs inference only"
    extra = sorted(knobs - KNOBS[engine])
    if extra:
        return f"{engine} takes no knob {', '.join(extra)} (it takes: {', '.join(sorted(KNOBS[engine])) or 'none'})"
    if engine == "tensorrt" and device_type != "cuda":
        return "TensorRT runs on NVIDIA GPUs only"
    if engine == "openvino" and device_type == "cuda":
        return "OpenVINO runs on Intel CPUs and GPUs, not on a CUDA device"
    gone = missing(engine)
    if gone:
        return f"{engine} needs {', '.join(gone)}, which is not installed: {INSTALL}"
    if engine == "onnxruntime" and device_type == "cuda":
        import onnxruntime

        if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
            return ("the installed onnxruntime has no CUDAExecutionProvider (it is the CPU build: "
                    "onnxruntime-gpu has the CUDA provider)")
    return None


# Where each vendor documents the settings below (the "How" column links them).
DOCS = {"onnxruntime": "https://onnxruntime.ai/docs/performance/tune-performance/threading.html",
        "openvino": "https://docs.openvino.ai/2024/openvino-workflow/running-inference/inference-devices-and-modes/cpu-device.html",
        "aotinductor": "https://pytorch.org/docs/stable/torch.compiler_aot_inductor.html",
        "tensorrt": "https://pytorch.org/TensorRT/"}


def settings(engine: str, knobs: frozenset = frozenset(), protocol: str = "alone") -> dict:
    """Every setting the engine mode is built with, explicit (the one definition the code, the "How"
    column and the test that reads them back from the engine share). ONNX Runtime's worker threads
    spin between runs as its documentation defaults, except when eager is timed in the same process
    (protocol `interleaved`): spinning threads then take the cores eager needs next."""
    if engine == "onnxruntime":
        spin = "0" if protocol == "interleaved" else "1"
        optimizer = ({"transformer optimizer": "optimize_model(model_type=vit, opt_level=1, num_heads and hidden_size "
                                               "from its attention layer)"} if "transformers" in knobs else {})
        return {**optimizer, "graph_optimization_level": "ORT_ENABLE_ALL",
                "session.intra_op.allow_spinning": spin, "session.inter_op.allow_spinning": spin}
    if engine == "openvino":
        return {"input shapes": "dynamic" if "dynamic" in knobs else "static",
                "INFERENCE_PRECISION_HINT": "bf16" if "bf16" in knobs else "f32",
                "PERFORMANCE_HINT": "LATENCY", "ENABLE_CPU_PINNING": True}
    if engine == "aotinductor":
        return {"freezing": "freezing" in knobs}
    return {}


def describe(engine: str, knobs: frozenset, protocol: str = "alone") -> str:
    """How the engine mode runs, in one phrase (shown beside its numbers): `settings` in words."""
    s = settings(engine, knobs, protocol)
    return {
        "onnxruntime": "torch.onnx.export (dynamo=True), "
                       + ("onnxruntime.transformers optimize_model(model_type=vit, opt_level=1, num_heads and "
                          "hidden_size from its attention layer), "
                          if "transformers" in knobs else "")
                       + "ONNX Runtime session with "
                       "graph_optimization_level=ORT_ENABLE_ALL, "
                       + ("worker threads spinning between runs (allow_spinning=1, the default)"
                          if s.get("session.intra_op.allow_spinning") == "1"
                          else "worker threads not spinning (allow_spinning=0)"),
        "openvino": f"openvino.convert_model (input shapes {s.get('input shapes')}), compiled for the CPU with "
                    f"INFERENCE_PRECISION_HINT={s.get('INFERENCE_PRECISION_HINT')}, PERFORMANCE_HINT=LATENCY, "
                    f"ENABLE_CPU_PINNING=True",
        "aotinductor": f"torch.export + AOTInductor package (inductor_configs freezing={s.get('freezing')}), "
                       f"loaded with aoti_load_package",
        "tensorrt": "torch_tensorrt.compile (dynamo IR)",
    }[engine]


def _as_module(fn):
    """A plain function as an nn.Module: exporters take modules."""
    import torch

    class Function(torch.nn.Module):
        def forward(self, *xs):
            return fn(*xs)

    return Function().eval()


def _to_torch(outs, device):
    import torch

    tensors = [torch.from_numpy(o).to(device) if not isinstance(o, torch.Tensor) else o for o in outs]
    return tensors[0] if len(tensors) == 1 else tuple(tensors)


def _threads() -> int:
    import torch

    return torch.get_num_threads()  # the same thread count as the eager and compiled modes beside it


def _ort_session(path: Path, device_type: str, protocol: str = "alone"):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = _threads()
    for key, value in settings("onnxruntime", frozenset(), protocol).items():
        if key.startswith("session."):
            options.add_session_config_entry(key, value)
    providers = ["CUDAExecutionProvider"] if device_type == "cuda" else ["CPUExecutionProvider"]
    session = ort.InferenceSession(str(path), options, providers=providers)
    names = [i.name for i in session.get_inputs()]

    def run(*xs):
        feeds = {n: x.detach().cpu().numpy() for n, x in zip(names, xs)}
        return _to_torch(session.run(None, feeds), xs[0].device)

    run.session = session  # for reading the settings back (tests/test_engine_settings.py)
    return run


def _ov_compiled(model, knobs: frozenset):
    import openvino as ov

    core = ov.Core()
    config = {k: v for k, v in settings("openvino", knobs).items() if k.isupper()}
    compiled = core.compile_model(model, "CPU", {**config, "INFERENCE_NUM_THREADS": _threads()})
    request = compiled.create_infer_request()

    def run(*xs):
        request.infer([x.detach().numpy() for x in xs], share_inputs=True)
        return _to_torch([request.get_output_tensor(i).data.copy() for i in range(len(compiled.outputs))],
                         xs[0].device)

    run.compiled = compiled  # for reading the settings back
    return run


def convert(engine: str, knobs: frozenset, module, inputs: tuple, folder: Path, model_name: str,
            protocol: str = "alone"):
    """Export `module` for `engine`, save the artifact in `folder`, return a callable running it.
    Any exporter failure becomes ExportFailed naming the engine and the model."""
    import torch

    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")
    folder.mkdir(parents=True, exist_ok=True)
    module = module if isinstance(module, torch.nn.Module) else _as_module(module)
    device_type = inputs[0].device.type
    try:
        if engine == "onnxruntime":
            exported = folder / ("exported.onnx" if "transformers" in knobs else "model.onnx")
            torch.onnx.export(module, inputs, str(exported), dynamo=True, verbose=False)
            if "transformers" in knobs:
                _transformer_optimized(exported, folder / "model.onnx", module)
        elif engine == "openvino":
            import openvino as ov

            # save_model compresses the weights to fp16 by default: the f32 mode would then compute
            # with rounded weights (relative error ~2e-4 on a linear layer, checked here). Kept exact.
            # static: every input's shape fixed to the one timed (OpenVINO's guide: static shapes are
            # faster); the `dynamic` knob leaves every dimension free (`[?,?,...]`), as without `input=`
            static = {} if "dynamic" in knobs else {"input": [tuple(x.shape) for x in inputs]}
            ov.save_model(ov.convert_model(module, example_input=inputs, **static), str(folder / "model.xml"),
                          compress_to_fp16=False)
        elif engine == "aotinductor":
            program = torch.export.export(module, inputs)
            torch._inductor.aoti_compile_and_package(program, package_path=str(folder / "model.pt2"),
                                                     inductor_configs=settings(engine, knobs))
        elif engine == "tensorrt":
            import torch_tensorrt

            trt = torch_tensorrt.compile(module, ir="dynamo", inputs=list(inputs),
                                         enabled_precisions={torch.bfloat16 if "bf16" in knobs else torch.float32})
            torch_tensorrt.save(trt, str(folder / "model.ep"), inputs=list(inputs))
    except Exception as e:  # noqa: BLE001 (whatever the exporter raises, named with engine and model)
        cause = e.__cause__ if e.__cause__ is not None and e.__cause__ is not e else None
        why = f"{_first_line(e)}" + (f" (caused by {_first_line(cause)})" if cause else "")
        raise ExportFailed(f"{engine} could not export {model_name}: {why}") from e
    return load(engine, knobs, folder, device_type, protocol)


def _transformer_optimized(exported: Path, out: Path, module) -> None:
    """ONNX Runtime's documented route for transformer models: its Python fusions (attention, LayerNorm,
    GELU) over the exported graph. model_type 'vit' is the one without an attention mask, as the
    transformer workloads here have none; opt_level 1 is its default for that type (optimizer.py); the
    heads and width come from the model's first nn.MultiheadAttention (without them the attention
    fusion finds nothing for this type and says so)."""
    import torch
    from onnxruntime.transformers import optimizer

    attn = next((m for m in module.modules() if isinstance(m, torch.nn.MultiheadAttention)), None)
    heads, width = (attn.num_heads, attn.embed_dim) if attn is not None else (0, 0)
    optimizer.optimize_model(str(exported), model_type="vit", num_heads=heads, hidden_size=width,
                             opt_level=1).save_model_to_file(str(out))
    for f in exported.parent.glob(exported.name + "*"):  # only the optimized model is shipped
        f.unlink()


def fused_operators(folder: Path) -> dict[str, int]:
    """How many nodes of each fused transformer operator the saved ONNX model holds (read from the
    model itself; zero where ONNX Runtime's fusions found no pattern in the exported graph)."""
    import onnx

    ops = ("Attention", "MultiHeadAttention", "SkipLayerNormalization", "LayerNormalization", "Gelu", "FastGelu", "BiasGelu")
    nodes = onnx.load(str(folder / "model.onnx"), load_external_data=False).graph.node
    return {op: sum(n.op_type == op for n in nodes) for op in ops}


def _first_line(e: BaseException) -> str:
    """'TypeName: the first line of the message', without the terminal colours some exporters add."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(e)).strip()
    return f"{type(e).__name__}: {text.splitlines()[0]}" if text else type(e).__name__


def load(engine: str, knobs: frozenset, folder: Path, device_type: str = "cpu", protocol: str = "alone"):
    """A callable running the artifact saved in `folder` (a fresh process: the warm phase)."""
    import torch

    if engine == "onnxruntime":
        return _ort_session(folder / "model.onnx", device_type, protocol)
    if engine == "openvino":
        import openvino as ov

        return _ov_compiled(ov.Core().read_model(str(folder / "model.xml")), knobs)
    if engine == "aotinductor":
        return torch._inductor.aoti_load_package(str(folder / "model.pt2"))
    if engine == "tensorrt":
        import torch_tensorrt  # noqa: F401 (registers the TensorRT runtime ops the program calls)

        return torch.export.load(str(folder / "model.ep")).module()  # built once, not per call
    raise ValueError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")


def artifact_bytes(folder: Path) -> int | None:
    """What a deployment ships: the size of every file the engine saved (weights included)."""
    files = [p for p in Path(folder).rglob("*") if p.is_file()] if Path(folder).is_dir() else []
    return sum(p.stat().st_size for p in files) or None


class Lazy:
    """The engine as the compiled callable of a built workload: the first call converts (or, in the
    warm phase, loads the saved artifact), so the harness's first-call timing covers it."""

    def __init__(self, make):
        self._make, self._run = make, None

    def __call__(self, *xs):
        if self._run is None:
            self._run = self._make()
        return self._run(*xs)


