"""Fix: keep state the compiled code updates in place in a module buffer, so CUDA graphs apply."""
# requires: cuda
import logging

import torch
from torch import nn
from torch._dynamo.utils import counters
from torch._inductor import cudagraph_trees

messages = []


class Keep(logging.Handler):
    def emit(self, record):
        messages.append(record.getMessage())


logging.getLogger("torch._inductor").addHandler(Keep())


class Accumulate(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("total", torch.zeros(1024))  # buffers keep their address: static

    def forward(self, x):
        self.total.add_(x)  # mutating a buffer is supported under CUDA graphs
        return self.total * 2


step = torch.compile(Accumulate().cuda(), mode="reduce-overhead")
x = torch.ones(1024, device="cuda")
for _ in range(3):
    out = step(x)
manager = cudagraph_trees.get_manager(create_if_none_exists=False)  # internal: the CUDA graph tree
recorded = sum(1 for _ in manager.get_roots()) if manager else 0
skips = [m for m in messages if m.startswith("skipping cudagraph")]
print(f"skip messages: {len(skips)}, cudagraph_skips = {counters['inductor']['cudagraph_skips']}, "
      f"CUDA graphs recorded: {recorded}")
assert not skips and counters["inductor"]["cudagraph_skips"] == 0 and recorded >= 1
torch.testing.assert_close(out.clone(), torch.full((1024,), 6.0, device="cuda"))
print("output after 3 calls matches eager: the buffer was updated on every call")
