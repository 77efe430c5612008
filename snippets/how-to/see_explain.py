"""Count graphs and graph breaks, and read why each break happened, with torch._dynamo.explain."""
import time

import torch
from torch._dynamo.utils import counters


def normalize(x, w):
    h = torch.tanh(x @ w)
    scale = h.abs().max().item()  # a tensor becomes a Python float
    h = h / scale
    if h.mean() > 0:  # a tensor's value picks the branch
        h = h - h.mean()
    return h.sum(dim=1)


def traced(graph):
    """The operations Dynamo put in one FX graph, by name."""
    nodes = [n for n in graph.graph.nodes if n.op in ("call_function", "call_method")]
    return [n.target if isinstance(n.target, str) else n.target.__name__ for n in nodes]


def graphs_traced(fn, *args):
    """How many graphs Dynamo traces during one call of fn."""
    counters.clear()
    fn(*args)
    return counters["stats"]["unique_graphs"]


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
x, w = torch.randn(16, 32, device=device), torch.randn(32, 32, device=device)

t0 = time.perf_counter()
report = torch._dynamo.explain(normalize)(x, w)  # Dynamo only: no Inductor, the graphs run eagerly
print(f"explain took {time.perf_counter() - t0:.2f} s")
print(f"graphs: {report.graph_count}, graph breaks: {report.graph_break_count}")
for i, graph in enumerate(report.graphs, 1):
    print(f"  graph {i}: {traced(graph)}")
for reason in report.break_reasons:
    frame = reason.user_stack[-1]
    print(f"break at line {frame.lineno}: {frame.line.strip()}")
    print(f"  reason: {reason.reason.strip().splitlines()[0][:100]}")
kinds = [guard.create_fn_name() for guard in report.out_guards]
common = sorted(set(kinds), key=lambda kind: (-kinds.count(kind), kind))[:3]
print(f"guards: {len(kinds)}, most common kinds: {[(kind, kinds.count(kind)) for kind in common]}")
print("tensor guards on:", sorted({g.name for g in report.out_guards if g.create_fn_name() == "TENSOR_MATCH"}))

# explain() starts by resetting Dynamo: functions compiled before it compile again afterwards.
compiled = torch.compile(normalize, backend="eager")  # backend="eager": Dynamo alone, quick to show
compiled(x, w)
before = graphs_traced(compiled, x, w)
torch._dynamo.explain(normalize)(x, w)
after = graphs_traced(compiled, x, w)
print(f"graphs the compiled function traces on its next call: {before} before explain(), {after} after")

assert report.graph_count == 3 and report.graph_break_count == 2
assert [r.user_stack[-1].line.split()[0] for r in report.break_reasons] == ["scale", "if"], "item(), if"
assert (before, after) == (0, 3), "explain() threw away what the compiled function had traced"
