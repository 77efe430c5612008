"""The Workload: a model, its inputs, its step (inference or one training step) and tolerance.

A workload belongs to a *family* (one benchmark page) and is measured per *profile*: `cpu` sizes fit
a 2-core machine, `gpu` sizes a real accelerator. A workload absent from a profile's sizes is not
part of that profile. The spec (sizes, modes, dtype, layout, step, tolerance, and the source of the
builders) is hashed; a record measured with another spec hash is stale. The suite itself, and the
lookup by name: workloads.py. Standard library only at import time: a suite workload names its builder
(`ModelRef`, a function of models.py), which imports torch when a model is built, so the page layer
can read a workload's spec and hash without torch.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import inspect
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from . import engines, recipes, records

if TYPE_CHECKING:
    import torch

    from .models import Built

PROFILES = ("cpu", "gpu")
STEPS = ("inference", "training")
DTYPES = ("float32", "bfloat16")
LAYOUTS = ("contiguous", "channels_last")

FAMILIES = {  # family -> (page title, what the page answers)
    "overhead": ("Per-op overhead", "What one tiny operation costs per call, eager vs compiled."),
    "pointwise": ("Pointwise fusion", "How time and memory traffic grow with a chain of N elementwise ops."),
    "mlp-transformer": ("MLP and transformer block", "Dense layers and attention, inference and one training step."),
    "resnet": ("ResNet-18 and ResNet-50", "Convolutional networks: dtype, memory layout, inference and training."),
    "vit": ("ViT-B/16", "A vision transformer: speed and peak memory, inference and training."),
    "engines": ("Compile or convert?", "torch.compile's best recipe against ONNX Runtime, OpenVINO and AOTInductor."),
}


USER_FAMILY = "user"  # a reader's own model (usermodel.py): measured like a workload, on no page of ours


class WorkloadUnavailable(Exception):
    """The workload needs something this environment lacks (torchvision, a GPU): it is skipped."""


MODELS = Path(__file__).with_name("models.py")


@dataclass(frozen=True)
class ModelRef:
    """A builder of models.py by name: called, it imports models (and torch) and builds; its source,
    for the spec hash, is read from the file, the same text `inspect.getsource` gives the function."""

    name: str

    def __call__(self, sizes: dict, device):
        return getattr(importlib.import_module(f"{__package__}.models"), self.name)(sizes, device)

    def source(self) -> str:
        with MODELS.open(encoding="utf-8") as f:
            lines = f.readlines()
        node = next((n for n in ast.parse("".join(lines)).body
                     if isinstance(n, ast.FunctionDef) and n.name == self.name), None)
        if node is None:
            raise LookupError(f"models.py has no function {self.name!r}")
        first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        return "".join(inspect.getblock(lines[first:]))


def _source(builder) -> str:
    return builder.source() if isinstance(builder, ModelRef) else inspect.getsource(builder)


@dataclass(frozen=True)
class Workload:
    name: str
    family: str
    title: str
    about: str
    builder: Callable[[dict, torch.device], tuple]  # -> (module or fn, example inputs); a ModelRef in the suite
    sizes: dict  # profile -> keyword sizes passed to the builder; a missing profile = not measured there
    modes: dict  # profile -> modes measured, eager first
    items: str = "calls"  # what one call processes, for throughput ("images", ...)
    step: str = "inference"
    dtype: str = "float32"
    layout: str = "contiguous"
    rtol: float | None = None  # max |compiled - eager| / max |eager|; None = the default for dtype/step
    megacache: bool = False  # also measure compile from Mega-Cache artifacts in a fresh process
    needs: tuple = ()  # python modules the builder imports (missing -> skipped)
    # Harness switches: they change what is measured, so they are part of the spec and its hash.
    warm: bool = True  # also measure the warm-cache compile in a second process
    traffic: bool = False  # count the bytes an eager call reads and writes (pointwise, roofline)
    timer_check: bool = False  # also time with torch.utils.benchmark.Timer, for the methodology page
    # Profiles where the workload is measured only when asked for (measure --family/--workload):
    # too slow to compile for every cold site build of that profile. Not part of the spec.
    on_demand: tuple = ()

    def __post_init__(self):
        assert self.step in STEPS and self.dtype in DTYPES and self.layout in LAYOUTS, self.name
        assert self.family in FAMILIES or self.family == USER_FAMILY, self.name
        for profile, modes in self.modes.items():
            assert modes[0] == "eager", (self.name, profile)

    @property
    def tolerance(self) -> float:
        if self.rtol is not None:
            return self.rtol
        base = {"float32": 1e-3, "bfloat16": 3e-2}[self.dtype]
        return base * (10 if self.step == "training" else 1)  # gradients accumulate more rounding

    def in_profile(self, profile: str) -> bool:
        return profile in self.sizes

    def scheduled(self, profile: str) -> bool:
        """Measured by a site build and a plain `measure` of the profile (not only on demand)."""
        return self.in_profile(profile) and profile not in self.on_demand

    def spec(self, profile: str) -> dict:
        return {"name": self.name, "family": self.family, "profile": profile,
                "sizes": self.sizes[profile], "modes": list(self.modes[profile]), "items": self.items,
                "rtol": self.tolerance, "dtype": self.dtype, "layout": self.layout, "step": self.step,
                "megacache": self.megacache, "warm": self.warm, "traffic": self.traffic,
                "timer_check": self.timer_check,
                "how": ("torch.no_grad(), model.eval()" if self.step == "inference" else
                        "model.train(); torch.compile(model), loss.backward() and SGD step in eager")
                + ("; bfloat16 weights and inputs" if self.dtype == "bfloat16" and self.step == "inference"
                   else "; autocast(bfloat16) mixed precision, float32 weights" if self.dtype == "bfloat16"
                   else "")} | ({"mode_settings": settings} if (settings := self.mode_settings(profile)) else {})

    def mode_settings(self, profile: str) -> dict:
        """What a mode is built with beyond its name, where that changes what is timed: an engine's
        settings (engines.describe), and the input conversion of a mode built for another layout or
        dtype. Part of the spec: change a setting and the workload's records are stale."""
        out = {}
        for mode in self.modes[profile]:
            r = recipes.parse(mode)
            if r.engine:
                out[mode] = engines.describe(r.engine, r.knobs)
            elif r.knobs & {"cl", "bf16"}:
                out[mode] = "called with eager's float32 contiguous input, converted inside the timed call"
        return out

    def spec_hash(self, profile: str) -> str:
        blob = (json.dumps(self.spec(profile), sort_keys=True) + _source(self.builder)
                + ModelRef("instantiate").source())
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def items_per_call(self, profile: str) -> int:
        return records.items_per_call(self.sizes[profile])

    def unavailable(self) -> str | None:
        """Why this environment cannot run the workload, or None."""
        missing = [m for m in self.needs if importlib.util.find_spec(m) is None]
        return f"needs {', '.join(missing)}, which is not installed" if missing else None

    def build(self, profile: str, device: torch.device, knobs: frozenset = frozenset()) -> Built:
        """A fresh instance: same seed, so two builds start from identical weights and inputs."""
        import torch

        from . import models

        why = self.unavailable()
        if why:
            raise WorkloadUnavailable(why)
        torch.manual_seed(0)
        obj, inputs = self.builder(self.sizes[profile], device)
        return models.instantiate(self, obj, inputs, device, knobs)
