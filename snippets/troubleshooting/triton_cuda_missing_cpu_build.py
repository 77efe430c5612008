"""Symptom: a CPU-only build of torch is asked for a CUDA tensor."""
# requires: cpu-only-torch-build
# expects: ^AssertionError: Torch not compiled with CUDA enabled
# message-in-source: Torch not compiled with CUDA enabled
import traceback

import torch

try:
    torch.zeros(1, device="cuda")
except AssertionError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "not compiled with CUDA" in str(err) and torch.version.cuda is None
else:
    raise AssertionError("created a CUDA tensor: this torch is not a CPU-only build")
