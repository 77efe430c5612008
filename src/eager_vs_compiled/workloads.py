"""Named workloads: a model, its inputs, its step (inference or one training step) and tolerance.

A workload belongs to a *family* (one benchmark page) and is measured per *profile*: `cpu` sizes fit
a 2-core machine, `gpu` sizes a real accelerator. A workload absent from a profile's sizes is not
part of that profile. The spec (sizes, modes, dtype, layout, step, tolerance, and the source of the
builders) is hashed; a record measured with another spec hash is stale.

Standard library + torch only at import time; torchvision is imported when a vision model is built
(and a missing torchvision makes those workloads `skipped`, not a crash).
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import json
from dataclasses import dataclass
from typing import Callable

import torch

from . import models
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
}


USER_FAMILY = "user"  # a reader's own model (usermodel.py): measured like a workload, on no page of ours


class WorkloadUnavailable(Exception):
    """The workload needs something this environment lacks (torchvision, a GPU): it is skipped."""


@dataclass(frozen=True)
class Workload:
    name: str
    family: str
    title: str
    about: str
    builder: Callable[[dict, torch.device], tuple]  # -> (module or fn, example inputs)
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
                   else "")}

    def spec_hash(self, profile: str) -> str:
        blob = (json.dumps(self.spec(profile), sort_keys=True) + inspect.getsource(self.builder)
                + inspect.getsource(models.instantiate))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def items_per_call(self, profile: str) -> int:
        return int(self.sizes[profile].get("batch", 1))

    def unavailable(self) -> str | None:
        """Why this environment cannot run the workload, or None."""
        missing = [m for m in self.needs if importlib.util.find_spec(m) is None]
        return f"needs {', '.join(missing)}, which is not installed" if missing else None

    def build(self, profile: str, device: torch.device, knobs: frozenset = frozenset()) -> Built:
        """A fresh instance: same seed, so two builds start from identical weights and inputs."""
        why = self.unavailable()
        if why:
            raise WorkloadUnavailable(why)
        torch.manual_seed(0)
        obj, inputs = self.builder(self.sizes[profile], device)
        return models.instantiate(self, obj, inputs, device, knobs)


# ----------------------------------------------------------------------------- the suite
ALL_MODES = ("eager", "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")


def _vision(arch: str, step: str, dtype: str, layout: str, cpu: dict | None, gpu: dict,
            cpu_modes=("eager", "default"), gpu_modes=ALL_MODES, name: str = "", title: str = "", **kw) -> Workload:
    short = {"float32": "fp32", "bfloat16": "bf16"}[dtype]
    name = name or f"{arch}_{'train' if step == 'training' else 'infer'}_{short}" + ("_cl" if layout == "channels_last" else "")
    pretty = {"resnet18": "ResNet-18", "resnet50": "ResNet-50", "vit_b_16": "ViT-B/16"}[arch]
    how = ("bf16 weights" if step == "inference" else "AMP bf16") if dtype == "bfloat16" else "fp32"
    title = title or f"{pretty} {step}, {how}" + (", channels_last" if layout == "channels_last" else "")
    sizes = {"gpu": {"arch": arch, **gpu}}
    if cpu:
        sizes["cpu"] = {"arch": arch, **cpu}
    modes = {"gpu": gpu_modes}
    if cpu:
        modes["cpu"] = cpu_modes
    if arch == "resnet50":  # its eager traffic places it on the roofline of the best-recipe page
        kw["traffic"] = True
    return Workload(name=name, family="vit" if arch.startswith("vit") else "resnet", title=title,
                    about=f"torchvision {arch}, random weights, {sizes['gpu']['image']}×{sizes['gpu']['image']} images.",
                    builder=models.vision_model, sizes=sizes, modes=modes, items="images", step=step,
                    dtype=dtype, layout=layout, needs=("torchvision",), **kw)


BLOCK_SIZES = {"cpu": {"batch": 8, "seq": 128, "d_model": 512, "heads": 8},
               "gpu": {"batch": 64, "seq": 512, "d_model": 1024, "heads": 16}}


def _overhead_and_pointwise() -> list[Workload]:
    suite = [
        Workload(
            name="tiny_op", family="overhead", title="One tiny op per call",
            about="`x + 1` on a one-element tensor: the time per call is the framework's overhead.",
            builder=models.tiny_op, sizes={"cpu": {"numel": 1}, "gpu": {"numel": 1}},
            modes={"cpu": ("eager", "default"), "gpu": ("eager", "default", "reduce-overhead")},
            rtol=1e-6, timer_check=True),
    ]
    for depth in (1, 2, 4, 8, 16, 32):
        suite.append(Workload(
            name=f"pointwise_{depth:02d}", family="pointwise", title=f"Pointwise chain, N = {depth}",
            about=f"{depth} elementwise op(s) (multiply, add, relu in turn) on one large float32 tensor.",
            builder=models.pointwise, sizes={"cpu": {"numel": 2**22, "depth": depth},
                                       "gpu": {"numel": 2**28, "depth": depth}},
            modes={"cpu": ("eager", "default"), "gpu": ("eager", "default")},
            items="tensors", rtol=1e-5, warm=False, traffic=True, timer_check=depth == 16))
    return suite


def _dense() -> list[Workload]:
    return [
        Workload(
            name="mlp", family="mlp-transformer", title="MLP inference",
            about="Three linear layers with GELU, float32, a batch of vectors.",
            builder=models.mlp,
            sizes={"cpu": {"batch": 64, "features": 512, "hidden": 1024},
                   "gpu": {"batch": 4096, "features": 1024, "hidden": 4096}},
            modes={"cpu": ("eager", "default", "max-autotune"),
                   "gpu": ("eager", "default", "max-autotune", "max-autotune-no-cudagraphs")},
            items="samples", timer_check=True),
        Workload(
            name="mlp_train", family="mlp-transformer", title="MLP training step",
            about="The same MLP: forward, cross-entropy, backward and an SGD step.",
            builder=models.mlp,
            sizes={"gpu": {"batch": 4096, "features": 1024, "hidden": 4096}},
            modes={"gpu": ("eager", "default", "max-autotune-no-cudagraphs")},
            items="samples", step="training"),
        Workload(
            name="transformer_block", family="mlp-transformer", title="Transformer encoder block inference",
            about="One pre-norm `nn.TransformerEncoderLayer` (self-attention + GELU MLP), float32.",
            builder=models.transformer_block,
            sizes=BLOCK_SIZES,
            modes={"cpu": ("eager", "default"),
                   "gpu": ("eager", "default", "reduce-overhead", "max-autotune-no-cudagraphs")},
            items="sequences"),
        Workload(
            name="transformer_block_train", family="mlp-transformer", title="Transformer encoder block training step",
            about="The same block: forward, loss, backward and an SGD step.",
            builder=models.transformer_block,
            sizes=BLOCK_SIZES,
            modes={"cpu": ("eager", "default"), "gpu": ("eager", "default", "max-autotune-no-cudagraphs")},
            items="sequences", step="training"),
    ]


CPU_RECIPES = ("eager", "default", "max-autotune", "eager+cl", "default+cl", "default+freezing",
               "default+freezing+cl", "max-autotune+freezing+cl", "eager+cl+bf16", "default+freezing+cl+bf16",
               "default+physical-cores")
GPU_RECIPES = ("eager", "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs", "eager+cl+bf16",
               "default+cl+bf16", "reduce-overhead+cl+bf16", "max-autotune+cl+bf16",
               "max-autotune-no-cudagraphs+cl+bf16", "default+freezing+cl+bf16")


def _recipe_suite() -> list[Workload]:
    """ResNet-50 inference, every recipe (recipes.py) a mode of its own, at two batch sizes."""
    return [
        _vision("resnet50", "inference", "float32", "contiguous", {"batch": 4, "image": 224},
                {"batch": 256, "image": 224}, cpu_modes=CPU_RECIPES, gpu_modes=GPU_RECIPES, on_demand=("cpu",),
                name="resnet50_infer_recipes", title="ResNet-50 inference, every recipe"),
        _vision("resnet50", "inference", "float32", "contiguous", {"batch": 16, "image": 224},
                {"batch": 64, "image": 224}, on_demand=("cpu",), name="resnet50_infer_recipes_b16",
                cpu_modes=("eager", "default+freezing+cl", "default+freezing+cl+bf16"),
                gpu_modes=("eager", "max-autotune+cl+bf16", "reduce-overhead+cl+bf16"),
                title="ResNet-50 inference, the best recipes at another batch size"),
    ]


def _vision_suite() -> list[Workload]:
    small, big = {"batch": 4, "image": 224}, {"batch": 256, "image": 224}
    return [
        _vision("resnet18", "inference", "float32", "contiguous", None, big),
        _vision("resnet50", "inference", "float32", "contiguous", small, big, megacache=True,
                cpu_modes=("eager", "default", "max-autotune")),
        _vision("resnet50", "inference", "float32", "channels_last", None, big),
        _vision("resnet50", "inference", "bfloat16", "contiguous", None, big),
        _vision("resnet50", "inference", "bfloat16", "channels_last", None, big),
        _vision("resnet18", "training", "float32", "contiguous", {"batch": 8, "image": 224},
                {"batch": 128, "image": 224}, gpu_modes=("eager", "default", "default+compiled-optimizer"),
                cpu_modes=("eager", "default", "default+compiled-optimizer"), on_demand=("cpu",)),
        _vision("resnet50", "training", "float32", "contiguous", None,
                {"batch": 128, "image": 224}, gpu_modes=("eager", "default")),
        _vision("resnet50", "training", "bfloat16", "channels_last", None, {"batch": 128, "image": 224},
                gpu_modes=("eager", "default", "max-autotune-no-cudagraphs")),
        _vision("vit_b_16", "inference", "float32", "contiguous", {"batch": 2, "image": 224},
                {"batch": 128, "image": 224}, gpu_modes=("eager", "default", "max-autotune-no-cudagraphs")),
        _vision("vit_b_16", "inference", "bfloat16", "contiguous", None, {"batch": 128, "image": 224},
                gpu_modes=("eager", "default", "max-autotune-no-cudagraphs")),
        _vision("vit_b_16", "training", "float32", "contiguous", {"batch": 2, "image": 224},
                {"batch": 64, "image": 224}, gpu_modes=("eager", "default")),
        _vision("vit_b_16", "training", "bfloat16", "contiguous", None, {"batch": 64, "image": 224},
                gpu_modes=("eager", "default")),
    ]


WORKLOADS: dict[str, Workload] = {w.name: w for w in _overhead_and_pointwise() + _dense() + _vision_suite()
                                  + _recipe_suite()}


USER: dict[str, Workload] = {}  # readers' models of this process (never listed with the suite)


def register(w: Workload) -> None:
    """Make a reader's model known to this process by name (see usermodel.workload_for)."""
    USER[w.name] = w


def get(name: str) -> Workload:
    try:
        return WORKLOADS[name] if name in WORKLOADS else USER[name]
    except KeyError:
        raise KeyError(f"unknown workload {name!r}; valid names: {', '.join(WORKLOADS)}") from None


def in_profile(profile: str, on_demand: bool = False) -> list[Workload]:
    """The profile's workloads, in the order they are measured; with `on_demand`, also those measured
    only when asked for."""
    return [w for w in WORKLOADS.values() if (w.in_profile(profile) if on_demand else w.scheduled(profile))]


def family(name: str) -> list[Workload]:
    if name not in FAMILIES:
        raise KeyError(f"unknown family {name!r}; valid names: {', '.join(FAMILIES)}")
    return [w for w in WORKLOADS.values() if w.family == name]


def default_profile() -> str:
    return "gpu" if torch.cuda.is_available() else "cpu"


def default_device(profile: str) -> torch.device:
    if profile == "gpu" and not torch.cuda.is_available():
        raise RuntimeError("profile 'gpu' needs a CUDA device; this machine has none")
    return torch.device("cuda" if profile == "gpu" else "cpu")
