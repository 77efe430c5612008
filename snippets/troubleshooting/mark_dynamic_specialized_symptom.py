"""Symptom: code that makes a size marked with `mark_dynamic` a constant raises ConstraintViolationError."""
# expects: ^torch\.fx\.experimental\.symbolic_shapes\.ConstraintViolationError: Constraints violated \(
import math
import traceback

import torch
from torch._dynamo.utils import counters
from torch.fx.experimental.symbolic_shapes import ConstraintViolationError

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
HIDDEN = 16


class Recurrent(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = torch.nn.RNNCell(8, HIDDEN)

    def forward(self, x):  # x: (batch, seq_len, 8)
        h = x.new_zeros(x.shape[0], HIDDEN)
        for t in range(x.shape[1]):  # a Python loop over the time steps
            h = self.cell(x[:, t], h)
        return h


def raises(fn, x, dim, backend="eager"):
    """Compile `fn` with dimension `dim` of `x` marked dynamic; return the error it raises, or None."""
    torch._dynamo.reset()
    counters.clear()
    torch._dynamo.mark_dynamic(x, dim)
    try:
        torch.compile(fn, backend=backend)(x)  # the check is Dynamo's, whatever the backend
    except ConstraintViolationError as err:
        return err
    return None


torch.manual_seed(0)
torch.set_grad_enabled(False)  # inference
model = Recurrent().to(DEVICE)
error = raises(model, torch.randn(4, 6, 8, device=DEVICE), dim=1)  # "compile once for every length"
if error is None:
    raise AssertionError("no ConstraintViolationError: the symptom is gone in this torch")
print("".join(traceback.format_exception_only(error)).rstrip(), end="\n\n")

# torch._check returns None, so `torch._check(...) or y` is y once the check has passed
OTHERS = {
    "if x.shape[0] == 8": lambda x: x * 2 if x.shape[0] == 8 else x,
    "x + torch.ones(8, 1)": lambda x: x + torch.ones(8, 1, device=x.device),
    "torch._check(x.shape[0] == 8)": lambda x: torch._check(x.shape[0] == 8) or x * 2,
    "if x.shape[0] > 4": lambda x: x * 2 if x.shape[0] > 4 else x,
    "torch._check(x.shape[0] >= 2)": lambda x: torch._check(x.shape[0] >= 2) or x * 2,
    "torch.arange(x.shape[0])": lambda x: x * torch.arange(x.shape[0], device=x.device)[:, None],
    "x / math.sqrt(x.shape[0])": lambda x: x / math.sqrt(x.shape[0]),
}
outcome = {code: raises(fn, torch.randn(8, 3, device=DEVICE), dim=0) for code, fn in OTHERS.items()}
print("other code, with dimension 0 of an (8, 3) input marked dynamic:")
for code, err in outcome.items():
    print(f"  {code:<32} {'ConstraintViolationError' if err else 'compiles, no error'}")

# The default backend: Inductor compiles the graph and returns it, then Dynamo builds the guards and raises.
inductor_error = raises(model, torch.randn(4, 6, 8, device=DEVICE), dim=1, backend="inductor")
built = counters["aot_autograd"]["ok"]  # counted when AOTAutograd, with Inductor inside, has returned
print(f'\nbackend="inductor": {type(inductor_error).__name__}, after it had returned {built} compiled graph')

assert "specialized it to be a constant" in str(error)
assert [code for code, err in outcome.items() if err] == list(OTHERS)[:3]
assert isinstance(inductor_error, ConstraintViolationError) and built == 1
