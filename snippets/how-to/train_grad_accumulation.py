"""Gradient accumulation with a compiled forward and loss: one graph for every micro-batch, no recompiles."""
import torch
from torch import nn
from torch._dynamo.utils import counters

ACCUM, STEPS, MICRO, WIDTH = 4, 3, 16, 64  # 4 micro-batches of 16 make one batch of 64


def make():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(WIDTH, WIDTH), nn.GELU(), nn.Linear(WIDTH, 1))
    return model, torch.optim.SGD(model.parameters(), lr=0.1)


def forward_loss(model, x, y):
    return nn.functional.mse_loss(model(x), y) / ACCUM  # each micro-batch gives 1/ACCUM of the mean


gen = torch.Generator().manual_seed(1)
data = [(torch.randn(ACCUM * MICRO, WIDTH, generator=gen), torch.randn(ACCUM * MICRO, 1, generator=gen))
        for _ in range(STEPS)]

model, opt = make()
compiled_loss = torch.compile(forward_loss)
for step, (x, y) in enumerate(data):
    for xb, yb in zip(x.split(MICRO), y.split(MICRO)):
        compiled_loss(model, xb, yb).backward()  # gradients add up in .grad until the step
    if step == 0:  # compiled on the first micro-batch; from here on a recompile would be an error
        torch.compiler.set_stance("fail_on_recompile")
    opt.step()
    opt.zero_grad(set_to_none=True)
    print(f"optimizer step {step}: {ACCUM} micro-batches; graphs compiled so far: "
          f"{counters['stats']['unique_graphs']}, frames compiled: {counters['frames']['ok']}")

# The same three steps in eager with the whole batch at once give the same weights.
reference, ref_opt = make()
for x, y in data:
    nn.functional.mse_loss(reference(x), y).backward()
    ref_opt.step()
    ref_opt.zero_grad(set_to_none=True)
for p, ref in zip(model.parameters(), reference.parameters()):
    torch.testing.assert_close(p, ref, rtol=1e-4, atol=1e-5)
print("weights after accumulation == weights after full batches (eager)")

# A last micro-batch of another size would need a new graph: the stance turns that into an error.
try:
    compiled_loss(model, x[:MICRO - 3], y[:MICRO - 3])
    raised = None
except RuntimeError as e:
    raised = e
    print(f"smaller micro-batch under fail_on_recompile: {type(e).__name__}: {str(e).split('. ')[0]}")
torch.compiler.set_stance("default")

assert counters["stats"]["unique_graphs"] == 1  # one graph served all 12 micro-batches
assert raised is not None
