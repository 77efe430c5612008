"""A loop whose trip count depends on tensor values: graph break, vectorised, torch.while_loop."""
import torch


def halve_python(x):
    # The loop condition reads a tensor value: Dynamo cannot trace past it.
    while x.abs().max() > 1:
        x = x / 2
    return x


def halve_vectorised(x):
    # Same result without a data-dependent branch: compute the number of halvings directly.
    k = torch.ceil(torch.log2(x.abs().max())).clamp(min=0)
    return x / 2**k


def halve_while_loop(x):
    # torch.while_loop (prototype) keeps the loop itself in the graph.
    return torch.while_loop(lambda t: t.abs().max() > 1, lambda t: (t / 2,), (x,))[0]


def fixed_steps(x):
    for _ in range(3):  # trip count is a Python constant: Dynamo unrolls it, no break
        x = torch.tanh(x) * 2
    return x


x = torch.randn(256) * 37
for fn in (halve_python, halve_vectorised, halve_while_loop, fixed_steps):
    report = torch._dynamo.explain(fn)(x)
    print(f"{fn.__name__:<18} graphs={report.graph_count}, graph breaks={report.graph_break_count}")
    if fn is halve_python:
        python_breaks = report.graph_break_count
        print("  break reason:", report.break_reasons[0].reason.strip().splitlines()[0])

expected = halve_python(x)
for fn in (halve_vectorised, halve_while_loop):
    torch._dynamo.reset()
    compiled = torch.compile(fn, fullgraph=True)  # fullgraph=True: no break allowed
    for sample in (x, x / 1000):  # many halvings, and none
        torch.testing.assert_close(compiled(sample), halve_python(sample), rtol=0, atol=0)
    print(f"{fn.__name__}: compiles with fullgraph=True, equals the Python loop exactly")
torch.testing.assert_close(torch.compile(fixed_steps)(x), fixed_steps(x))
assert python_breaks >= 1
