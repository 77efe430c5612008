"""The suite: every named workload (workload_type.Workload), per family and profile, and the
lookup by name. Each family is one benchmark page; `engines` sets the inference engines beside the
best compile recipes of the same models.

Standard library only at import time (each builder is a `ModelRef` to models.py); torch when a model
is built or the default profile asked for, torchvision when a vision model is built (a missing
torchvision makes those workloads `skipped`, not a crash).
"""

from __future__ import annotations

from .workload_type import (DTYPES, FAMILIES, LAYOUTS, PROFILES, STEPS, USER_FAMILY, ModelRef,  # noqa: F401 (the API)
                            Workload, WorkloadUnavailable)


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
    family = kw.pop("family", "vit" if arch.startswith("vit") else "resnet")
    # torchvision's ViT starts with a zero head: every output 0, and a check against eager of nothing
    builder = kw.pop("builder", ModelRef("vision_model_live_head") if arch.startswith("vit") else ModelRef("vision_model"))
    return Workload(name=name, family=family, title=title,
                    about=f"torchvision {arch}, random weights, {sizes['gpu']['image']}×{sizes['gpu']['image']} images.",
                    builder=builder, sizes=sizes, modes=modes, items="images", step=step,
                    dtype=dtype, layout=layout, needs=("torchvision",), **kw)


BLOCK_SIZES = {"cpu": {"batch": 8, "seq": 128, "d_model": 512, "heads": 8},
               "gpu": {"batch": 64, "seq": 512, "d_model": 1024, "heads": 16}}


def _overhead_and_pointwise() -> list[Workload]:
    suite = [
        Workload(
            name="tiny_op", family="overhead", title="One tiny op per call",
            about="`x + 1` on a one-element tensor: the time per call is the framework's overhead.",
            builder=ModelRef("tiny_op"), sizes={"cpu": {"numel": 1}, "gpu": {"numel": 1}},
            modes={"cpu": ("eager", "default"), "gpu": ("eager", "default", "reduce-overhead")},
            rtol=1e-6, timer_check=True),
    ]
    for depth in (1, 2, 4, 8, 16, 32):
        suite.append(Workload(
            name=f"pointwise_{depth:02d}", family="pointwise", title=f"Pointwise chain, N = {depth}",
            about=f"{depth} elementwise op(s) (multiply, add, relu in turn) on one large float32 tensor.",
            builder=ModelRef("pointwise"), sizes={"cpu": {"numel": 2**22, "depth": depth},
                                       "gpu": {"numel": 2**28, "depth": depth}},
            modes={"cpu": ("eager", "default"), "gpu": ("eager", "default")},
            items="tensors", rtol=1e-5, warm=False, traffic=True, timer_check=depth == 16))
    return suite


def _dense() -> list[Workload]:
    return [
        Workload(
            name="mlp", family="mlp-transformer", title="MLP inference",
            about="Three linear layers with GELU, float32, a batch of vectors.",
            builder=ModelRef("mlp"),
            sizes={"cpu": {"batch": 64, "features": 512, "hidden": 1024},
                   "gpu": {"batch": 4096, "features": 1024, "hidden": 4096}},
            modes={"cpu": ("eager", "default", "max-autotune"),
                   "gpu": ("eager", "default", "max-autotune", "max-autotune-no-cudagraphs")},
            items="samples", timer_check=True),
        Workload(
            name="mlp_train", family="mlp-transformer", title="MLP training step",
            about="The same MLP: forward, cross-entropy, backward and an SGD step.",
            builder=ModelRef("mlp"),
            sizes={"gpu": {"batch": 4096, "features": 1024, "hidden": 4096}},
            modes={"gpu": ("eager", "default", "max-autotune-no-cudagraphs")},
            items="samples", step="training"),
        Workload(
            name="transformer_block", family="mlp-transformer", title="Transformer encoder block inference",
            about="One pre-norm `nn.TransformerEncoderLayer` (self-attention + GELU MLP), float32.",
            builder=ModelRef("transformer_block"),
            sizes=BLOCK_SIZES,
            modes={"cpu": ("eager", "default"),
                   "gpu": ("eager", "default", "reduce-overhead", "max-autotune-no-cudagraphs")},
            items="sequences"),
        Workload(
            name="transformer_block_train", family="mlp-transformer", title="Transformer encoder block training step",
            about="The same block: forward, loss, backward and an SGD step.",
            builder=ModelRef("transformer_block"),
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


# Engine modes (engines.py) beside the best compile recipes: the deployer's "compile or convert?".
CPU_ENGINES = ("onnxruntime", "openvino", "openvino+bf16")
GPU_ENGINES = ("onnxruntime", "tensorrt", "tensorrt+bf16")


def _engine_suite() -> list[Workload]:
    """The same models as the benchmark pages, each with its best compile recipes (measured on this
    CPU: freezing, channels_last for convolutions, bf16 where the CPU has it) and every engine."""
    def engine_workload(base: Workload, name: str, cpu: tuple, gpu: tuple, **kw) -> Workload:
        fields = {f: getattr(base, f) for f in ("builder", "items", "rtol", "needs", "about")}
        return Workload(name=name, family="engines", title=kw.pop("title", base.title),
                        sizes={p: base.sizes[p] for p in base.sizes}, modes={"cpu": cpu, "gpu": gpu}, **fields, **kw)

    tiny, mlp, block = WORKLOADS_BY_NAME["tiny_op"], WORKLOADS_BY_NAME["mlp"], WORKLOADS_BY_NAME["transformer_block"]
    fp32_cpu = ("eager", "default", "default+freezing", "default+freezing+bf16", *CPU_ENGINES, "aotinductor+freezing",
                "aotinductor+freezing+bf16")
    fp32_gpu = ("eager", "max-autotune", *GPU_ENGINES, "aotinductor")
    vision_cpu = ("eager", "default+freezing+cl", "default+freezing+cl+bf16", *CPU_ENGINES, "aotinductor+freezing+cl",
                  "aotinductor+freezing+cl+bf16")
    vision_gpu = ("eager", "max-autotune+cl+bf16", *GPU_ENGINES, "aotinductor+cl+bf16")
    return [
        engine_workload(tiny, "engines_tiny_op", ("eager", "default", "onnxruntime", "openvino", "aotinductor"),
                        ("eager", "reduce-overhead", "onnxruntime", "tensorrt", "aotinductor"), title="One tiny op per call"),
        engine_workload(mlp, "engines_mlp", fp32_cpu, fp32_gpu, on_demand=("cpu",), title="MLP inference"),
        engine_workload(block, "engines_transformer_block", (*fp32_cpu, "onnxruntime+transformers"), fp32_gpu,
                        on_demand=("cpu",),
                        title="Transformer encoder block inference"),
        _vision("resnet50", "inference", "float32", "contiguous", {"batch": 4, "image": 224}, {"batch": 64, "image": 224},
                cpu_modes=(*vision_cpu, "openvino+dynamic"), gpu_modes=vision_gpu, on_demand=("cpu",), name="engines_resnet50_b4",
                title="ResNet-50 inference, batch 4", family="engines"),
        _vision("resnet50", "inference", "float32", "contiguous", {"batch": 16, "image": 224}, {"batch": 256, "image": 224},
                cpu_modes=vision_cpu, gpu_modes=vision_gpu, on_demand=("cpu",), name="engines_resnet50_b16",
                title="ResNet-50 inference, batch 16", family="engines"),
        _vision("vit_b_16", "inference", "float32", "contiguous", {"batch": 2, "image": 224}, {"batch": 128, "image": 224},
                cpu_modes=("eager", "default+freezing", "default+freezing+bf16", *CPU_ENGINES, "aotinductor+freezing",
                           "aotinductor+freezing+bf16", "onnxruntime+transformers"),
                gpu_modes=("eager", "max-autotune-no-cudagraphs+bf16", *GPU_ENGINES, "aotinductor+bf16"),
                on_demand=("cpu",), name="engines_vit_b_16", title="ViT-B/16 inference, batch 2", family="engines"),
    ]


# `measure --model X --family recipes|engines`: the modes a reader's model is measured with.
MODEL_MODE_SETS = {
    "recipes": {"cpu": CPU_RECIPES, "gpu": GPU_RECIPES},
    "engines": {"cpu": ("eager", "default+freezing", *CPU_ENGINES, "aotinductor+freezing"),
                "gpu": ("eager", "max-autotune", *GPU_ENGINES, "aotinductor")},
}


_BASE = _overhead_and_pointwise() + _dense() + _vision_suite() + _recipe_suite()
WORKLOADS_BY_NAME = {w.name: w for w in _BASE}
WORKLOADS: dict[str, Workload] = {w.name: w for w in _BASE + _engine_suite()}


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
    """This process's profile: gpu where torch sees a CUDA device (the page layer reads its build
    context's profile instead, made from the same machine facts)."""
    import torch

    return "gpu" if torch.cuda.is_available() else "cpu"


def device_type(profile: str, device: str | None = None) -> str:
    """The device a profile runs on unless one is named: the one definition ('cuda' for gpu, else 'cpu')."""
    return device or ("cuda" if profile == "gpu" else "cpu")


def default_device(profile: str):
    import torch

    if profile == "gpu" and not torch.cuda.is_available():
        raise RuntimeError("profile 'gpu' needs a CUDA device; this machine has none")
    return torch.device(device_type(profile))
