"""Fix: capture data-dependent sizes in the graph, and state what the code assumes with `torch._check`."""
import contextlib
import io

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SIZE, K = 16, 3


def positives(x):  # the first symptom's function
    y = x.sin()
    return y[y > 0].exp() * 2


def top_positive(x):  # the second symptom's function, its `if` rewritten as a torch._check
    y = x[x > 0]
    torch._check(y.shape[0] >= K, "need at least 3 positive values")
    return y.topk(K).values


def explain(fn, x):
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        return torch._dynamo.explain(fn)(x)


def graphs_for(fn, inputs, **compile_kwargs):
    """Compile once, call on every input beside eager; return Dynamo's graph count."""
    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(fn, backend="aot_eager", **compile_kwargs)
    for x in inputs:
        torch.testing.assert_close(compiled(x), fn(x))
    return counters["stats"]["unique_graphs"]


torch.manual_seed(0)
inputs = [torch.randn(SIZE, device=DEVICE) for _ in range(3)]  # a different number of positives each
torch._dynamo.config.capture_dynamic_output_shape_ops = True
report = {fn.__name__: explain(fn, inputs[0]) for fn in (positives, top_positive)}
graphs = {fn.__name__: graphs_for(fn, inputs) for fn in (positives, top_positive)}
fullgraph = graphs_for(top_positive, inputs, fullgraph=True)
print("capture_dynamic_output_shape_ops = True")
print(f"entries > 0 in each input: {[int((x > 0).sum()) for x in inputs]}")
for name, r in report.items():
    print(f"{name:<13} explain: graphs={r.graph_count}, graph breaks={r.graph_break_count}; "
          f"compiled for all inputs: {graphs[name]} graph, equal to eager")
print(f"top_positive, fullgraph=True: {fullgraph} graph, equal to eager")

few = torch.tensor([1.0, -1.0, 2.0], device=DEVICE)  # only two positive values
errors = []
for fn in (top_positive, torch.compile(top_positive, backend="aot_eager")):
    try:
        fn(few)
    except RuntimeError as err:
        errors.append(str(err))
print(f"too few positives, eager:    RuntimeError: {errors[0]}")
print(f"too few positives, compiled: RuntimeError: {errors[-1]}")

assert all(r.graph_count == 1 and r.graph_break_count == 0 for r in report.values())
assert graphs == {"positives": 1, "top_positive": 1} and fullgraph == 1  # no recompile per count
assert len(errors) == 2  # the check still runs: a run-time assert in the compiled graph
