"""Four ways around a graph break, on two helpers: graphs, breaks, and whether the helper's Python runs per call."""
import contextlib
import io
import warnings

import torch

RUNS = {"count": 0}


def make_helpers():
    """Fresh function objects each time: allow_in_graph marks the object it is given."""
    def softsign(x):  # traceable tensor code behind a C builtin Dynamo cannot trace
        RUNS["count"] += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return x / (1 + x.abs())

    def halve_until_small(x):  # a loop whose trip count depends on the values
        RUNS["count"] += 1
        while x.abs().max() > 1.0:
            x = x / 2
        return x
    return softsign, halve_until_small


def as_custom_op(fn):
    def body(x: torch.Tensor) -> torch.Tensor:
        return fn(x).clone()
    op = torch.library.custom_op(f"evc::{fn.__name__}", body, mutates_args=())
    op.register_fake(lambda x: torch.empty_like(x))
    return op


TOOLS = {
    "nothing": lambda fn: fn,
    "nonstrict_trace": torch.compiler.nonstrict_trace,
    "allow_in_graph": torch.compiler.allow_in_graph,
    "custom_op": as_custom_op,
    "compiler.disable": torch.compiler.disable,
}


def counts(helper, x):
    def model(x):
        return helper(x.exp()).sin()
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        report = torch._dynamo.explain(model)(x)
    torch._dynamo.reset()
    compiled = torch.compile(model, backend="aot_eager")  # a real AOTAutograd trace, no codegen
    compiled(x)  # compiles
    RUNS["count"] = 0
    for _ in range(3):
        torch.testing.assert_close(compiled(x), model(x))  # model(x): +1 eager run each
    return report.graph_count, report.graph_break_count, RUNS["count"] - 3


torch.manual_seed(0)
x = torch.randn(256)
HEAD = ("softsign: graphs, breaks", "its body ran, 3 calls", "loop: graphs, breaks")
print(f"{'wrapped with':>16}  " + "  ".join(HEAD))
rows = {}
for name, wrap in TOOLS.items():
    softsign, loop = (wrap(fn) for fn in make_helpers())
    rows[name] = counts(softsign, x), counts(loop, x)
    (g, b, runs), (lg, lb, _) = rows[name]
    cells = (f"{g}, {b}", f"{runs} times", f"{lg}, {lb}")
    print(f"{name:>16}  " + "  ".join(f"{c:>{len(h)}}" for c, h in zip(cells, HEAD)))

assert rows["nothing"][0][:2] == (2, 1) and rows["nothing"][1][1] >= 1
for name in ("nonstrict_trace", "allow_in_graph"):  # one graph; body traced once, not run again
    assert rows[name][0] == (1, 0, 0), name
    assert rows[name][1][1] >= 1, name  # a data-dependent loop still breaks: not traceable
assert rows["custom_op"][0] == (1, 0, 3) and rows["custom_op"][1][:2] == (1, 0)
assert rows["compiler.disable"][0] == (2, 1, 3)
