"""Fix: move the print out of the checkpointed function; the region becomes one graph that recomputes."""
import torch
from torch.utils.checkpoint import checkpoint

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH, WIDTH = 256, 32


class Net(torch.nn.Module):
    def __init__(self, use_checkpoint=True):
        super().__init__()
        self.inp, self.fc1, self.fc2 = (torch.nn.Linear(WIDTH, WIDTH) for _ in range(3))
        self.use_checkpoint = use_checkpoint

    def block(self, x):  # returns the statistic instead of printing it: nothing left that breaks
        h = torch.relu(self.fc1(x))
        stat = h.mean().detach()
        h = torch.sin(h) * torch.cos(h)
        return torch.tanh(self.fc2(h)), stat

    def forward(self, x):
        x = self.inp(x)
        y, stat = checkpoint(self.block, x, use_reentrant=False) if self.use_checkpoint else self.block(x)
        return y.square().mean(), stat


def step(model, x):
    """Forward and backward; returns the loss, the statistic, the gradients and the KiB saved for backward."""
    weights, saved = {p.untyped_storage().data_ptr() for p in model.parameters()}, {}
    def pack(t):  # called for each tensor kept for the backward; count activations, not weights
        if t.untyped_storage().data_ptr() not in weights:
            saved[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t
    model.zero_grad(set_to_none=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss, stat = model(x)
    loss.backward()
    return loss.detach(), stat, [p.grad for p in model.parameters()], sum(saved.values()) / 1024


graphs = []
def aot_eager_keeping_graphs(gm, example_inputs):  # aot_eager, and keep each graph Dynamo made
    graphs.append(gm)
    return torch._dynamo.lookup_backend("aot_eager")(gm, example_inputs)


def tagged(gm):
    return [n for n in gm.graph.nodes if n.target is torch.ops.higher_order.tag_activation_checkpoint]


torch.manual_seed(0)
model = Net().to(DEVICE)
x = torch.randn(BATCH, WIDTH, device=DEVICE)
eager_loss, eager_stat, eager_grads, eager_kib = step(model, x)
loss, stat, grads, kib = step(torch.compile(model, backend=aot_eager_keeping_graphs), x)
fixed_graphs = list(graphs)
print(f"block: activation mean {stat.item():.3f}")  # the print, now outside the compiled step
print(f"graphs compiled: {len(fixed_graphs)}, checkpointed regions in them: {len(tagged(fixed_graphs[0]))}")

model.use_checkpoint = False  # the same model without checkpointing, for comparison
_, _, _, no_ckpt_kib = step(torch.compile(model, backend=aot_eager_keeping_graphs), x)
print(f"KiB saved for the backward: eager checkpoint {eager_kib:.0f}, compiled checkpoint {kib:.0f}, "
      f"compiled without checkpoint {no_ckpt_kib:.0f}")

torch.testing.assert_close(loss, eager_loss)
torch.testing.assert_close(stat, eager_stat)
for g, ref in zip(grads, eager_grads):
    torch.testing.assert_close(g, ref)
assert len(fixed_graphs) == 1 and len(tagged(fixed_graphs[0])) == 1  # one graph, the region tagged inside it
assert kib < no_ckpt_kib  # the partitioner recomputes the tagged region instead of saving it
assert kib < eager_kib  # and plans what to keep for the whole graph: less than eager checkpointing here
