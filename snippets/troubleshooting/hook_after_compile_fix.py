"""Fix: register hooks before the first compiled call, reset after adding one, or let Dynamo guard on hooks."""
import torch
from torch import nn
from torch._dynamo.utils import counters

CALLS = 2
ran = torch.zeros((), dtype=torch.int64)  # counts the hook's calls, inside compiled code too


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def halve(module, args, output):  # the symptom's hook: it changes fc1's output
    ran.add_(1)
    return output * 0.5


def check(name, model, compiled, x):
    """CALLS compiled calls: the hook must run in each, and the output must be eager's with the hook."""
    ran.zero_()
    for _ in range(CALLS):
        out = compiled(x)
    runs, graphs = int(ran), counters["stats"]["unique_graphs"]
    torch.testing.assert_close(out, model(x))  # model(x): eager, hook included
    print(f"{name}: the hook ran {runs} times in {CALLS} calls; compiled equals eager; graphs: {graphs}")
    assert runs == CALLS
    counters.clear()
    torch.compiler.reset()  # the next fix starts from nothing compiled: instances share Net.forward's code
    return graphs


torch.manual_seed(0)
x = torch.randn(8, 16)

# Fix 1: register every hook before the first compiled call (and keep it registered).
model = Net()
model.fc1.register_forward_hook(halve)
check("fix 1, hook registered before the first call", model, torch.compile(model), x)

# Fix 2: a hook added later: drop the compiled code, so that the next call traces again, hook included.
model = Net()
compiled = torch.compile(model)
compiled(x)
model.fc1.register_forward_hook(halve)
torch.compiler.reset()  # every compiled function of the process compiles again at its next call
check("fix 2, torch.compiler.reset() after adding it", model, compiled, x)

# Fix 3: let Dynamo guard on hooks (set before the first compile): adding a hook recompiles.
torch._dynamo.config.skip_nnmodule_hook_guards = False
model = Net()
compiled = torch.compile(model)
compiled(x)
model.fc1.register_forward_hook(halve)
assert check("fix 3, skip_nnmodule_hook_guards = False", model, compiled, x) == 2  # the hook's recompile
