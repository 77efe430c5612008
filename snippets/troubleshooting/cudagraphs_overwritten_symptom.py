"""Symptom: a kept mode="reduce-overhead" output raises in the first calls, then silently takes new values."""
# requires: cuda
# expects: ^RuntimeError: Error: accessing tensor output of CUDAGraphs that has been overwritten
# message-in-source: Error: accessing tensor output of CUDAGraphs
import traceback

import torch


@torch.compile(mode="reduce-overhead")
def step(x):
    return torch.matmul(x, x)


torch.manual_seed(0)
x = torch.randn(64, 64, device="cuda")
y = torch.randn(64, 64, device="cuda")

# The first calls: the warm-up's output, read after the next call ended the warm-up, raises.
warm = step(x)  # call 1: compiles, then warms up (runs eagerly, into the CUDA graphs' memory pool)
step(y)  # call 2: a new iteration: the warm-up's outputs are freed (and marked), the graph is recorded
try:
    warm.sum().item()
except RuntimeError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "overwritten by a subsequent run" in str(err)
else:
    raise AssertionError("the warm-up's output is still readable: the symptom changed in this torch")

# From then on the calls replay the graph: nothing raises, a kept output takes the next call's values.
step(x)  # call 3: ends the recording (its outputs are marked the same way), then replays
kept = step(x)  # a replay: x @ x, in the pool
later = step(y)  # the next replay writes y @ y into the same memory
print(f"replays: the kept step(x) output now equals step(y)'s: {torch.equal(kept, later)}")
total = step(x) + step(y)  # the second call overwrites the first one's output before the addition
close = dict(rtol=1e-4, atol=1e-3)
print(f"replays: step(x) + step(y) equals 2 * (y @ y): {torch.allclose(total, 2 * (y @ y), **close)}")
assert torch.equal(kept, later) and not torch.allclose(kept, x @ x, **close)
assert torch.allclose(total, 2 * (y @ y), **close) and not torch.allclose(total, x @ x + y @ y, **close)
