"""`torch.library.custom_op` + `register_fake`: a data-dependent Python loop as one opaque op in one graph."""
import contextlib
import io
import time

import torch
from torch._dynamo.backends.common import aot_autograd

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BODY_RUNS = {"count": 0}


def halve_until_small(x, limit):
    BODY_RUNS["count"] += 1
    while x.abs().max() > limit:  # how many halvings depends on the values: breaks the graph
        x = x / 2
    return x


@torch.library.custom_op("evc::halve_until_small", mutates_args=())  # "namespace::name"
def halve_op(x: torch.Tensor, limit: float) -> torch.Tensor:
    return halve_until_small(x, limit).clone()  # an op may not return its input (no aliasing)


@halve_op.register_fake  # what the compiler traces instead: output shape, dtype, device only
def _(x, limit):
    return torch.empty_like(x)


def model(x):
    return halve_until_small(x.exp(), 1.0).sin()


def model_op(x):
    return halve_op(x.exp(), 1.0).sin()


def explain(fn, x):
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        report = torch._dynamo.explain(fn)(x)
    reasons = sorted({r.reason.splitlines()[0] for r in report.break_reasons})
    print(f"{fn.__name__:>8}: graphs={report.graph_count}, graph breaks={report.graph_break_count} {reasons}")
    return report.graph_count, report.graph_break_count


torch.manual_seed(0)
x = torch.randn(1000, device=DEVICE)
before, after = explain(model, x), explain(model_op, x)
torch.library.opcheck(halve_op, (x.exp(), 1.0))  # checks the fake impl against the real one
print("torch.library.opcheck: the fake implementation agrees with the real one")

aten_ops = []  # what AOTAutograd hands the backend


def keep_ops(gm, example_inputs):
    aten_ops.extend(str(n.target) for n in gm.graph.nodes if n.op == "call_function")
    return gm.forward


torch._dynamo.reset()
torch.compile(model_op, fullgraph=True, backend=aot_autograd(fw_compiler=keep_ops))(x)
print("ATen graph after AOTAutograd:", ", ".join(aten_ops), "(the op is one opaque node)")

torch._dynamo.reset()
compiled = torch.compile(model_op, fullgraph=True)  # Inductor, one graph or an error
t0 = time.perf_counter()
compiled(x)
print(f"first call with Inductor, which compiles: {time.perf_counter() - t0:.1f} s")
inputs = {"needs a few halvings": x, "needs many": x + 8, "needs none": x - 10}
expected = {name: model(t) for name, t in inputs.items()}  # eager
BODY_RUNS["count"] = 0
for name, t in inputs.items():  # the loop runs at run time: each input gets its own count
    torch.testing.assert_close(compiled(t), expected[name])
    print(f"  input that {name}: compiled == eager")
print(f"{len(inputs)} compiled calls ran the loop's Python {BODY_RUNS['count']} times (once per call)")

assert before[1] >= 1 and after == (1, 0)
assert "evc.halve_until_small.default" in aten_ops and "aten.abs.default" not in aten_ops
assert BODY_RUNS["count"] == len(inputs)
