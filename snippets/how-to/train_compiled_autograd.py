"""Compiled Autograd: the backward traced at run time into a graph of its own, its hooks included."""
import torch
import torch._dynamo.compiled_autograd
from torch import nn
from torch._dynamo.utils import counters

STEPS = 3
x = torch.randn(32, 16, generator=torch.Generator().manual_seed(1))


def make():
    torch.manual_seed(0)  # the same weights for every run
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    model[0].weight.register_hook(lambda grad: grad * 0.5)  # a backward hook on a parameter's gradient
    return model


def train(model, x):  # forward and backward in one function, compiled as a whole below
    loss = model(x).square().mean()
    loss.backward()
    return loss


def run(compiled_autograd):
    torch._dynamo.reset()
    counters.clear()
    graphs = []

    def inductor_and_keep(gm, example_inputs):  # every graph Dynamo hands to the backend
        graphs.append(gm)
        return torch._inductor.compile(gm, example_inputs)

    model = make()
    # torch.compile() reads the flag when it is called: set it before, and call backward() inside
    with torch._dynamo.config.patch(compiled_autograd=compiled_autograd):
        step = torch.compile(train, backend=inductor_and_keep)
    for _ in range(STEPS):
        model.zero_grad(set_to_none=True)
        step(model, x)
    return model, graphs


print("torch._dynamo.compiled_autograd.enable exists:", hasattr(torch._dynamo.compiled_autograd, "enable"))
expected = make()
train(expected, x)  # eager
results = {}
for flag in (False, True):
    model, graphs = run(flag)
    results[flag] = graphs, dict(counters["compiled_autograd"])
    print(f"compiled_autograd={flag}: {len(graphs)} graphs; backward graphs captured: "
          f"{counters['compiled_autograd']['captures']}; graph break: {[r.splitlines()[0] for r in counters['graph_break']]}")
    for i, gm in enumerate(graphs):
        calls = [n for n in gm.graph.nodes if n.op == "call_function"]
        accumulate = sum("AccumulateGrad" in str(n.target) for n in calls)
        hook = [line.strip() for line in gm.code.splitlines() if "* 0.5" in line]
        print(f"  graph {i}: {len(calls)} calls, {accumulate} AccumulateGrad, the hook's line: {hook or 'none'}")
    for p, ref in zip(model.parameters(), expected.parameters()):
        torch.testing.assert_close(p.grad, ref.grad)  # the same gradients, hook included, as eager

torch._dynamo.reset()
counters.clear()
with torch._dynamo.config.patch(compiled_autograd=True):
    forward_only = torch.compile(lambda model, x: model(x).square().mean())
forward_only(make(), x).backward()  # backward() after the compiled function has returned
print(f"compiled_autograd=True, backward() outside the compiled function: backward graphs captured: "
      f"{counters['compiled_autograd']['captures']}")
assert counters["compiled_autograd"]["captures"] == 0

graphs, captured = results[True]
assert not hasattr(torch._dynamo.compiled_autograd, "enable")  # 2.15: the config flag, not enable()
assert results[False][1].get("captures", 0) == 0 and captured["captures"] == 1  # one capture, reused
backward = graphs[-1]
assert sum("AccumulateGrad" in str(n.target) for n in backward.graph.nodes) == len(list(expected.parameters()))
assert any("* 0.5" in line for line in backward.code.splitlines())  # the hook, traced into the backward
