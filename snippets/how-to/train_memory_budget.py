"""Trade speed for memory in a compiled training step with activation_memory_budget."""
import os
import pathlib
import statistics
import subprocess
import sys
import time

import torch
import torch._functorch.config as functorch_config
from torch import nn

if "MALLOC_MMAP_THRESHOLD_" not in os.environ:  # rerun this file with glibc handing blocks of 64 KiB
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536"}  # and more back at once, so that the
    sys.exit(subprocess.run([sys.executable, __file__], env=env).returncode)  # RSS follows live tensors

BUDGETS, BATCH, WIDTH, DEPTH, STEPS = (1.0, 0.5, 0.1), 8192, 128, 3, 5
device = "cuda" if torch.cuda.is_available() else "cpu"


def peak_mib(reset=False):
    """Peak memory since the last reset: CUDA's allocator, or Linux's peak resident memory (VmHWM)."""
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats() if reset else None
        return torch.cuda.max_memory_allocated() / 2**20
    if reset:
        pathlib.Path("/proc/self/clear_refs").write_text("5")  # sets the peak to the current RSS
    status = pathlib.Path("/proc/self/status").read_text().splitlines()
    return int(next(line for line in status if line.startswith("VmHWM")).split()[1]) / 1024


torch.manual_seed(0)  # activations (BATCH x WIDTH) outweigh the weights (WIDTH x WIDTH) here
model = nn.Sequential(*(nn.Sequential(nn.Linear(WIDTH, WIDTH), nn.LayerNorm(WIDTH), nn.GELU())
                        for _ in range(DEPTH)), nn.Linear(WIDTH, 1)).to(device)
x, y = torch.randn(BATCH, WIDTH, device=device), torch.randn(BATCH, 1, device=device)
weights = {p.data_ptr() for p in model.parameters()}


def forward_loss(model, x, y):
    return nn.functional.mse_loss(model(x), y)


def step(loss_fn):
    """Forward and backward; returns the loss, the gradients and the MiB saved for the backward."""
    saved = {}
    def pack(t):  # called for each tensor kept for the backward; count activations, not weights
        if t.untyped_storage().data_ptr() not in weights:
            saved[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t
    model.zero_grad(set_to_none=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = loss_fn(model, x, y)
    loss.backward()
    return loss.detach(), [p.grad for p in model.parameters()], sum(saved.values()) / 2**20


ref_loss, ref_grads, ref_saved = step(forward_loss)
print(f"eager: {ref_saved:.1f} MiB of activations saved for the backward")
print("| activation_memory_budget | saved for backward | step peak above held | step time, median (IQR) | first step |")
print("|---|---|---|---|---|")
saved = {}
for budget in BUDGETS:
    torch._dynamo.reset()  # compile afresh: the budget is read when forward and backward are split
    with functorch_config.patch(activation_memory_budget=budget):
        compiled, t0 = torch.compile(forward_loss), time.perf_counter()
        loss, grads, saved[budget] = step(compiled)
        first_s, times, peaks = time.perf_counter() - t0, [], []
    torch.testing.assert_close(loss, ref_loss, rtol=1e-4, atol=1e-5)  # recomputing changes no result
    for g, ref in zip(grads, ref_grads):
        torch.testing.assert_close(g, ref, rtol=1e-3, atol=1e-4)
    for _ in range(STEPS):
        held, t0 = peak_mib(reset=True), time.perf_counter()
        step(compiled)
        times.append(time.perf_counter() - t0)
        peaks.append(peak_mib() - held)
    q1, _, q3 = statistics.quantiles(times, n=4)
    print(f"| {budget} | {saved[budget]:.1f} MiB | {statistics.median(peaks):.1f} MiB | "
          f"{statistics.median(times) * 1e3:.1f} ms ({q1 * 1e3:.1f}-{q3 * 1e3:.1f}) | {first_s:.1f} s |")
assert saved[min(BUDGETS)] < saved[1.0] < ref_saved  # a lower budget keeps less (and recomputes it)
