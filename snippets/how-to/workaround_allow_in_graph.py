"""`torch.compiler.allow_in_graph`: the older escape hatch, what it changes globally and which inputs it refuses."""
import contextlib
import io
import time
import warnings

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def softsign(x):  # the same library-like helper: Dynamo breaks inside catch_warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return x / (1 + x.abs())


def model(x):
    return softsign(x.sin()).cos()


def explain(fn, *args):
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):
        report = torch._dynamo.explain(fn)(*args)
    reasons = [r.reason.splitlines()[0] for r in report.break_reasons]
    return report.graph_count, report.graph_break_count, reasons


torch.manual_seed(0)
x = torch.randn(1000, device=DEVICE)
expected = model(x)
before = explain(model, x)
returned = torch.compiler.allow_in_graph(softsign)  # registers the function object itself
after = explain(model, x)  # `model` is unchanged: every call of softsign is now in the graph
print(f"before allow_in_graph: graphs={before[0]}, graph breaks={before[1]} {before[2]}")
print(f" after allow_in_graph: graphs={after[0]}, graph breaks={after[1]}"
      f" (returns the same object: {returned is softsign})")

torch._dynamo.reset()
compiled = torch.compile(model, fullgraph=True)  # Inductor
t0 = time.perf_counter()
torch.testing.assert_close(compiled(x), expected)
print(f"fullgraph=True with Inductor: compiled == eager (first call {time.perf_counter() - t0:.1f} s)")

layer = torch.nn.Linear(1000, 1000).to(DEVICE)
WEIGHT = torch.full((1000,), 2.0, device=DEVICE)


def apply_layer(module, x):  # an nn.Module argument: not a type allow_in_graph can take
    return module(x)


layer_nonstrict = torch.compiler.nonstrict_trace(apply_layer)  # for comparison, below


def scale_by_global(x):  # uses a tensor it was not given as an argument
    return x * WEIGHT


refused = []
for helper, args in ((apply_layer, (layer, x)), (scale_by_global, (x,))):
    torch.compiler.allow_in_graph(helper)
    torch._dynamo.reset()
    try:
        torch.compile(lambda *a: helper(*a).relu(), fullgraph=True, backend="eager")(*args)
    except Exception as err:  # noqa: BLE001 - which error it is, is printed
        refused.append(helper.__name__)
        print(f"{helper.__name__}: {type(err).__name__}: {str(err).splitlines()[0][:80]}")

torch._dynamo.reset()
out = torch.compile(lambda m, t: layer_nonstrict(m, t).relu(), fullgraph=True, backend="aot_eager")(layer, x)
torch.testing.assert_close(out, layer(x).relu())
print("nonstrict_trace takes the nn.Module argument: one graph, compiled == eager")

assert before[:2] == (2, 1) and after[:2] == (1, 0) and returned is softsign
assert refused == ["apply_layer", "scale_by_global"]
