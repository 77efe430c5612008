"""Fix: judge compiled numerics with dtype tolerances and an fp64 reference; localise real bugs."""
import torch
import torch.nn.functional as F
from torch.testing._comparison import default_tolerances  # what assert_close uses per dtype

device = "cuda" if torch.cuda.is_available() else "cpu"


def layer(x, weight, bias):
    h = F.layer_norm(x, x.shape[-1:], weight, bias)
    return F.softmax(h, dim=-1) * F.gelu(h)


def rmse(out, ref64):
    return (out.double() - ref64).pow(2).mean().sqrt().item()


torch.manual_seed(0)
inputs = [torch.randn(64, 1000, device=device), torch.randn(1000, device=device),
          torch.randn(1000, device=device)]
compiled = torch.compile(layer)

# 1. Compare with the dtype's default tolerances, not with rtol=0, atol=0.
eager, comp = layer(*inputs), compiled(*inputs)
torch.testing.assert_close(comp, eager)
rtol, atol = default_tolerances(torch.float32)
print(f"1. float32, assert_close defaults (rtol={rtol}, atol={atol}): passed")

# 2. Ask which one is closer to the truth: an fp64 run of the same inputs.
#    Rule of PyTorch's benchmark suite (torch._dynamo.utils.same): compiled RMSE vs fp64
#    <= multiplier * eager RMSE vs fp64 + tol / 10 (multiplier 2 for fp32, 3 for bf16; tol 1e-4).
print("2. RMSE against an fp64 reference:")
for dtype, multiplier in ((torch.float32, 2.0), (torch.bfloat16, 3.0)):
    args = [t.to(dtype) for t in inputs]
    ref64 = layer(*[t.double() for t in args])  # the same rounded inputs, computed in fp64
    e, c = rmse(layer(*args), ref64), rmse(compiled(*args), ref64)
    print(f"   {str(dtype):15} eager {e:.2e}   compiled {c:.2e}")
    assert c <= multiplier * e + 1e-4 / 10, f"{dtype}: compiled is much less accurate than eager"

# 3. Still suspicious? Ablate the backend to find the stage that changes the numbers.
print("3. largest |compiled - eager| per backend (float32):")
for backend in ("eager", "aot_eager", "inductor"):
    torch._dynamo.reset()
    out = torch.compile(layer, backend=backend)(*inputs)
    print(f"   backend={backend!r:12} {(out - eager).abs().max().item():.1e}")
    if backend == "eager":  # Dynamo alone replays the same ATen ops: identical bits
        assert torch.equal(out, eager)


# 4. Random ops: the same seed gives different numbers unless Inductor falls back to eager's RNG.
def noisy(x):
    return F.dropout(x, p=0.5, training=True)


torch.manual_seed(0)
expected = noisy(inputs[0])
for options in ({}, {"fallback_random": True}):
    torch.manual_seed(0)
    same = torch.equal(torch.compile(noisy, options=options)(inputs[0]), expected)
    print(f"4. dropout, options={options}: same as eager with the same seed: {same}")
assert same, "fallback_random=True should reproduce eager's random numbers"
