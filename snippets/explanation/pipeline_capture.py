"""Look inside Dynamo: the FX graphs it captures, the guards it installs, why it breaks a graph."""
import logging

import torch

graphs = []


def show_graph(gm: torch.fx.GraphModule, example_inputs):
    """A custom backend: receives each captured FX graph, prints it, runs it unchanged."""
    graphs.append(gm)
    print(f"--- FX graph {len(graphs)}, inputs: {len(example_inputs)} ---")
    print(gm.code.strip())
    return gm.forward


class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)  # TORCH_LOGS text goes to stderr otherwise
torch._logging.set_logs(guards=True, graph_breaks=True)


def f(x, scale: float):
    y = torch.relu(x) * scale
    if y.sum() > 0:  # Python `if` on a tensor's value: Dynamo must break the graph here
        return y.cos()
    return y.sin()


torch.manual_seed(0)
x = torch.randn(8)
out = torch.compile(f, backend=show_graph)(x, 2.0)
torch.testing.assert_close(out, f(x, 2.0))
torch._logging.set_logs()  # back to the defaults

print("--- graph break (from the graph_breaks log) ---")
breaks = [r for r in capture.records if "Graph break" in r]
for line in breaks[0].splitlines() if breaks else []:
    if line.strip().startswith(("Graph Break Reason", "Explanation", "Hint: Use")):
        print(line.strip())
print("--- guards of graph 1 (from the guards log; checked before every later call) ---")
tree = next(r for r in capture.records if "TREE_GUARD_MANAGER" in r)
guards = [g.split("+- ", 1)[1].split("  #")[0].strip() for g in tree.splitlines()
          if any(k in g for k in ("TENSOR_MATCH", "EQUALS_MATCH"))]
for g in guards[:2]:
    print(g)

assert len(graphs) >= 2, "expected the data-dependent `if` to split the function"
assert breaks, "expected a logged graph break"
assert any(g.startswith("EQUALS_MATCH") and "2.0" in g for g in guards), guards
assert "relu" in graphs[0].code
