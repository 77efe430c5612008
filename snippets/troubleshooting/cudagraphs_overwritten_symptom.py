"""Symptom: an output of a mode="reduce-overhead" function is read after the next call ran."""
# requires: cuda
# expects: ^RuntimeError: Error: accessing tensor output of CUDAGraphs that has been overwritten
# message-in-source: Error: accessing tensor output of CUDAGraphs
import traceback

import torch


@torch.compile(mode="reduce-overhead")
def step(x):
    return torch.matmul(x, x)


x = torch.randn(64, 64, device="cuda")
for _ in range(3):
    step(x)  # warm-up, then the CUDA graph is recorded
first = step(x)  # replayed: `first` lives in the CUDA graph's memory pool
second = step(x)  # a new call starts a new iteration, which reuses that memory
try:
    first.sum().item()
except RuntimeError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "overwritten by a subsequent run" in str(err)
else:
    raise AssertionError("the earlier output is still readable: the symptom is gone in this torch")
