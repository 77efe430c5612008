"""Compile a training step (model, loss under autocast, optimizer step) and check it against eager."""
import statistics
import time

import torch
from torch import nn
from torch._dynamo.utils import counters
from torch.nn import functional as F

STEPS, WARMUP, BATCH, WIDTH = 15, 3, 64, 256
device = "cuda" if torch.cuda.is_available() else "cpu"


def make():
    torch.manual_seed(0)  # same initial weights for both loops
    model = nn.Sequential(nn.Linear(32, WIDTH), nn.GELU(), nn.Linear(WIDTH, WIDTH), nn.GELU(),
                          nn.Linear(WIDTH, 10)).to(device)
    return model, torch.optim.AdamW(model.parameters(), lr=1e-2)


def forward_loss(model, x, y):  # model and loss in one region, so the compiler can fuse them
    with torch.autocast(device, dtype=torch.bfloat16):  # bf16 autocast: CPU and recent GPUs
        return F.cross_entropy(model(x), y)


eager_model, eager_opt = make()
model, opt = make()
compiled_loss = torch.compile(forward_loss)


@torch.compile(fullgraph=False)
def compiled_opt_step():  # the compiled-optimizer recipe's pattern: a function that calls step()
    opt.step()


def step(loss_fn, model, opt_step, opt, x, y):
    t0 = time.perf_counter()
    loss = loss_fn(model, x, y)
    loss.backward()  # runs the backward graph compiled with the forward (for the compiled loop)
    opt_step()
    opt.zero_grad(set_to_none=True)
    loss = loss.item()  # .item() waits for the device, so the time covers the whole step
    return loss, time.perf_counter() - t0


gen = torch.Generator().manual_seed(1)
teacher = torch.randn(32, 10, generator=gen)  # synthetic task: labels from a fixed random linear map
losses, times = {"eager": [], "compiled": []}, {"eager": [], "compiled": []}
for i in range(STEPS):  # the two loops take turns, so a busy moment of the machine hits both
    x = torch.randn(BATCH, 32, generator=gen)
    x, y = x.to(device), (x @ teacher).argmax(1).to(device)
    for name, args in (("eager", (forward_loss, eager_model, eager_opt.step, eager_opt)),
                       ("compiled", (compiled_loss, model, compiled_opt_step, opt))):
        loss, seconds = step(*args, x, y)
        losses[name].append(loss)
        times[name].append(seconds)
    if i < 4 or i == STEPS - 1:
        diff = abs(losses["eager"][i] - losses["compiled"][i])
        print(f"step {i:2d}: loss eager {losses['eager'][i]:.5f}, compiled {losses['compiled'][i]:.5f}, |diff| {diff:.1e}")

print(f"compiled first step (compiles forward, backward and optimizer): {times['compiled'][0]:.1f} s")
for name, t in times.items():
    t = t[WARMUP:]
    q1, _, q3 = statistics.quantiles(t, n=4)
    print(f"{name:>8} step, {len(t)} steps: median {statistics.median(t) * 1e3:.2f} ms, "
          f"IQR {q1 * 1e3:.2f}-{q3 * 1e3:.2f} ms")
graphs = counters["stats"]["unique_graphs"]
print(f"graphs compiled: {graphs}; graph breaks: {sum(counters['graph_break'].values())}")
for reason, n in counters["graph_break"].items():
    print(f"  {n} x {reason.splitlines()[0]}")

# bf16 autocast in both loops, but different kernels round in different places: a loose tolerance
torch.testing.assert_close(torch.tensor(losses["compiled"]), torch.tensor(losses["eager"]), rtol=1e-2, atol=1e-3)
for p, ref in zip(model.parameters(), eager_model.parameters()):
    torch.testing.assert_close(p, ref, rtol=1e-2, atol=1e-2)
assert losses["compiled"][-1] < losses["compiled"][0]  # it learns the synthetic task
assert graphs == 2  # forward+loss (with its backward) and the optimizer update: no recompiles
