"""Symptom: blocks compiled one by one recompile for each layer's `self.layer_idx`, then hit the limit."""
# expects: ^- \d+/\d+: self\.layer_idx == 0 .*HINT: torch\.compile considers integer attributes
import logging
import math

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
WIDTH = 16
LAYERS = torch._dynamo.config.recompile_limit + 1  # one block more than the limit


class Capture(logging.Handler):
    """Keep Dynamo's log records (they go to stderr by default) to print them below."""

    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)


class Block(torch.nn.Module):
    def __init__(self, layer_idx):
        super().__init__()
        self.lin = torch.nn.Linear(WIDTH, WIDTH)
        self.layer_idx = layer_idx  # a Python int, different in every block

    def forward(self, x):  # a residual branch scaled down with depth
        return x + self.lin(x) / math.sqrt(self.layer_idx + 1)


graph_runs = []


def counting_eager(gm, example_inputs):  # Dynamo's graph, run as it is, counting its runs
    def run(*args):
        graph_runs.append(1)
        return gm.forward(*args)
    return run


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(recompiles=True)  # the same as TORCH_LOGS=recompiles

torch.manual_seed(0)
blocks = torch.nn.ModuleList(Block(i) for i in range(LAYERS)).to(DEVICE)
for block in blocks:  # regional compilation: each block in place
    block.compile(backend=counting_eager)
x = torch.randn(2, WIDTH, device=DEVICE)
with torch.no_grad():
    for _ in range(2):  # the first pass compiles; the second shows what each block runs
        graph_runs.clear()
        y = x
        for block in blocks:
            y = block(y)

reasons = [r for r in capture.records if r.name.endswith("__recompiles")]
hit = [r for r in capture.records if "recompile_limit" in r.getMessage()]
if not reasons:
    raise AssertionError("no recompilation between blocks: the symptom is gone in this torch")
failed = next(ln.strip() for ln in reasons[0].getMessage().splitlines() if "layer_idx ==" in ln)
print(failed, end="\n\n")  # the guard that failed: the line that tells this recompile apart
print(reasons[0].getMessage(), end="\n\n")  # the whole log record, as TORCH_LOGS=recompiles prints it
if hit:
    print("\n".join(hit[0].getMessage().splitlines()[:2]), end="\n\n")
print(f"blocks: {LAYERS}, graphs compiled: {counters['stats']['unique_graphs']}, "
      f"recompilations logged: {len(reasons)}")
print(f"second pass: {len(graph_runs)} blocks ran a compiled graph, "
      f"{LAYERS - len(graph_runs)} ran eager")

assert "self.layer_idx == 0" in reasons[0].getMessage()
assert counters["stats"]["unique_graphs"] == torch._dynamo.config.recompile_limit
assert hit and len(graph_runs) == LAYERS - 1  # the block past the limit runs eager
