"""Symptom: once the mask is captured, a Python `if` on its length cannot be traced (an unbacked size)."""
# expects: ^torch\._dynamo\.exc\.UserError: Consider annotating your code using torch\._check\*\(\)\. Could not guard on data-dependent expression
import logging
import traceback

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SIZE, K = 16, 3


def top_positive(x):  # the K largest positive entries; too few of them is an input error
    y = x[x > 0]
    if y.shape[0] < K:
        raise ValueError(f"need at least {K} positive values")
    return y.topk(K).values


class GraphBreaks(logging.Handler):
    """Keep the records of TORCH_LOGS=graph_breaks."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.name.endswith("__graph_breaks"):
            self.messages.append(record.getMessage())


torch.manual_seed(0)
x = torch.randn(SIZE, device=DEVICE)
torch._dynamo.config.capture_dynamic_output_shape_ops = True  # the hint of the first symptom
try:
    torch.compile(top_positive, fullgraph=True, backend="eager")(x)
except torch._dynamo.exc.UserError as err:
    error = err
else:
    raise AssertionError("an `if` on an unbacked size compiled: the symptom is gone in this torch")
lines = "".join(traceback.format_exception_only(error)).splitlines()
print(lines[0])
print(next(line for line in lines if line.startswith("Caused by:")))
print(f"raised while tracing: {type(error.__context__).__name__}", end="\n\n")

breaks = GraphBreaks()
logging.getLogger("torch._dynamo").addHandler(breaks)
torch._logging.set_logs(graph_breaks=True)  # the same as TORCH_LOGS=graph_breaks
torch._dynamo.reset()
torch.testing.assert_close(torch.compile(top_positive, backend="eager")(x), top_positive(x))
print("The same code with the default fullgraph=False runs, with a graph break at the `if`:")
print("\n".join(breaks.messages[0].splitlines()[:3]))

assert isinstance(error.__context__, torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode)
assert "Could not guard on data-dependent expression u0 < 3" in lines[0]
assert len(breaks.messages) == 1 and "Data-dependent branching" in breaks.messages[0]
