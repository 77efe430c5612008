"""Symptom: torch.compile of CUDA code on a GPU older than Triton supports (before Volta)."""
# requires: cuda, pre-volta-gpu
# expects: ^torch\._inductor\.exc\.GPUTooOldForTriton: Found .* which is too old
# message-in-source: which is too old to be supported by the triton GPU compiler
import traceback

import torch


def f(x):
    return torch.sin(x) * 2 + 1


try:
    torch.compile(f)(torch.randn(16, device="cuda"))
except torch._inductor.exc.GPUTooOldForTriton as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "too old" in str(err)
else:
    raise AssertionError("compiled for this GPU: it is not too old for Triton in this torch")
print("compute capability:", torch.cuda.get_device_capability())
