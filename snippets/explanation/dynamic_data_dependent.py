"""Sizes that depend on tensor values: a graph break by default, an unbacked symbol (u0) when captured."""
import contextlib
import io

import torch
from torch._dynamo.utils import counters

graphs = []


def keep_graph(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


def positives(x):  # a boolean mask: the output length is the number of positive entries
    return x[x > 0].exp()


def trim(x, lengths):  # drop the padding beyond the longest sequence of the batch
    n = lengths.max().item()
    return x[:, :n].exp()


def explain(fn, *args, **config):
    torch._dynamo.reset()
    with torch._dynamo.config.patch(**config), contextlib.redirect_stdout(io.StringIO()):
        report = torch._dynamo.explain(fn)(*args)
    reasons = sorted({r.reason.splitlines()[0] for r in report.break_reasons})
    return f"graphs={report.graph_count}, breaks={report.graph_break_count} {reasons or ''}".strip()


def fullgraph_output_shape(fn, *args):
    """Compile with fullgraph=True (no config flags) and return the symbolic shape of the output."""
    torch._dynamo.reset()
    graphs.clear()
    torch.testing.assert_close(torch.compile(fn, fullgraph=True, backend=keep_graph)(*args), fn(*args))
    output = next(n for n in graphs[0].graph.nodes if n.op == "output").args[0][0]
    return len(graphs), tuple(output.meta["example_value"].shape)


torch.manual_seed(0)
x = torch.randn(4, 16)
lengths = torch.tensor([5, 9, 7, 3])
cases = {"positives (mask)": (positives, (x,), "capture_dynamic_output_shape_ops"),
         "trim (.item() as size)": (trim, (x, lengths), "capture_scalar_outputs")}
shapes = {}
for name, (fn, args, flag) in cases.items():
    print(f"{name}:")
    print(f"  {'default:':<39} {explain(fn, *args)}")
    print(f"  {flag + '=True:':<39} {explain(fn, *args, **{flag: True})}")
    count, shapes[name] = fullgraph_output_shape(fn, *args)
    print(f"  {'fullgraph=True, no flag:':<39} graphs={count}, output shape {shapes[name]}")

torch._dynamo.reset()
counters.clear()
compiled = torch.compile(trim, fullgraph=True)  # Inductor: one graph for every length, no recompile
for longest in (3, 9, 16):
    lengths = torch.tensor([longest, 2, 1, 1])
    torch.testing.assert_close(compiled(x, lengths), trim(x, lengths))
inductor_graphs = counters["stats"]["unique_graphs"]
print(f"trim with Inductor, fullgraph=True, longest lengths 3, 9, 16: equals eager; graphs={inductor_graphs}")

assert inductor_graphs == 1
assert "breaks=1" in explain(positives, x) and "breaks=1" in explain(trim, x, lengths)
assert "breaks=0" in explain(trim, x, lengths, capture_scalar_outputs=True)
assert "breaks=0" in explain(positives, x, capture_dynamic_output_shape_ops=True)
assert all("u" in str(s) for s in (shapes["positives (mask)"][0], shapes["trim (.item() as size)"][1]))
