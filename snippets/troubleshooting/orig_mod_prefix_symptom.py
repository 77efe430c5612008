"""Symptom: a checkpoint saved from a compiled model does not load into the plain model."""
# expects: ^RuntimeError: Error\(s\) in loading state_dict
import traceback

import torch
from torch import nn


def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


compiled = torch.compile(make_model())
torch.save(compiled.state_dict(), "checkpoint.pt")  # keys: "_orig_mod.0.weight", ...

try:
    make_model().load_state_dict(torch.load("checkpoint.pt"))
except RuntimeError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "_orig_mod." in str(err) and "Missing key" in str(err)
else:
    raise AssertionError("the checkpoint loaded: the symptom is gone in this torch")
