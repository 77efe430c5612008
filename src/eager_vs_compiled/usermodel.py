"""Your model, measured like our workloads: `measure --model path/to/file.py:factory`.

`factory()` returns `(model_or_fn, example_inputs)`, a module alone (its input shape given with
`--input-shape`, e.g. `--model torchvision.models:resnet50 --input-shape 4,3,224,224`), or a dict with the keys `model`, `inputs` and
optionally `step` ("inference" or "training"), `dtype` ("float32", "bfloat16"), `rtol` (the
correctness tolerance), `inputs2` (inputs of a second shape, for the recompile check) and `items`
(what one call processes, for throughput). Standard library + torch, so it runs on a bare image.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import json
import re
import sys
from pathlib import Path

import torch

from . import paths, workloads

USER_FAMILY = workloads.USER_FAMILY
KEYS = {"model", "inputs", "step", "dtype", "rtol", "inputs2", "items"}


class ModelError(Exception):
    """A factory that cannot be used, named, with what is wrong with it."""


def load_factory(target: str):
    """The factory function named by 'path/to/file.py:name' or 'package.module:name'."""
    path_or_module, sep, name = target.rpartition(":")
    if not sep or not name.isidentifier():
        raise ModelError(f"--model {target!r}: expected FILE.py:FUNCTION or MODULE:FUNCTION")
    try:
        if path_or_module.endswith(".py") or "/" in path_or_module:
            path = (paths.root() / path_or_module).resolve()  # a relative path: from the project's root
            if not path.is_file():
                raise ModelError(f"--model {target!r}: no such file {path}")
            spec = importlib.util.spec_from_file_location(f"evc_user_{path.stem}", path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(path_or_module)
    except ModelError:
        raise
    except Exception as e:  # noqa: BLE001 (whatever the user's module raises, name it)
        raise ModelError(f"--model {target!r}: importing {path_or_module} failed: {type(e).__name__}: {e}") from e
    factory = getattr(module, name, None)
    if not callable(factory):
        raise ModelError(f"--model {target!r}: {path_or_module} has no function {name!r}")
    return factory


def _tensors(value, what: str, target: str) -> tuple:
    value = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    if not value or not all(isinstance(v, torch.Tensor) for v in value):
        raise ModelError(f"--model {target!r}: {what} must be a tensor or a tuple of tensors, "
                         f"got {', '.join(type(v).__name__ for v in value) or 'nothing'}")
    return value


def parse_shape(text: str) -> tuple[int, ...]:
    """'4,3,224,224' -> (4, 3, 224, 224); a ModelError names what is wrong."""
    try:
        shape = tuple(int(part) for part in text.replace("x", ",").split(","))
    except ValueError:
        shape = ()
    if not shape or any(n <= 0 for n in shape):
        raise ModelError(f"--input-shape {text!r}: expected positive sizes separated by commas, e.g. 4,3,224,224")
    return shape


def call_factory(target: str, input_shape: tuple | list | None = None) -> dict:
    """The factory's model and inputs, checked: every problem is a ModelError naming the factory.
    A factory that returns a model alone (torchvision.models:resnet18) gets one random input of
    `input_shape` (--input-shape), seeded."""
    try:
        got = load_factory(target)()
    except ModelError:
        raise
    except Exception as e:  # noqa: BLE001
        raise ModelError(f"--model {target!r}: the factory raised {type(e).__name__}: {e}") from e
    if isinstance(got, torch.nn.Module):
        if not input_shape:
            raise ModelError(f"--model {target!r}: the factory returned a model without example inputs: give "
                             "their shape with --input-shape (e.g. --input-shape 4,3,224,224 for an image model), "
                             "or return (model, inputs)")
        torch.manual_seed(0)
        got = (got, (torch.randn(*input_shape),))
    if isinstance(got, tuple) and len(got) == 2:
        got = {"model": got[0], "inputs": got[1]}
    if not isinstance(got, dict) or not {"model", "inputs"} <= set(got) or set(got) - KEYS:
        raise ModelError(f"--model {target!r}: the factory must return (model, inputs) or a dict with 'model' and "
                         f"'inputs' (optional: {', '.join(sorted(KEYS - {'model', 'inputs'}))}), not "
                         f"{type(got).__name__}{sorted(got) if isinstance(got, dict) else ''}")
    if not callable(got["model"]):
        raise ModelError(f"--model {target!r}: 'model' must be an nn.Module or a function")
    spec = {"model": got["model"], "inputs": _tensors(got["inputs"], "'inputs'", target),
            "inputs2": _tensors(got["inputs2"], "'inputs2'", target) if got.get("inputs2") is not None else None,
            "step": got.get("step", "inference"), "dtype": got.get("dtype", "float32"), "rtol": got.get("rtol"),
            "items": str(got.get("items", "calls"))}
    if spec["step"] not in workloads.STEPS or spec["dtype"] not in workloads.DTYPES:
        raise ModelError(f"--model {target!r}: step must be one of {workloads.STEPS} and dtype one of "
                         f"{workloads.DTYPES}, not {spec['step']!r} / {spec['dtype']!r}")
    if spec["step"] == "training" and not isinstance(spec["model"], torch.nn.Module):
        raise ModelError(f"--model {target!r}: a training step needs an nn.Module (its parameters get gradients)")
    out = spec["model"](*spec["inputs"])
    leaves = torch.utils._pytree.tree_leaves(out)
    if not leaves or not all(isinstance(t, torch.Tensor) for t in leaves):
        raise ModelError(f"--model {target!r}: the model's output must be tensors (or nested tuples/lists/dicts "
                         f"of tensors) to be compared with eager, got {type(out).__name__}")
    return spec


def _build(sizes: dict, device: torch.device):
    """The builder of a user workload: the factory's model and inputs, on the device."""
    spec = call_factory(sizes["model"], sizes.get("input_shape"))
    model, inputs = spec["model"], tuple(x.to(device) for x in spec["inputs"])
    return (model.to(device) if isinstance(model, torch.nn.Module) else model), inputs


def _shown(target: str) -> str:
    """The target as a reader can use it: a file under the checkout relative to it."""
    from .snippets import relative_paths

    return relative_paths(target)


def modes_for(families: list[str], modes: list[str], profile: str) -> list[str] | None:
    """The modes of `--family recipes|engines` (in their order), then those named with `--mode`, eager
    first, each once; None when neither was given (the command's default modes)."""
    chosen: list[str] = []
    for fam in families:
        chosen += [m for m in workloads.MODEL_MODE_SETS[fam][profile] if m not in chosen]
    chosen += [m for m in modes if m not in chosen]
    return (["eager"] + [m for m in chosen if m != "eager"]) if chosen else None


def name_of(target: str) -> str:
    """'my_model.py:factory' -> 'my_model-factory': the record's file name (store.model_name)."""
    from . import store

    return store.model_name(target)


def workload_for(target: str, profile: str, input_shape: tuple | list | None = None) -> workloads.Workload:
    """A Workload that measures the factory's model: the modes of the device, its step and dtype."""
    spec = call_factory(target, input_shape)
    path_or_module = target.rpartition(":")[0]
    source = (paths.root() / path_or_module).resolve() if path_or_module.endswith(".py") or "/" in path_or_module else None
    code = source.read_text(encoding="utf-8") if source else inspect.getsource(load_factory(target))
    modes = ("eager", "default", "max-autotune") if profile == "cpu" else workloads.ALL_MODES
    batch = int(spec["inputs"][0].shape[0]) if spec["inputs"][0].dim() else 1
    w = workloads.Workload(
        name=name_of(target), family=USER_FAMILY, title=f"Your model: {_shown(target)}",
        about=f"`{_shown(target)}`", builder=_build,
        sizes={profile: {"model": target, "batch": batch, "source": hashlib.sha256(code.encode()).hexdigest()[:16],
                         **({"input_shape": list(input_shape)} if input_shape else {})}},
        modes={profile: modes}, items=spec["items"], step=spec["step"], dtype=spec["dtype"], rtol=spec["rtol"],
        warm=True)
    workloads.register(w)
    return w


# --- the compile-readiness check, run in a fresh process before any timing -------------------------------
def readiness(target: str, input_shape: list | None = None) -> dict:
    """Graphs and graph breaks (torch._dynamo.explain), recompiles across two input shapes, both with
    the `eager` backend so that nothing is code-generated: how ready the model is for torch.compile."""
    import torch._dynamo

    spec = call_factory(target, input_shape)
    model = spec["model"]
    report = torch._dynamo.explain(model)(*spec["inputs"])
    out = {"graphs": report.graph_count, "graph_breaks": report.graph_break_count,
           "break_reasons": [str(b.reason).strip().splitlines()[0][:200] for b in report.break_reasons][:10]}
    torch._dynamo.reset()
    if spec["inputs2"] is not None:
        frames = []
        compiled = torch.compile(model, backend=lambda gm, ex: (frames.append(1), gm.forward)[1])
        compiled(*spec["inputs"])
        first = len(frames)
        compiled(*spec["inputs2"])
        out["recompiles_on_second_shape"] = len(frames) - first
    return out


if __name__ == "__main__":  # python -m eager_vs_compiled.usermodel TARGET OUT: the readiness check
    try:
        result = readiness(sys.argv[1], json.loads(sys.argv[3]) if len(sys.argv) > 3 else None)
    except ModelError as e:
        result = {"error": str(e)}
    Path(sys.argv[2]).write_text(json.dumps(result))
