"""Which gradients the compiled backward gives: unused parameters, inputs without grad, double backward."""
import torch
import torch._functorch.config as functorch_config
import torch._inductor.config as inductor_config
from torch import nn
from torch._dynamo.utils import counters

# Compile afresh in every run: a backward loaded from the compile caches keeps the choices of the run
# that compiled it (explanation/backward_retain_graph.py shows one).
functorch_config.enable_autograd_cache = False
inductor_config.fx_graph_cache = False


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.used, self.unused = nn.Linear(8, 8), nn.Linear(8, 8)  # `unused` takes no part in forward

    def forward(self, x):
        return torch.tanh(self.used(x)).square().sum()


def make():
    torch.manual_seed(0)  # the same weights in every model
    return Net()


x = torch.randn(4, 8, generator=torch.Generator().manual_seed(1))
eager, model = make(), make()
compiled = torch.compile(model)
eager(x).backward()
compiled(x).backward()
print(f"unused parameter's .grad, eager: {eager.unused.weight.grad}, compiled: {model.unused.weight.grad}")
print(f"input without requires_grad, x.grad: {x.grad}; graphs so far: {counters['stats']['unique_graphs']}")
for p, ref in zip(model.parameters(), eager.parameters()):
    assert (p.grad is None) == (ref.grad is None)
    if ref.grad is not None:
        torch.testing.assert_close(p.grad, ref.grad)

x_eager, x_compiled = x.clone().requires_grad_(), x.clone().requires_grad_()  # now x asks for a gradient
eager(x_eager).backward()
compiled(x_compiled).backward()
print(f"the same x with requires_grad=True: graphs {counters['stats']['unique_graphs']}, "
      f"x.grad equal to eager's: {torch.allclose(x_compiled.grad, x_eager.grad, atol=1e-6)}")
torch.testing.assert_close(x_compiled.grad, x_eager.grad)

errors = {}
torch._dynamo.reset()  # compile again: this time the first backward asks for create_graph=True
for name, net in (("eager", make()), ("compiled", torch.compile(make()))):
    grads = torch.autograd.grad(net(x), list(net.used.parameters()), create_graph=True)
    print(f"{name}: autograd.grad(create_graph=True) gives grads with requires_grad={grads[0].requires_grad}")
    try:
        sum(g.square().sum() for g in grads).backward()  # a gradient penalty: backward of a backward
        print(f"  double backward ran; weight.grad set: {net.used.weight.grad is not None}")
    except RuntimeError as e:
        errors[name] = e
        print(f"  double backward: {type(e).__name__}: {e}")

assert model.unused.weight.grad is None and eager.unused.weight.grad is None and x.grad is None
assert counters["stats"]["unique_graphs"] >= 2  # the requires_grad change compiled a new graph
assert list(errors) == ["compiled"]
assert "does not currently support double backward" in str(errors["compiled"])
