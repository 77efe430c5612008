"""disable, disable(recursive=False) and disallow_in_graph: what each leaves in the graphs."""
import warnings

import torch


def inner(x):
    return torch.sin(x) * 2


def helper(x):
    y = x.cos()
    return inner(y) + 1


def make_outer(h):
    def outer(x):
        x = h(x + 1)
        return torch.sub(x, 1).relu()
    return outer


def compiled_graphs(fn, x):
    """Compile fn afresh; return the operations of each graph Dynamo built, and explain's report."""
    graphs = []

    def record(gm, example_inputs):  # a backend that only writes down the graph it is given
        graphs.append([getattr(n.target, "__name__", str(n.target)) for n in gm.graph.nodes
                       if n.op in ("call_function", "call_method")])
        return gm.forward

    torch._dynamo.reset()
    out = torch.compile(fn, backend=record)(x)
    torch._dynamo.reset()
    return out, graphs, torch._dynamo.explain(fn)(x)


x = torch.randn(8)
expected = make_outer(helper)(x)
CASES = {
    "nothing disabled": lambda: make_outer(helper),
    "torch.compiler.disable(helper)": lambda: make_outer(torch.compiler.disable(helper)),
    "disable(helper, recursive=False)": lambda: make_outer(torch.compiler.disable(helper, recursive=False)),
    "disallow_in_graph(torch.sub)": lambda: (torch._dynamo.disallow_in_graph(torch.sub), make_outer(helper))[1],
}
counts = {}
for name, build in CASES.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out, graphs, report = compiled_graphs(build(), x)
    torch.testing.assert_close(out, expected)  # same result: only where the code runs changes
    counts[name] = (len(graphs), report.graph_break_count)
    print(f"{name}: {len(graphs)} graph(s), {report.graph_break_count} graph break(s)")
    for ops in graphs:
        print("  graph:", ", ".join(ops))
    for reason in {r.reason.strip().splitlines()[0] for r in report.break_reasons}:
        print("  break reason:", reason)
    for message in {str(w.message).splitlines()[0] for w in caught}:
        print("  warning:", message[:90])

refused = False
try:
    torch._dynamo.disallow_in_graph(helper)  # only for callables Dynamo would put in a graph as they are
except RuntimeError as e:
    print("disallow_in_graph(helper):", type(e).__name__, str(e)[:70])
    refused = True
torch._dynamo.allow_in_graph(torch.sub)  # disallow_in_graph lasts for the process: undo it

assert counts == {"nothing disabled": (1, 0), "torch.compiler.disable(helper)": (2, 1),
                  "disable(helper, recursive=False)": (3, 2), "disallow_in_graph(torch.sub)": (2, 1)}
assert refused
