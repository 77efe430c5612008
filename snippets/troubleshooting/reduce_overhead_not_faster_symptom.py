"""Symptom: mode="reduce-overhead" quietly runs without CUDA graphs (here: it mutates an input)."""
# requires: cuda
# expects: ^skipping cudagraphs due to mutated inputs
# message-in-source: skipping cudagraphs due to {reason}
import logging

import torch
from torch._dynamo.utils import counters
from torch._inductor import cudagraph_trees

messages = []


class Keep(logging.Handler):
    def emit(self, record):
        messages.append(record.getMessage())


# torch logs the reason as a warning (to stderr); keep a copy to print it here.
logging.getLogger("torch._inductor").addHandler(Keep())


@torch.compile(mode="reduce-overhead")
def step(total, x):
    total.add_(x)  # in-place update of a tensor passed in from eager code
    return total * 2


total, x = torch.zeros(1024, device="cuda"), torch.ones(1024, device="cuda")
for _ in range(3):
    out = step(total, x)
skips = [m for m in messages if m.startswith("skipping cudagraph")]
print(skips[0] if skips else "(no skip message)")
manager = cudagraph_trees.get_manager(create_if_none_exists=False)  # internal: the CUDA graph tree
recorded = sum(1 for _ in manager.get_roots()) if manager else 0
print(f"counters['inductor']['cudagraph_skips'] = {counters['inductor']['cudagraph_skips']}, "
      f"CUDA graphs recorded: {recorded}")
assert skips and counters["inductor"]["cudagraph_skips"] >= 1 and recorded == 0
torch.testing.assert_close(out, torch.full_like(total, 6.0))  # correct, just not graphed
