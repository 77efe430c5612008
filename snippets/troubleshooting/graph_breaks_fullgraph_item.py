"""`fullgraph=True` captures `.item()` in its one graph as an unbacked symbol, where the default breaks."""
import contextlib
import io
import re

import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def scaled(x):  # the symptom's `.item()`, without the print and the `if`
    y = x.sin()
    scale = y.abs().max().item()
    return y.cos() / scale


x = torch.randn(1000, device=DEVICE)
expected = scaled(x)

with contextlib.redirect_stdout(io.StringIO()):
    default = torch._dynamo.explain(scaled)(x)  # explain traces as fullgraph=False does
print(f"fullgraph=False: graph count {default.graph_count}, graph break count {default.graph_break_count}")
print("  broke at:", default.break_reasons[0].reason.splitlines()[0])

graphs = []


def keep_graph(gm, example_inputs):  # a backend that keeps each FX graph Dynamo hands it
    graphs.append(gm)
    return gm.forward


torch._dynamo.reset()
torch.testing.assert_close(torch.compile(scaled, fullgraph=True, backend=keep_graph)(x), expected)
item = next(node for node in graphs[0].graph.nodes if node.target == "item")
symbol = item.meta["example_value"]  # what the rest of the trace sees instead of a number
print(f"fullgraph=True:  graph count {len(graphs)}, no exception; `.item()` is a graph node,")
print(f"  traced as the unbacked symbol {symbol} (it has no value while tracing):")
print("   ", "\n    ".join(line.strip() for line in graphs[0].code.strip().splitlines()[1:]))

torch._dynamo.reset()
torch.testing.assert_close(torch.compile(scaled, fullgraph=True)(x), expected)  # Inductor too
print("fullgraph=True with Inductor: same result as eager")


def scaled_if(x):  # a Python `if` on that symbol needs its value while tracing
    scale = x.abs().max().item()
    if scale > 1.0:
        x = x / scale
    return x


try:
    torch.compile(scaled_if, fullgraph=True)(x)
except torch._dynamo.exc.UserError as err:
    guard = re.search(r"Could not guard on data-dependent expression [^(]+", str(err))
    print(f"an `if` on it with fullgraph=True: {type(err).__name__}: {guard and guard.group(0).strip()}")
else:
    raise AssertionError("fullgraph=True branched on an unbacked .item(): the limit is gone")

assert default.graph_count == 2 and default.graph_break_count == 1
assert len(graphs) == 1 and free_unbacked_symbols(symbol)
assert guard is not None
