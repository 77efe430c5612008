"""Fix: rewrite the break away so `fullgraph=True` compiles, or keep a helper eager with `torch.compiler.disable`."""
import logging
import sys

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
log = logging.getLogger("train")


def forward(x):  # the symptom's function: a logging call inside the compiled code
    y = x.sin()
    log.info("activation norm %s", y.norm())
    return y.cos()


x = torch.randn(16, device=DEVICE)
expected = forward(x)  # the eager result (logging is not set up yet, so this prints nothing)
log.addHandler(logging.StreamHandler(sys.stdout))
log.setLevel(logging.INFO)


# Fix 1: return what you want to log; log it outside the compiled function.
def forward_fixed(x):
    y = x.sin()
    return y.cos(), y.norm()


out, norm = torch.compile(forward_fixed, fullgraph=True)(x)  # no exception: one graph
log.info("activation norm %s (logged outside the compiled function)", norm)
torch.testing.assert_close(out, expected)
print("fix 1: fullgraph=True compiled forward_fixed\n")


# Fix 2: code that must stay eager goes in a helper marked with torch.compiler.disable.
@torch.compiler.disable
def log_norm(y):
    log.info("activation norm %s (logged by a disabled helper)", y.norm())


def forward_disabled(x):
    y = x.sin()
    log_norm(y)  # Dynamo ends the graph, runs the helper in eager, then starts a new graph
    return y.cos()


explained = torch._dynamo.explain(forward_disabled)(x)
print(f"fix 2: graph count {explained.graph_count}, graph break count {explained.graph_break_count}")
print("  break reason:", explained.break_reasons[0].reason.splitlines()[0])
torch._dynamo.reset()  # fullgraph must trace afresh, not reuse graphs compiled without it
try:  # a disabled call is still a graph break, so fullgraph=True refuses it
    torch.compile(forward_disabled, fullgraph=True)(x)
except torch._dynamo.exc.Unsupported as err:
    print("  with fullgraph=True:", str(err).splitlines()[0])
else:
    raise AssertionError("fullgraph=True accepted a torch.compiler.disable'd call")
torch._dynamo.reset()
torch.testing.assert_close(torch.compile(forward_disabled)(x), expected)
assert explained.graph_count == 2 and explained.graph_break_count == 1
