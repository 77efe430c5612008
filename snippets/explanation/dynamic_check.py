"""`torch._check` on an unbacked size: a fact the compiler can reason with, kept as a run-time assert."""
import warnings

import torch
from torch._dynamo.utils import counters

graphs = []


def keep_graph(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


def first_columns(x, counts):  # validates like library code does: a Python `if` on the value
    n = counts.sum().item()
    if n > x.shape[1]:
        raise ValueError("asked for more columns than x has")
    return x[:, :n] * 2


def first_columns_checked(x, counts):  # the same rule, stated with torch._check
    n = counts.sum().item()
    torch._check(n <= x.shape[1], "asked for more columns than x has")
    return x[:, :n] * 2


x = torch.randn(4, 16)
counts = torch.tensor([3, 4])
try:
    torch.compile(first_columns, fullgraph=True, backend="eager")(x, counts)
except torch._dynamo.exc.UserError as err:
    failed = str(err).split("Could not guard on ", 1)[1].split("(")[0].strip()
    print(f"Python `if` on n, fullgraph=True: UserError: could not guard on {failed}")
else:
    raise AssertionError("fullgraph=True traced an `if` on an unbacked value: the limit is gone")

compiled = torch.compile(first_columns_checked, fullgraph=True, backend=keep_graph)
torch.testing.assert_close(compiled(x, counts), first_columns(x, counts))
asserts = [str(n.args[1]) for n in graphs[0].graph.nodes if "_assert_scalar" in str(n.target)]
print("torch._check, fullgraph=True: one graph; its run-time asserts:", *asserts, sep="\n  ")
try:
    compiled(x, torch.tensor([13, 4]))
    raised = None
except RuntimeError as err:  # eager raises the same error from torch._check
    raised = str(err)
    print(f"compiled call with n=17: RuntimeError: {raised}")

torch._dynamo.reset()
counters.clear()
inductor = torch.compile(first_columns_checked, fullgraph=True)  # the same with Inductor
for c in (torch.tensor([1, 1]), torch.tensor([5, 5]), torch.tensor([9, 7])):
    torch.testing.assert_close(inductor(x, c), first_columns(x, c))
print(f"with Inductor: equals eager for n = 2, 10 and 16; graphs={counters['stats']['unique_graphs']}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")  # the snippet runner hides FutureWarnings: show this one
    torch._check_is_size(3)
deprecation = " ".join(str(caught[0].message).split())
print(f"torch._check_is_size(3): {caught[0].category.__name__}: {deprecation}")

assert "u0 > 16" in failed and raised == "asked for more columns than x has"
assert counters["stats"]["unique_graphs"] == 1  # unbacked: no guard on n, so no recompile
assert any("u0 <= 16" in a or "more columns" in a for a in asserts)
assert caught and issubclass(caught[0].category, FutureWarning)
