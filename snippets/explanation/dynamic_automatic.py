"""Automatic dynamic, call by call: a size and an int argument go from constant to symbol; sizes 0 and 1 stay special."""
import logging

import torch
from torch._dynamo.utils import counters

CALLS = [(8, 2), (16, 2), (32, 3), (64, 4), (1, 4), (0, 5), (4, 1), (4, 0)]  # (len(x), k)


class Capture(logging.Handler):
    """Keep the `recompiles` log (TORCH_LOGS=recompiles), which goes to stderr by default."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.name.endswith("__recompiles"):
            self.messages.append(record.getMessage())


graphs = []


def keep_graph(gm, example_inputs):  # a backend that keeps each graph and runs it as is
    graphs.append(gm)
    return gm.forward


def scale(x, k):
    return x * k


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(recompiles=True)
compiled = torch.compile(scale, backend=keep_graph)  # guards are Dynamo's: any backend agrees
per_call = []
print(f"{'len(x)':>6} {'k':>2}  graphs  why the newest version's guards failed")
for n, k in CALLS:
    seen = len(capture.messages)
    x = torch.randn(n)
    torch.testing.assert_close(compiled(x, k), scale(x, k))
    per_call.append(counters["stats"]["unique_graphs"])
    reason = ""
    if len(capture.messages) > seen:  # the first "- 0/v:" line is the newest version's failure
        failures = [line.strip() for line in capture.messages[-1].splitlines() if "- 0/" in line]
        reason = failures[0].split("  #")[0].strip().removeprefix("- ")
    print(f"{n:>6} {k:>2}  {per_call[-1]:>6}  {reason}")
torch._logging.set_logs()

for version, gm in enumerate(graphs):
    inputs = {n.name: n.meta["example_value"] for n in gm.graph.nodes if n.op == "placeholder"}
    shown = ", ".join(f"{name}={tuple(v.shape) if isinstance(v, torch.Tensor) else v}"
                      for name, v in inputs.items())
    print(f"version 0/{version} graph inputs: {shown}")

assert per_call == [1, 2, 3, 3, 4, 5, 5, 5], per_call  # k=1 and k=0 reuse version 0/2
assert "size mismatch at index 0" in capture.messages[0]  # first new size: recompile once
assert "k == 2" in capture.messages[1]  # first new k: recompile once, then k is a symbol
assert "2 <= x.size()[0]" in capture.messages[2]  # the dynamic size excludes 0 and 1
