"""What the backward keeps: tensors saved for backward, eager vs compiled, and the opt-in memory budget."""
import torch
import torch._functorch.config as functorch_config
from torch import nn
from torch.utils.checkpoint import checkpoint



class QuickGELU(nn.Module):  # an activation written as Python ops, as many models do
    def forward(self, h):
        return h * torch.sigmoid(1.702 * h)


torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(256, 1024), QuickGELU(), nn.Linear(1024, 1024), QuickGELU(),
                      nn.Linear(1024, 256), nn.LayerNorm(256)).to(device)
x = torch.randn(512, 256, device=device)


def saved(fn):
    """Run forward + backward; count the activations autograd saves for the backward, and their bytes."""
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen = {}  # pack hook: called for every tensor saved for backward; count each storage once

    def pack(t):
        storage = t.untyped_storage()
        if storage.data_ptr() not in params:  # weights are saved too; they exist anyway
            seen[storage.data_ptr()] = storage.nbytes()
        return t

    model.zero_grad(set_to_none=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn(x)
    out.square().mean().backward()
    grads = [p.grad.clone() for p in model.parameters()]
    return len(seen), sum(seen.values()), grads


print(f"torch._functorch.config.activation_memory_budget = {functorch_config.activation_memory_budget}"
      " (the default: no budget, the partitioner optimises for speed)")
results = {"eager": saved(model)}
results["eager + torch.utils.checkpoint"] = saved(lambda t: checkpoint(model, t, use_reentrant=False))
results["compiled (default)"] = saved(torch.compile(model))
torch._dynamo.reset()
with functorch_config.patch(activation_memory_budget=0.0):  # opt in: recompute what can be recomputed
    results["compiled, activation_memory_budget=0.0"] = saved(torch.compile(model))

for name, (count, nbytes, _) in results.items():
    print(f"{name:>40}: {count:2d} activations saved for backward, {nbytes / 2**20:.1f} MiB")
for name, (_, _, grads) in results.items():  # same gradients, whatever was saved or recomputed
    for g, ref in zip(grads, results["eager"][2]):
        torch.testing.assert_close(g, ref, rtol=1e-4, atol=1e-5)
assert results["compiled (default)"][1] < results["eager"][1]
