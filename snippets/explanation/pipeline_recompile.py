"""A changing Python float: a constant in the first graph, a graph input after one recompile, then reused."""
import logging

import torch
from torch._dynamo.utils import counters

SCALES = (2.0, 3.0, 4.0, 0.5)
graphs = []


def keep_graph(gm: torch.fx.GraphModule, example_inputs):
    """A custom backend: keeps each captured FX graph and runs it unchanged."""
    graphs.append(gm)
    return gm.forward


class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)  # TORCH_LOGS text goes to stderr otherwise
torch._logging.set_logs(guards=True, recompiles=True)


def f(x, scale: float):
    return torch.relu(x) * scale


torch.manual_seed(0)
x = torch.randn(8)
compiled = torch.compile(f, backend=keep_graph)
compiles = []
for scale in SCALES:
    torch.testing.assert_close(compiled(x, scale), f(x, scale))
    compiles.append(counters["stats"]["unique_graphs"])
torch._logging.set_logs()  # back to the defaults

for scale, total in zip(SCALES, compiles):
    print(f"scale={scale}: graphs compiled so far: {total}")
trees = [r.getMessage() for r in capture.records if "TREE_GUARD_MANAGER" in r.getMessage()]
guards = [[line.split("+- ", 1)[1].split("  #")[0].strip() for line in tree.splitlines()
           if "L['scale']" in line and "GuardManager" not in line] for tree in trees]
reasons = [r.getMessage() for r in capture.records if r.name.endswith("__recompiles")]
print("--- guards on `scale`, version 1 ---", *guards[0], sep="\n")
print("--- why the second call recompiled (from the recompiles log) ---")
print(next(line for line in reasons[0].splitlines() if "0/0" in line).split("  #")[0].strip())
print("--- guards on `scale`, version 2 ---", *guards[1], sep="\n")
print("--- FX graph of version 2: `scale` is now an input ---")
print(graphs[1].code.strip())
item = next(n for n in graphs[1].graph.nodes if n.target == "item")
print(f"`item` in the graph is a {type(item.meta['example_value']).__name__}")

assert compiles == [1, 2, 2, 2], compiles  # one recompile, then every value reuses graph 2
assert len(reasons) == 1 and "scale == 2.0" in reasons[0]
assert any(g.startswith("EQUALS_MATCH") for g in guards[0])
assert not any(g.startswith("EQUALS_MATCH") for g in guards[1]), guards[1]
assert "2.0" in graphs[0].code and "L_scale_" in graphs[1].code
assert isinstance(item.meta["example_value"], torch.SymFloat)
