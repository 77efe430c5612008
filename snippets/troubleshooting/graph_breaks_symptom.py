"""Symptom: `.item()`, `print` and a data-dependent `if` split one function into several graphs."""
# expects: ^Graph break in user code at .*graph_breaks_symptom\.py:\d+$
import logging

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class PrintGraphBreaks(logging.Handler):
    """TORCH_LOGS=graph_breaks writes to stderr; print its records here instead."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.name.endswith("__graph_breaks"):  # the `graph_breaks` artifact logger
            self.messages.append(record.getMessage())
            print(record.getMessage().rstrip() + "\n")


def step(x):
    y = x.sin()
    # .item() returns a Python float: the graph ends here
    scale = y.abs().max().item()
    y = y.cos()
    # a side effect that cannot go into a graph
    print("step: scaled")
    y = y + 1
    # control flow that depends on a tensor's value
    if y.sum() > 0:
        y = y * 2
    return y / scale


handler = PrintGraphBreaks()
logging.getLogger("torch._dynamo").addHandler(handler)
torch._logging.set_logs(graph_breaks=True)  # the same as TORCH_LOGS=graph_breaks

x = torch.randn(1000, device=DEVICE)
torch.compile(step)(x)  # runs without an error: the breaks are silent

print(f"graph breaks logged: {len(handler.messages)}")
if len(handler.messages) < 3:
    raise AssertionError("fewer graph breaks: the symptom is gone in this torch")
for line in ("scale = y.abs().max().item()", 'print("step: scaled")', "if y.sum() > 0:"):
    assert any(line in message for message in handler.messages), line
