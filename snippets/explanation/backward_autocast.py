"""Autocast and the compiled backward: AOTAutograd traces the backward under the caller's autocast state."""
import torch
import torch._functorch.config as functorch_config
from torch.utils._python_dispatch import TorchDispatchMode

MATMULS = {torch.ops.aten.mm.default, torch.ops.aten.mm.out, torch.ops.aten.addmm.default}


class MatmulDtypes(TorchDispatchMode):
    """Records the dtype of each matrix multiplication that runs while it is active."""
    def __init__(self):
        super().__init__()
        self.dtypes = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func in MATMULS:
            self.dtypes.append(str(out.dtype).removeprefix("torch."))
        return out

gen = torch.Generator().manual_seed(0)
x = torch.randn(8, 16, generator=gen)
w1 = torch.randn(16, 16, generator=gen, requires_grad=True)
w2 = torch.randn(16, 4, generator=gen, requires_grad=True)


def region(x, w1, w2):
    h = x @ w1  # under autocast: a bfloat16 matmul
    with torch.autocast("cpu", enabled=False):  # a float32 part, as the AMP documentation allows
        return (h.float() @ w2).square().mean()


def region_with_autocast(x, w1, w2):  # the autocast context inside the function: eager gives row 1
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return region(x, w1, w2)


def run(fn, backward_in_autocast=False, caller_autocast=True):
    w1.grad = w2.grad = None
    seen = MatmulDtypes()
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=caller_autocast):
        loss = fn(x, w1, w2)
        if backward_in_autocast:
            with seen:
                loss.backward()
    if not backward_in_autocast:  # where the AMP documentation puts it
        with seen:
            loss.backward()
    return seen.dtypes, w1.grad.clone(), w2.grad.clone()


def compiled(fn, backward_pass_autocast="same_as_forward", caller_autocast=True):
    torch._dynamo.reset()  # a new compile for each row
    with functorch_config.patch(backward_pass_autocast=backward_pass_autocast):  # read when compiling
        return run(torch.compile(fn), caller_autocast=caller_autocast)


rows = {  # row 1 is the AMP documentation's pattern
    "eager, backward() outside autocast": run(region),
    "eager, backward() inside autocast": run(region, backward_in_autocast=True),
    "compiled, backward() outside autocast": compiled(region),
    "compiled, backward_pass_autocast='off'": compiled(region, "off"),
    "compiled, autocast inside the function": compiled(region_with_autocast, caller_autocast=False),
}
outside = rows["eager, backward() outside autocast"]
for name, (dtypes, g1, g2) in rows.items():
    diff = max((g1 - outside[1]).abs().max(), (g2 - outside[2]).abs().max())
    print(f"{name:40} backward matmuls: {', '.join(dtypes)}; grads {g1.dtype}, max |diff| vs row 1: {diff:.1e}")


def same(a, b):  # the same matmul dtypes in the backward, and the same gradients
    assert rows[a][0] == rows[b][0], (a, b)
    for got, want in zip(rows[a][1:], rows[b][1:]):
        torch.testing.assert_close(got, want)

assert rows["eager, backward() outside autocast"][0] != rows["eager, backward() inside autocast"][0]
same("compiled, backward() outside autocast", "eager, backward() inside autocast")
same("compiled, backward_pass_autocast='off'", "eager, backward() outside autocast")
same("compiled, autocast inside the function", "eager, backward() outside autocast")
assert all(g1.dtype == g2.dtype == torch.float32 for _, g1, g2 in rows.values())  # the weights' dtype
