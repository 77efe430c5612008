"""Symptom: `fullgraph=True` turns a graph break (here a logging call) into an exception."""
# expects: ^torch\._dynamo\.exc\.Unsupported: 
import logging
import traceback

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
log = logging.getLogger("train")


def forward(x):
    y = x.sin()
    log.info("activation norm %s", y.norm())
    return y.cos()


x = torch.randn(16, device=DEVICE)
try:
    torch.compile(forward, fullgraph=True)(x)
except torch._dynamo.exc.Unsupported as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "from user code:" in str(err) and 'log.info("activation norm %s", y.norm())' in str(err)
else:
    raise AssertionError("fullgraph=True compiled it: the symptom is gone in this torch")
