"""Named workloads: a model, its inputs and its tolerance, sized by profile.

A workload's spec (its sizes, modes, dtype, tolerance and the source of its builder) is hashed;
a record measured with another spec hash is stale. Standard library + torch + torchvision only.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from dataclasses import dataclass, field
from typing import Callable

import torch

PROFILES = ("cpu", "gpu")


@dataclass(frozen=True)
class Workload:
    name: str
    title: str
    about: str
    builder: Callable[[dict, torch.device], tuple[Callable, tuple]]
    sizes: dict  # profile -> keyword sizes passed to the builder
    modes: dict  # profile -> modes measured, eager first
    items: str = "calls"  # what one call processes, for throughput ("images", ...)
    rtol: float = 1e-3  # max |compiled - eager| / max |eager| allowed (fp32)
    extra: dict = field(default_factory=dict)

    def spec(self, profile: str) -> dict:
        return {"name": self.name, "profile": profile, "sizes": self.sizes[profile],
                "modes": list(self.modes[profile]), "items": self.items, "rtol": self.rtol,
                "dtype": "float32", "step": "inference (no_grad)"}

    def spec_hash(self, profile: str) -> str:
        blob = json.dumps(self.spec(profile), sort_keys=True) + inspect.getsource(self.builder)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def items_per_call(self, profile: str) -> int:
        return int(self.sizes[profile].get("batch", 1))

    def build(self, profile: str, device: torch.device):
        """Returns (fn, inputs): fn is the eager callable, inputs a tuple of tensors."""
        torch.manual_seed(0)
        return self.builder(self.sizes[profile], device)


def _pointwise_chain(sizes: dict, device: torch.device):
    depth = sizes["depth"]

    def chain(x):
        # Each line is one eager kernel that reads and writes the whole tensor;
        # inductor fuses the chain into one loop that reads x once and writes once.
        for i in range(depth):
            x = torch.sin(x) * 1.01 + 0.1 if i % 2 == 0 else torch.relu(x) - 0.05
        return x

    return chain, (torch.randn(sizes["numel"], device=device),)


def _mlp(sizes: dict, device: torch.device):
    d, h = sizes["features"], sizes["hidden"]
    model = torch.nn.Sequential(
        torch.nn.Linear(d, h), torch.nn.GELU(),
        torch.nn.Linear(h, h), torch.nn.GELU(),
        torch.nn.Linear(h, d),
    ).to(device).eval()
    return model, (torch.randn(sizes["batch"], d, device=device),)


def _resnet18(sizes: dict, device: torch.device):
    import torchvision

    model = torchvision.models.resnet18(weights=None).to(device).eval()
    x = torch.randn(sizes["batch"], 3, sizes["image"], sizes["image"], device=device)
    return model, (x,)


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in [
        Workload(
            name="pointwise_chain",
            title="Chain of pointwise ops (fusion)",
            about="16 elementwise ops on one large tensor: eager launches one kernel per op, "
                  "compiled fuses them into one.",
            builder=_pointwise_chain,
            sizes={"cpu": {"numel": 2**20, "depth": 16}, "gpu": {"numel": 2**26, "depth": 16}},
            modes={"cpu": ("eager", "default"), "gpu": ("eager", "default")},
            items="tensors",
            rtol=1e-4,
        ),
        Workload(
            name="mlp",
            title="Small MLP (inference)",
            about="Three linear layers with GELU, float32, batch of vectors.",
            builder=_mlp,
            sizes={"cpu": {"batch": 64, "features": 512, "hidden": 1024},
                   "gpu": {"batch": 4096, "features": 1024, "hidden": 4096}},
            modes={"cpu": ("eager", "default", "max-autotune"),
                   "gpu": ("eager", "default", "max-autotune")},
            items="samples",
        ),
        Workload(
            name="resnet18",
            title="torchvision ResNet-18 (inference)",
            about="Random-initialised ResNet-18 in eval mode, float32, 224×224 images.",
            builder=_resnet18,
            sizes={"cpu": {"batch": 8, "image": 224}, "gpu": {"batch": 128, "image": 224}},
            modes={"cpu": ("eager", "default"), "gpu": ("eager", "default")},
            items="images",
        ),
    ]
}


def get(name: str) -> Workload:
    try:
        return WORKLOADS[name]
    except KeyError:
        raise KeyError(f"unknown workload {name!r}; valid names: {', '.join(WORKLOADS)}") from None


def default_profile() -> str:
    return "gpu" if torch.cuda.is_available() else "cpu"


def default_device(profile: str) -> torch.device:
    if profile == "gpu" and not torch.cuda.is_available():
        raise RuntimeError("profile 'gpu' needs a CUDA device; this machine has none")
    return torch.device("cuda" if profile == "gpu" else "cpu")
