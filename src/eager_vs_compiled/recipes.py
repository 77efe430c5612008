"""Recipes: a compile mode with knobs, measured as a mode of its own, e.g. `default+freezing+cl`.

A recipe name is a base mode (`eager`, a `torch.compile` mode, or an inference engine of engines.py)
and knobs joined by `+`:
- `freezing`: Inductor freezing (`torch._inductor.config.freezing`): weights become constants,
  prepacked, and conv+BN are folded; inference only;
- `cl`: channels_last memory layout for the model and its 4-d inputs;
- `bf16`: bfloat16 weights and inputs (inference) or autocast (training), checked against fp32
  eager with bfloat16's tolerance; on a CPU only where it has native bf16 (AMX or AVX512-BF16);
- `physical-cores`: one thread per physical core instead of one per logical CPU;
- `compiled-optimizer`: the optimizer step compiled too (training only);
- `dynamic`: an engine's input shapes left dynamic (OpenVINO: `convert_model` without `input=`),
  where it is otherwise built for the static shape it is timed at;
- `transformers`: ONNX Runtime's transformer optimizer over the exported graph (engines.py).
Every mode is timed on the input a caller holds (float32, contiguous): a mode with `cl` or `bf16`
converts it inside its timed call (adapt_inputs).
Standard library + torch.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .engines import ENGINES

KNOBS = ("freezing", "cl", "bf16", "physical-cores", "compiled-optimizer", "dynamic", "transformers")
ENGINE_KNOBS = ("dynamic", "transformers")  # settings of an engine, meaningless for torch.compile
BASES = ("eager", "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs") + ENGINES


@dataclass(frozen=True)
class Recipe:
    base: str
    knobs: frozenset

    @property
    def name(self) -> str:
        return "+".join([self.base, *[k for k in KNOBS if k in self.knobs]])

    @property
    def compiled(self) -> bool:
        return self.base != "eager"

    @property
    def engine(self) -> str | None:
        """The inference engine of an engine mode (engines.py), None for eager and torch.compile."""
        return self.base if self.base in ENGINES else None


def parse(name: str) -> Recipe:
    """'default+freezing+cl' -> Recipe; a ValueError names what is unknown."""
    base, *knobs = name.split("+")
    if base not in BASES:
        raise ValueError(f"unknown mode {base!r} in {name!r}; modes: {', '.join(BASES)}")
    unknown = [k for k in knobs if k not in KNOBS]
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} in {name!r}; knobs: {', '.join(KNOBS)}")
    return Recipe(base, frozenset(knobs))


def cpu_flags() -> set[str]:
    try:
        line = next(ln for ln in Path("/proc/cpuinfo").read_text().splitlines() if ln.startswith("flags"))
        return set(line.split(":", 1)[1].split())
    except (OSError, StopIteration):
        return set()


def physical_cores() -> int | None:
    """Cores without their SMT siblings, from Linux's topology files; None where unknown."""
    cores = set()
    for cpu in os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else ():
        sibling = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list")
        try:
            cores.add(re.split(r"[,-]", sibling.read_text().strip())[0])
        except OSError:
            return None
    return len(cores) or None


def unsupported(recipe: Recipe, step: str, device_type: str) -> str | None:
    """Why this recipe cannot run here, read from the machine (recorded as `skipped`), or None."""
    if recipe.engine:
        from . import engines

        why = engines.unsupported(recipe.engine, recipe.knobs, step, device_type)
        if why:
            return why
    engine_only = sorted(recipe.knobs & set(ENGINE_KNOBS)) if not recipe.engine else []
    if engine_only:
        return {"dynamic": "dynamic applies to an engine's input shapes (openvino+dynamic); torch.compile takes dynamic=True",
                "transformers": "transformers applies to ONNX Runtime's transformer optimizer (onnxruntime+transformers)",
                }[engine_only[0]]
    if "freezing" in recipe.knobs and (step != "inference" or not recipe.compiled):
        return "freezing applies to compiled inference only"
    if "compiled-optimizer" in recipe.knobs and (step != "training" or not recipe.compiled):
        return "a compiled optimizer step applies to compiled training only"
    if "bf16" in recipe.knobs and device_type == "cpu":
        native = {"amx_bf16", "avx512_bf16"} & cpu_flags()
        if not native:
            return "bfloat16 needs native support on this CPU (AMX or AVX512-BF16): its flags have neither"
    if "physical-cores" in recipe.knobs:
        logical, physical = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None, physical_cores()
        if physical is None or physical == logical:
            return (f"one thread per physical core is what already runs here ({physical} physical cores, "
                    f"{logical} logical CPUs)" if physical else "the number of physical cores is unknown here")
    return None


def adapt_inputs(knobs: frozenset, step: str, xs: tuple) -> tuple:
    """The caller's inputs (float32, contiguous, as eager takes them) in the layout and dtype a mode
    built with `knobs` computes in: the conversion models.instantiate gives that mode's own inputs,
    here done inside the mode's timed call, so that every mode starts from the same input."""
    import torch

    if "cl" in knobs:
        xs = tuple(x.contiguous(memory_format=torch.channels_last) if x.dim() == 4 else x for x in xs)
    if "bf16" in knobs and step == "inference":
        xs = tuple(x.to(torch.bfloat16) if x.is_floating_point() else x for x in xs)
    return xs


def on_callers_input(call, recipe: Recipe, step: str):
    """`call` as every mode is timed: given the caller's float32, contiguous inputs, converting them
    first (adapt_inputs) where the mode was built for another layout or dtype."""
    knobs = build_knobs(recipe)
    if not knobs & {"cl", "bf16"}:
        return call
    return lambda *xs: call(*adapt_inputs(knobs, step, xs))


def build_knobs(recipe: Recipe) -> frozenset:
    """The knobs the PyTorch model is built with: an engine that takes bf16 as its own precision
    setting (OpenVINO, TensorRT) converts the float32 model and computes in bf16 itself."""
    if recipe.engine in ("openvino", "tensorrt"):
        return recipe.knobs - {"bf16"}
    return recipe.knobs


def tolerance(recipe: Recipe, base_tolerance: float, step: str) -> float:
    """bf16 recipes are checked against fp32 eager with bfloat16's tolerance, and say so."""
    if "bf16" not in recipe.knobs:
        return base_tolerance
    return 3e-2 * (10 if step == "training" else 1)


def configure(recipe: Recipe) -> None:
    """Settings a recipe changes in its own measurement process, before anything compiles."""
    import torch

    if "freezing" in recipe.knobs:
        import torch._inductor.config

        torch._inductor.config.freezing = True
    if "physical-cores" in recipe.knobs and physical_cores():
        torch.set_num_threads(physical_cores())


THIRD_PARTY = ("onnxruntime", "openvino", "tensorrt")  # engines outside torch (AOTInductor is torch's own)


def kind(mode: str) -> str:
    """What a mode is, the one definition the pages and the report share: 'eager', 'compile' (a
    torch.compile recipe), 'aot' (torch.export + AOTInductor), 'engine' (ONNX Runtime, OpenVINO,
    TensorRT) or 'other' (a name this version does not know: a fork's record)."""
    try:
        r = parse(mode)
    except ValueError:
        return "other"
    if r.engine:
        return "engine" if r.engine in THIRD_PARTY else "aot"
    return "compile" if r.compiled else "eager"
