"""`torch.compiler.nonstrict_trace`: put a helper Dynamo cannot trace into one graph that Inductor still sees into."""
import contextlib
import io
import time
import warnings

import torch
from torch._dynamo.backends.common import aot_autograd

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BODY_RUNS = {"count": 0}


def softsign(x):  # stands in for a library function you cannot edit
    BODY_RUNS["count"] += 1
    with warnings.catch_warnings():  # a C builtin inside: Dynamo cannot trace it
        warnings.simplefilter("ignore")
        return x / (1 + x.abs())


softsign_nonstrict = torch.compiler.nonstrict_trace(softsign)  # a wrapper; softsign is unchanged


def model(x):
    return softsign(x.sin()).cos()


def model_nonstrict(x):
    return softsign_nonstrict(x.sin()).cos()


def explain(fn, x):
    torch._dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()):  # explain prints nothing we need
        report = torch._dynamo.explain(fn)(x)
    print(f"{fn.__name__:>16}: graphs={report.graph_count}, graph breaks={report.graph_break_count}")
    for reason in report.break_reasons:  # the reason's first line and its explanation
        first, explanation = reason.reason.splitlines()[:2]
        print(f"   break reason: {first}\n     {explanation.strip()}")
    return report.graph_count, report.graph_break_count


torch.manual_seed(0)
x = torch.randn(1000, device=DEVICE)
before, after = explain(model, x), explain(model_nonstrict, x)

aten_ops = []  # what AOTAutograd hands the backend: the helper's own operations, fusable


def keep_ops(gm, example_inputs):
    aten_ops.extend(str(n.target) for n in gm.graph.nodes if n.op == "call_function")
    return gm.forward


torch._dynamo.reset()
torch.compile(model_nonstrict, fullgraph=True, backend=aot_autograd(fw_compiler=keep_ops))(x)
print("ATen graph after AOTAutograd:", ", ".join(aten_ops))

expected = model(x)  # eager
torch._dynamo.reset()
compiled = torch.compile(model_nonstrict, fullgraph=True)  # Inductor; would raise on any break
BODY_RUNS["count"] = 0
t0 = time.perf_counter()
torch.testing.assert_close(compiled(x), expected)
print(f"first call with Inductor, which compiles: {time.perf_counter() - t0:.1f} s;"
      f" softsign's body ran {BODY_RUNS['count']} times while compiling")
at_compile = BODY_RUNS["count"]
for _ in range(5):
    torch.testing.assert_close(compiled(x), expected)
print(f"5 more compiled calls: softsign's body ran {BODY_RUNS['count'] - at_compile} more times"
      " (its Python, and any side effect in it, is not run again)")
print("compiled result matches eager")

assert before == (2, 1) and after == (1, 0)
assert {"aten.abs.default", "aten.div.Tensor"} <= set(aten_ops)  # traced inside: fusable
assert BODY_RUNS["count"] == at_compile > 0
