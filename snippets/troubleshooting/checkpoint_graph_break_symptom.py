"""Symptom: a print inside a checkpointed function makes the whole checkpoint call a graph break."""
# expects: ^Higher Order Operator: torch\.utils\.checkpoint\.checkpoint$
import contextlib
import io
import logging

import torch
from torch.utils.checkpoint import checkpoint

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH, WIDTH = 256, 32


class GraphBreaks(logging.Handler):  # keeps the TORCH_LOGS=graph_breaks records, to print them below
    messages = []

    def emit(self, record):
        if record.name.endswith("__graph_breaks"):
            self.messages.append(record.getMessage())


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inp, self.fc1, self.fc2 = (torch.nn.Linear(WIDTH, WIDTH) for _ in range(3))

    def block(self, x):
        h = torch.relu(self.fc1(x))
        print(f"block: activation mean {h.mean().item():.3f}")  # a debugging print, left in
        h = torch.sin(h) * torch.cos(h)
        return torch.tanh(self.fc2(h))

    def forward(self, x):
        x = self.inp(x)
        return checkpoint(self.block, x, use_reentrant=False).square().mean()


def saved_for_backward(model, x):
    """Run forward and backward; return the loss and the KiB of activations kept for the backward."""
    weights, saved = {p.untyped_storage().data_ptr() for p in model.parameters()}, {}
    def pack(t):  # called for each tensor kept for the backward; count activations, not weights
        if t.untyped_storage().data_ptr() not in weights:
            saved[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = model(x)
    loss.backward()
    return loss.detach(), sum(saved.values()) / 1024


graphs = []
def aot_eager_keeping_graphs(gm, example_inputs):  # aot_eager, and keep each graph Dynamo made
    graphs.append(gm)
    return torch._dynamo.lookup_backend("aot_eager")(gm, example_inputs)


torch.manual_seed(0)
model = Net().to(DEVICE)
x = torch.randn(BATCH, WIDTH, device=DEVICE)
logging.getLogger("torch._dynamo").addHandler(handler := GraphBreaks())
torch._logging.set_logs(graph_breaks=True)  # the same as TORCH_LOGS=graph_breaks
with contextlib.redirect_stdout(io.StringIO()):  # the block's prints in eager: not shown
    eager_loss, eager_kib = saved_for_backward(model, x)
with contextlib.redirect_stdout(io.StringIO()) as block_output:  # shown after the log record
    loss, compiled_kib = saved_for_backward(torch.compile(model, backend=aot_eager_keeping_graphs), x)
if not handler.messages:
    raise AssertionError("no graph break in the checkpointed function: the symptom is gone in this torch")
reason, _, stack = handler.messages[0].partition("User code traceback:")  # print its last frame only
print(next(ln.strip() for ln in reason.splitlines() if "Order Operator" in ln), end="\n\n")  # the telling line
print(reason.rstrip(), "User code traceback:", "  ...", *stack.rstrip().splitlines()[-3:], sep="\n")
tag_op = torch.ops.higher_order.tag_activation_checkpoint  # the operator a checkpoint becomes in a graph
tagged = [n for g in graphs for n in g.graph.nodes if n.target is tag_op]
print(f"\ngraphs compiled: {len(graphs)}, checkpointed regions in them: {len(tagged)}")
print("what the block printed in one compiled step (the forward, then the recomputation):",
      block_output.getvalue().rstrip(), sep="\n")
print(f"KiB saved for the backward: eager checkpoint {eager_kib:.0f}, compiled, the break {compiled_kib:.0f}")
torch.testing.assert_close(loss, eager_loss)
assert "Higher Order Operator: torch.utils.checkpoint.checkpoint" in handler.messages[0]
assert len(graphs) == 2 and not tagged  # the code before and after the checkpoint; the block in neither
assert compiled_kib == eager_kib and block_output.getvalue().count("block:") == 2  # as eager: it recomputes
