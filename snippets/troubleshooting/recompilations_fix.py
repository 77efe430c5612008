"""Fix: keep a changing number in a tensor, or let Dynamo treat it as dynamic; count the graphs."""
import copy

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
CALLS = 10


class Scaled(torch.nn.Module):  # the symptom's module: a Python int attribute
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 16)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return self.lin(x) / self.calls


class ScaledBuffer(Scaled):  # fix 1: the counter is a tensor (a buffer), updated in place
    def __init__(self):
        super().__init__()
        del self.calls
        self.register_buffer("calls", torch.zeros((), dtype=torch.long))


def graphs_compiled(model, **compile_kwargs):
    """Call the compiled model CALLS times beside an eager copy; return Dynamo's graph count."""
    torch._dynamo.reset()
    counters.clear()
    eager = copy.deepcopy(model)
    compiled = torch.compile(model, **compile_kwargs)
    for _ in range(CALLS):
        x = torch.randn(4, 16, device=DEVICE)
        torch.testing.assert_close(compiled(x), eager(x))
    return counters["stats"]["unique_graphs"]


torch.manual_seed(0)
torch.set_grad_enabled(False)  # inference, as in the symptom
buffer = graphs_compiled(ScaledBuffer().to(DEVICE))
print(f"fix 1, counter in a tensor buffer: {buffer} graph for {CALLS} calls")

# fix 2: let int attributes of modules become dynamic (a recompile, then one dynamic graph)
with torch._dynamo.config.patch(allow_unspec_int_on_nn_module=True):
    unspec = graphs_compiled(Scaled().to(DEVICE))
print(f"fix 2, allow_unspec_int_on_nn_module=True: {unspec} graphs for {CALLS} calls")


def scale(x, factor):  # a plain Python number passed as an argument
    return x * factor


def count_scalar_args(**compile_kwargs):
    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(scale, **compile_kwargs)
    x = torch.randn(4, 16, device=DEVICE)
    for i in range(CALLS):
        torch.testing.assert_close(compiled(x, 0.5 + i), scale(x, 0.5 + i))
    return counters["stats"]["unique_graphs"]


default_args, dynamic_args = count_scalar_args(), count_scalar_args(dynamic=True)
print(f"a float argument, default: {default_args} graphs (one recompile makes it dynamic)")
print(f"fix 3, a float argument with dynamic=True: {dynamic_args} graph")

assert buffer == 1 and dynamic_args == 1  # no recompile at all
assert unspec == 2 and default_args == 2  # one recompile, then one dynamic graph for every value
