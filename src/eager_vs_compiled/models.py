"""What one call of a workload runs: the model builders, and the step that wraps a built model
(inference, or one training step). Both are hashed into the workload's spec: change them and
every record of the workload is stale. Standard library + torch (torchvision when a vision model
is built)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch


@dataclass
class Built:
    """One instance of a workload: `call(*inputs)` runs a step and returns what is compared.

    `model` is the module `torch.compile` wraps (None for a plain function, then `fn` is compiled);
    `params` are the tensors whose gradients a training step is checked on.
    """

    call: Callable
    inputs: tuple
    model: torch.nn.Module | None = None
    fn: Callable | None = None
    compiled: Callable | None = None

    def grads(self) -> list[torch.Tensor]:
        if self.model is None:
            return []
        return [p.grad for p in self.model.parameters() if p.grad is not None]


def instantiate(w, obj, inputs: tuple, device: torch.device, knobs: frozenset = frozenset()) -> Built:
    """Wrap a builder's module/function into the step the workload `w` measures (its `step`,
    `dtype`, `layout`): inference under no_grad, or one training step with an SGD update. A
    recipe's `knobs` (recipes.py) switch on channels_last (`cl`), bfloat16 (`bf16`) and a compiled
    optimizer step (`compiled-optimizer`)."""
    model = obj if isinstance(obj, torch.nn.Module) else None
    low = torch.bfloat16 if w.dtype == "bfloat16" or "bf16" in knobs else None
    channels_last = w.layout == "channels_last" or "cl" in knobs
    memory_format = torch.channels_last if channels_last else torch.contiguous_format
    if model is not None:
        model = model.to(device)
        if channels_last:
            model = model.to(memory_format=memory_format)
            inputs = tuple(x.contiguous(memory_format=memory_format) if x.dim() == 4 else x for x in inputs)
        if w.step == "inference" and low is not None:  # bf16 weights and inputs
            model = model.to(low)
            inputs = tuple(x.to(low) if x.is_floating_point() else x for x in inputs)
    built = Built(call=None, inputs=inputs, model=model, fn=None if model is not None else obj)

    def forward(*xs):
        target = next(t for t in (built.compiled, built.model, built.fn) if t is not None)
        return target(*xs)

    if w.step == "inference":
        def call(*xs):
            with torch.no_grad():
                return forward(*xs)
        model is not None and model.eval()
    else:
        assert model is not None, f"{w.name}: a training step needs a module"
        model.train()
        optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
        # the compiled-optimizer recipe: PyTorch's compiled-optimizer pattern, the step in its own graph
        step = torch.compile(optimizer.step) if "compiled-optimizer" in knobs else optimizer.step
        torch.manual_seed(1)
        first = inputs[0]
        labels = torch.randint(0, 10, (first.shape[0],), device=device)

        def call(*xs):
            optimizer.zero_grad(set_to_none=True)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=low is not None):
                out = forward(*xs)
                logits = out.flatten(1)[:, :10].float()
                loss = torch.nn.functional.cross_entropy(logits, labels)
            loss.backward()
            step()
            return out.detach(), loss.detach()
    built.call = call
    return built



# --- builders: (sizes, device) -> (module or function, example inputs) ------------------------------
def tiny_op(sizes: dict, device: torch.device):
    def add_one(x):
        return x + 1  # one tiny kernel: the time per call is almost all overhead

    return add_one, (torch.randn(sizes["numel"], device=device),)


def pointwise(sizes: dict, device: torch.device):
    depth = sizes["depth"]

    def chain(x):
        # `depth` eager kernels, each reading and writing the whole tensor; inductor fuses the
        # chain into one loop that reads x once and writes the result once.
        for i in range(depth):
            x = x * 0.999 if i % 3 == 0 else (x + 0.001 if i % 3 == 1 else torch.relu(x))
        return x

    return chain, (torch.randn(sizes["numel"], device=device),)


def mlp(sizes: dict, device: torch.device):
    d, h = sizes["features"], sizes["hidden"]
    model = torch.nn.Sequential(
        torch.nn.Linear(d, h), torch.nn.GELU(),
        torch.nn.Linear(h, h), torch.nn.GELU(),
        torch.nn.Linear(h, d),
    )
    return model, (torch.randn(sizes["batch"], d, device=device),)


def transformer_block(sizes: dict, device: torch.device):
    d = sizes["d_model"]
    model = torch.nn.TransformerEncoderLayer(d, sizes["heads"], 4 * d, dropout=0.0, batch_first=True,
                                             norm_first=True, activation="gelu")
    return model, (torch.randn(sizes["batch"], sizes["seq"], d, device=device),)


def vision_model(sizes: dict, device: torch.device):
    import torchvision

    kwargs = {"image_size": sizes["image"]} if sizes["arch"].startswith("vit") else {}
    model = getattr(torchvision.models, sizes["arch"])(weights=None, **kwargs)
    x = torch.randn(sizes["batch"], 3, sizes["image"], sizes["image"], device=device)
    return model, (x,)


def vision_model_live_head(sizes: dict, device: torch.device):
    """A torchvision model whose classification head is random, not zero: torchvision's ViT zeroes its
    head at init (torchvision/models/vision_transformer.py, `nn.init.zeros_(self.heads.head.weight)`),
    so with random weights every output is 0 and a comparison with eager checks nothing."""
    model, inputs = vision_model(sizes, device)
    head = model.heads.head if hasattr(model, "heads") else model.fc
    torch.nn.init.normal_(head.weight, std=0.02)
    torch.nn.init.normal_(head.bias, std=0.02)
    return model, inputs


def small_cnn(sizes: dict, device: torch.device):
    """Conv-BN-ReLU twice and a linear head: a CNN that compiles in seconds (the recipe tests)."""
    c = sizes.get("channels", 8)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, c, 3, padding=1), torch.nn.BatchNorm2d(c), torch.nn.ReLU(),
        torch.nn.Conv2d(c, c, 3, padding=1), torch.nn.BatchNorm2d(c), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(c, 10))
    return model, (torch.randn(sizes["batch"], 3, sizes["image"], sizes["image"], device=device),)
