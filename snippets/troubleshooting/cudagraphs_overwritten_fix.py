"""Fix: clone the outputs you keep, or mark where each iteration starts."""
# requires: cuda
import torch


@torch.compile(mode="reduce-overhead")
def step(x):
    return torch.matmul(x, x)


x = torch.randn(64, 64, device="cuda")
y = x + 1
for _ in range(3):
    step(x)  # warm-up, recording, then a replay: from here on every call replays the graph

# Fix 1: clone what must outlive the next call (outside the compiled function): ordinary memory,
# which the next replay does not write into.
kept = step(x).clone()
step(y)
torch.testing.assert_close(kept, torch.matmul(x, x), rtol=1e-4, atol=1e-4)
print("fix 1, .clone(): the kept output still holds x @ x after the next call")

# Fix 2: several calls per iteration: mark each iteration's start yourself. Outputs then stay
# valid until the next mark (once you mark, torch stops starting an iteration on every call).
for _ in range(3):
    torch.compiler.cudagraph_mark_step_begin()
    a = step(x)
    b = step(y)
    total = a + b  # reads both outputs of this iteration
torch.testing.assert_close(total, torch.matmul(x, x) + torch.matmul(y, y), rtol=1e-4, atol=1e-4)
print("fix 2, torch.compiler.cudagraph_mark_step_begin(): both outputs of an iteration readable")
