"""Symptom: a hook registered on a submodule after the first compiled call is ignored, and nothing says so."""
# expects: ^forward hook registered after the first compiled call ran \d+ times in \d+ calls \(eager: \d+\)$
import torch
from torch import nn
from torch._dynamo.utils import counters

CALLS = 2
ran = torch.zeros((), dtype=torch.int64)  # a tensor counter: the hooks' only side effect besides their output


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def halve(module, args, output):  # a forward hook that changes fc1's output (a mask, a probe, a scale)
    ran.add_(1)
    return output * 0.5


def count(*args):  # a hook of any kind that only counts its calls
    ran.add_(1)


def hook_runs(model, call, register, backward=False):
    """How many of CALLS calls ran the hook that `register` adds after the model's first call."""
    x = torch.randn(8, 16, requires_grad=backward)
    call(x)  # the first call: for a compiled model, Dynamo traces and compiles here
    register(model.fc1)
    ran.zero_()
    for _ in range(CALLS):
        out = call(x)
        if backward:
            out.sum().backward()
    return int(ran)


torch.manual_seed(0)
model = Net()
compiled = torch.compile(model)
compiled_runs = hook_runs(model, compiled, lambda m: m.register_forward_hook(halve))
eager = Net()
eager_runs = hook_runs(eager, eager, lambda m: m.register_forward_hook(halve))
print(f"forward hook registered after the first compiled call ran {compiled_runs} times in {CALLS} calls "
      f"(eager: {eager_runs})")

x = torch.randn(8, 16)
same = torch.allclose(compiled(x), model(x))  # model(x) is eager: it runs the hook
print(f"compiled output equals eager output with the hook: {same}")
graphs = counters["stats"]["unique_graphs"]
print(f"graphs compiled: {graphs} (no recompilation after the hook was added); "
      f"torch._dynamo.config.skip_nnmodule_hook_guards = {torch._dynamo.config.skip_nnmodule_hook_guards}")
ran.zero_()
with torch.no_grad():  # grad mode is guarded: this call recompiles, for a reason unrelated to the hook
    compiled(x)
late = int(ran)
print(f"after a recompilation for another reason (a call under torch.no_grad()), the hook ran {late} time")

for kind in ("forward_pre", "full_backward"):
    torch.compiler.reset()
    fresh = Net()
    runs = hook_runs(fresh, torch.compile(fresh), lambda m: getattr(m, f"register_{kind}_hook")(count),
                     backward=kind == "full_backward")
    print(f"{kind} hook registered after the first compiled call ran {runs} times in {CALLS} calls")

torch.compiler.reset()
first, second = Net(), Net()  # two instances of one class share the code Dynamo compiled for Net.forward
torch.compile(first)(x)
second.fc1.register_forward_hook(halve)
ran.zero_()
torch.compile(second)(x)
print(f"a second Net whose hook was registered before its torch.compile: ran {int(ran)} times in 1 call")

assert compiled_runs == 0 and eager_runs == CALLS and not same, "the hook ran: the symptom is gone"
assert graphs == 1 and late == 1 and int(ran) == 0
