"""Symptom: a hand-written benchmark says torch.compile makes the model slower."""
# expects: ^naive benchmark: torch\.compile takes [\d,.]+x eager.s time per call
import os
import tempfile
import time

cache = tempfile.TemporaryDirectory()  # an empty compile cache: a first-time user's compile
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache.name

import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())


torch.manual_seed(0)
model = nn.Sequential(block(3, 32), block(32, 32), nn.MaxPool2d(2), block(32, 64), block(64, 64),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)).to(device)
x = torch.randn(8, 3, 32, 32, device=device)
compiled = torch.compile(model)


def naive_benchmark(fn, calls=10):
    # The usual mistakes, all at once: the model is still in train mode with autograd on,
    # there is no warm-up (the first compiled call compiles), compile time ends up in the
    # average, and on a GPU nothing waits for the kernels (no torch.cuda.synchronize()).
    start = time.perf_counter()
    for _ in range(calls):
        fn(x)
    return (time.perf_counter() - start) / calls


eager_s = naive_benchmark(model)
graphs_before = torch._dynamo.utils.counters["stats"]["unique_graphs"]
compiled_s = naive_benchmark(compiled)
print(f"naive benchmark: torch.compile takes {compiled_s / eager_s:,.1f}x eager's time per call "
      f"(compiled {compiled_s * 1e3:,.1f} ms/call, eager {eager_s * 1e3:,.1f} ms/call, "
      f"mean of 10 calls, one run)")
# The mistake, verified without asserting any speed: the compile happened inside the timed loop.
assert torch._dynamo.utils.counters["stats"]["unique_graphs"] > graphs_before
