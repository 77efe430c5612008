"""Which result is wrong? Judge compiled vs eager against an fp64 reference with same()."""
import torch
import torch.nn.functional as F
from torch._dynamo.utils import same  # the accuracy check of PyTorch's benchmark suite

device = "cuda" if torch.cuda.is_available() else "cpu"


def layer(x, w):
    h = x @ w
    h = torch.relu(h) * 0.5 + F.gelu(h) * torch.sigmoid(h)
    return F.layer_norm(h, h.shape[-1:])


def rmse(out, ref64):
    return (out.double() - ref64).pow(2).mean().sqrt().item()


def verdicts(out, ref, ref64):
    """assert_close, same() without and with the fp64 reference: True when the check passes."""
    try:
        torch.testing.assert_close(out, ref)
        close = True
    except AssertionError:
        close = False
    quiet = lambda *args: None  # same() logs why it failed; the table says enough
    return close, same(ref, out, log_error=quiet), same(ref, out, fp64_ref=ref64, log_error=quiet)


torch.manual_seed(0)
x, w = torch.randn(64, 256, device=device), torch.randn(256, 256, device=device) / 16
cases = {"float32": (torch.float32, None), "bfloat16": (torch.bfloat16, None),
         "float32, injected relu bug": (torch.float32, "accuracy")}
rows = {}
print(f"{'case':27} {'assert_close':>12} {'same()':>7} {'same(fp64_ref)':>14} "
      f"{'RMSE eager':>11} {'RMSE compiled':>13}")
for case, (dtype, bug) in cases.items():
    args = (x.to(dtype), w.to(dtype))
    ref64 = layer(*(t.double() for t in args))  # the same rounded inputs, computed in fp64
    torch._dynamo.reset()
    # bug: a test-only switch that makes Inductor's relu compute x + 1 (CPU and GPU)
    with torch._inductor.config.patch({"cpp.inject_relu_bug_TESTING_ONLY": bug,
                                       "triton.inject_relu_bug_TESTING_ONLY": bug}):
        compiled = torch.compile(layer)(*args)
    eager = layer(*args)
    rows[case] = verdicts(compiled, eager, ref64)
    shown = ["pass" if ok else "FAIL" for ok in rows[case]]
    print(f"{case:27} {shown[0]:>12} {shown[1]:>7} {shown[2]:>14} "
          f"{rmse(eager, ref64):11.2e} {rmse(compiled, ref64):13.2e}")

assert rows["float32"] == (True, True, True)
# bf16: too far from eager for assert_close, but closer to fp64 than eager is: same() accepts it
assert rows["bfloat16"] == (False, False, True)
assert rows["float32, injected relu bug"] == (False, False, False)  # a real bug fails every check
