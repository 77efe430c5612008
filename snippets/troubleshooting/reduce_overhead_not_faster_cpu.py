"""What each mode turns on, and what mode="reduce-overhead" does with CPU tensors: nothing extra."""
import logging

import torch
from torch._dynamo.utils import counters

for mode, options in torch._inductor.list_mode_options().items():
    print(f"mode={mode!r}: {options}")
# On by default: CUDA graphs then cover a graph's GPU parts, and the other parts run without them.
print(f"torch._inductor.config.graph_partition = {torch._inductor.config.graph_partition}")

messages = []


class Keep(logging.Handler):
    def emit(self, record):
        messages.append(record.getMessage())


logging.getLogger("torch._inductor").addHandler(Keep())


def f(x):
    return torch.sin(x) * 2 + 1


x = torch.randn(1024)  # CPU tensors: CUDA graphs cannot apply
compiled = torch.compile(f, mode="reduce-overhead")
for _ in range(3):
    out = compiled(x)
torch.testing.assert_close(out, f(x))
skips = [m for m in messages if "cudagraph" in m]
print(f"CPU tensors with reduce-overhead: cudagraph_skips = {counters['inductor']['cudagraph_skips']}, "
      f"messages about it: {len(skips)}")
assert counters["inductor"]["cudagraph_skips"] >= 1 and not skips
