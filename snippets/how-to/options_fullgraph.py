"""`fullgraph=True` turns a silent graph break into an error that says where and why."""
import traceback

import torch
import torch._dynamo


def f(x):
    y = torch.sin(x)
    if y.sum() > 0:  # a Python `if` on a tensor's value: Dynamo cannot trace through it
        return y * 2
    return y - 1


x = torch.ones(8)
explanation = torch._dynamo.explain(f)(x)  # default fullgraph=False: split into graphs, still runs
print(f"fullgraph=False: runs; {explanation.graph_count} graphs, {explanation.graph_break_count}"
      f" graph break(s); reason: {explanation.break_reasons[0].reason.splitlines()[0]}")
torch.testing.assert_close(torch.compile(f)(x), f(x))

torch._dynamo.reset()
try:
    torch.compile(f, fullgraph=True)(x)
except torch._dynamo.exc.Unsupported as err:
    lines = "".join(traceback.format_exception_only(err)).splitlines()
    print("fullgraph=True raises:")
    keep = ("torch._dynamo", "Explanation", "Hint")  # the message's headline lines
    print("\n".join("  " + ln.strip() for ln in lines if ln.strip().startswith(keep)))
    assert "fullgraph" in str(err) or "graph break" in str(err).lower(), str(err)[:500]
else:
    raise AssertionError("fullgraph=True accepted a data-dependent `if` in this torch")

# The same branch written with torch.cond stays in one graph, so fullgraph=True compiles it.
def g(x):
    y = torch.sin(x)
    return torch.cond(y.sum() > 0, lambda t: t * 2, lambda t: t - 1, (y,))


torch.testing.assert_close(torch.compile(g, fullgraph=True)(x), f(x))
print("torch.cond version with fullgraph=True: compiles as one graph, output matches eager")
