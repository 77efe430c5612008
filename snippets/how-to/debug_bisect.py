"""Let CompilerBisector find the backend, the subsystem and the one lowering that breaks a result."""
import torch
import torch.nn.functional as F
from torch._inductor.compiler_bisector import CompilerBisector

torch.manual_seed(0)
x, w = torch.randn(32, 64), torch.randn(64, 64)


def layer(x, w):
    h = torch.relu(x @ w)
    return F.layer_norm(h, h.shape[-1:]) * torch.sigmoid(h)


expected = layer(x, w)
tries = []


def check():
    """One try: compile afresh (the bisector picks the backend and what to switch off), compare with eager."""
    torch._dynamo.reset()
    good = torch.allclose(torch.compile(layer)(x, w), expected, atol=1e-4)
    tries.append(good)
    return good


# A stand-in for a compiler bug: Inductor's test-only switch makes its relu compute x + 1 (CPU and GPU).
with torch._inductor.config.patch({"cpp.inject_relu_bug_TESTING_ONLY": "accuracy",
                                   "triton.inject_relu_bug_TESTING_ONLY": "accuracy"}):
    assert not check(), "the injected bug should show before we bisect"
    tries.clear()
    result = CompilerBisector.do_bisect(check)

print(f"\n{len(tries)} tries of check() by the bisector, {tries.count(False)} of them failing")
print(result)
assert result is not None and result.backend == "inductor"
assert result.subsystem == "lowerings" and result.debug_info == "relu"
