"""Symptom: the compiled output is not bit-for-bit equal to eager, so an exact comparison fails."""
# expects: ^AssertionError: Tensor-likes are not equal!
import traceback

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def layer(x, weight, bias):  # reductions (layer_norm, softmax) are where results drift
    h = F.layer_norm(x, x.shape[-1:], weight, bias)
    return F.softmax(h, dim=-1) * F.gelu(h)


torch.manual_seed(0)
x = torch.randn(64, 1000, device=device)
weight, bias = torch.randn(1000, device=device), torch.randn(1000, device=device)
compiled = torch.compile(layer)
eager_out, compiled_out = layer(x, weight, bias), compiled(x, weight, bias)

try:
    torch.testing.assert_close(compiled_out, eager_out, rtol=0, atol=0)  # demands identical bits
except AssertionError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "Mismatched elements" in str(err)
else:
    raise AssertionError("compiled equals eager bit for bit: the symptom is gone in this torch")

diff = (compiled_out - eager_out).abs().max().item()
print(f"float32: largest |compiled - eager| = {diff:.1e}, "
      f"largest |eager| = {eager_out.abs().max().item():.1e}")
