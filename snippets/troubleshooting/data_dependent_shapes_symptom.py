"""Symptom: a boolean mask, `nonzero` or `masked_select` breaks the graph under the default settings."""
# expects: ^Dynamic shape operator$
import contextlib
import io

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
SIZE = 16


def positives(x):  # keep the positive entries: how many there are depends on the values
    y = x.sin()
    return y[y > 0].exp() * 2


def nonzero(x):
    y = x.sin()
    return torch.nonzero(y > 0).float() * 2


def masked_select(x):
    y = x.sin()
    return torch.masked_select(y, y > 0).exp() * 2


def explain(fn, x):
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):  # explain also prints a summary
        return torch._dynamo.explain(fn)(x)


torch.manual_seed(0)
x = torch.randn(SIZE, device=DEVICE)
reports = {fn.__name__: explain(fn, x) for fn in (positives, nonzero, masked_select)}
mask = reports["positives"]
if mask.graph_break_count == 0:
    raise AssertionError("x[x > 0] did not break the graph: the symptom is gone in this torch")
reason = mask.break_reasons[0]
print(reason.reason.strip())
print(f"  at line: {reason.user_stack[-1].line}", end="\n\n")
for name, report in reports.items():
    operator = report.break_reasons[0].reason.split("`")[1]
    print(f"{name:<14} graphs={report.graph_count}, graph breaks={report.graph_break_count}, "
          f"operator: {operator}")

for report in reports.values():
    assert report.graph_count == 2 and report.graph_break_count == 1
    assert report.break_reasons[0].reason.startswith("Dynamic shape operator")
    assert "capture_dynamic_output_shape_ops = True" in report.break_reasons[0].reason
assert "aten.nonzero" in mask.break_reasons[0].reason  # a boolean mask calls nonzero
