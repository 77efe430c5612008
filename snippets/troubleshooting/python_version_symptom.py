"""Symptom: torch.compile refuses to start on a Python version that Dynamo does not support yet."""
# requires: unsupported-python
# expects: ^RuntimeError: torch\.compile is not supported on Python
# message-in-source: torch.compile is not supported on Python 3
import sys
import traceback

import torch


def f(x):
    return torch.sin(x) + 1


try:
    torch.compile(f)  # the check runs here, before any tracing
except RuntimeError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "not supported on Python" in str(err)
else:
    raise AssertionError(f"torch.compile accepted Python {sys.version.split()[0]}: it is supported")
