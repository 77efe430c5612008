"""Symptom: torch.compile of CUDA code fails because Triton cannot be imported."""
# requires: cuda
# expects: ^torch\._inductor\.exc\.TritonMissing: Cannot find a working triton installation
# message-in-source: Cannot find a working triton installation.
import sys
import traceback

sys.modules["triton"] = None  # as if triton were not installed: `import triton` raises ImportError
import torch  # noqa: E402


def f(x):
    return torch.sin(x) * 2 + 1


try:
    torch.compile(f)(torch.randn(16, device="cuda"))  # inductor generates Triton kernels for CUDA
except torch._inductor.exc.TritonMissing as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "triton" in str(err)
else:
    raise AssertionError("compiled CUDA code without triton: the symptom is gone in this torch")
