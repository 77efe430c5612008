"""Symptom: max-autotune is left with no candidate for a matmul, and the compile fails (Triton only, CPU tensors)."""
# expects: ^torch\._inductor\.exc\.InductorError: LoweringException: NoValidChoicesError: No choices to select
import traceback

import torch


def f(a, b):
    return torch.relu(a @ b)


a, b = torch.randn(64, 64), torch.randn(64, 64)
# Inductor has no Triton template for CPU tensors: with ATen and C++ left out, nothing is left to try
compiled = torch.compile(f, options={"max_autotune": True, "max_autotune_gemm_backends": "TRITON"})
try:
    compiled(a, b)
except torch._inductor.exc.InductorError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "please consider adding ATEN into max_autotune_gemm_backends" in str(err)
else:
    raise AssertionError("compiled with no ATen candidate: the symptom is gone in this torch")
