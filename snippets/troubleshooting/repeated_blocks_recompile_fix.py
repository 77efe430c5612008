"""Fix: keep per-layer Python ints out of the compiled block's guards; count the graphs for all blocks."""
import copy
import math

import torch
from torch._dynamo.utils import counters, guard_failures

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
WIDTH = 16
LAYERS = torch._dynamo.config.recompile_limit + 1  # as many blocks as in the symptom


class Block(torch.nn.Module):  # the symptom's block: reads its int layer_idx in forward
    def __init__(self, layer_idx):
        super().__init__()
        self.lin = torch.nn.Linear(WIDTH, WIDTH)
        self.layer_idx = layer_idx

    def forward(self, x):
        return x + self.lin(x) / math.sqrt(self.layer_idx + 1)


class TensorScale(Block):  # fix 1: compute the per-layer number once, keep it in a buffer
    def __init__(self, layer_idx):
        super().__init__(layer_idx)
        self.register_buffer("scale", torch.tensor(1 / math.sqrt(layer_idx + 1)), persistent=False)

    def forward(self, x):
        return x + self.lin(x) * self.scale


class TwoKinds(Block):  # when the index picks a behaviour, keep only what the behaviour needs
    def __init__(self, layer_idx):
        super().__init__(layer_idx)
        self.gated = layer_idx % 2 == 0  # a bool: two values, so at most two versions

    def forward(self, x):
        h = self.lin(x)
        return x + (h * torch.sigmoid(h) if self.gated else h.relu())


def graphs(make_block, grad=False, config=None, **compile_kwargs):
    """Compile every block in place, run them beside eager copies; return Dynamo's graph count."""
    torch._dynamo.reset()
    counters.clear()
    torch.manual_seed(0)
    blocks = torch.nn.ModuleList(make_block(i) for i in range(LAYERS)).to(DEVICE)
    eager = copy.deepcopy(blocks)
    for block in blocks:
        block.compile(backend="eager", **compile_kwargs)
    x = torch.randn(2, WIDTH, device=DEVICE)
    with torch._dynamo.config.patch(**(config or {})), torch.set_grad_enabled(grad):
        for _ in range(2):
            y, expected = x, x
            for block, reference in zip(blocks, eager):
                y, expected = block(y), reference(expected)
            torch.testing.assert_close(y, expected)
    return counters["stats"]["unique_graphs"]


rows = {
    "fix 1, per-layer number in a buffer": graphs(TensorScale),
    "fix 2, allow_unspec_int_on_nn_module=True": graphs(Block, config={"allow_unspec_int_on_nn_module": True}),
    "fix 3, two kinds of block (a bool attribute)": graphs(TwoKinds),
    "not a fix: compile(isolate_recompiles=True)": graphs(Block, isolate_recompiles=True),
    "fix 1 in training (grad enabled)": graphs(TensorScale, grad=True),
}
print(f"{LAYERS} blocks, each compiled with block.compile(); outputs equal to eager in every row")
for name, count in rows.items():
    print(f"  {name:<46} graphs={count}")
training = [reason for reasons in guard_failures.values() for reason in reasons]  # the last row's
print(f"the recompile in training: {training[0].splitlines()[0]}")

assert list(rows.values()) == [1, 2, 2, LAYERS, 2]
assert len(training) == 1 and "requires_grad mismatch" in training[0]  # the first block's input
