"""`dynamic=None / True / False` on the same calls: graphs after each call, and what the first graph takes."""
import torch
from torch._dynamo.utils import counters

CALLS = [(8, 2), (16, 2), (32, 3), (64, 4), (1, 4), (4, 0)]  # (len(x), k)
graphs = []


def keep_graph(gm, example_inputs):  # keeps each graph; guards are Dynamo's, so any backend agrees
    graphs.append(gm)
    return gm.forward


def scale(x, k):
    return x * k


def run(dynamic, **config):
    torch._dynamo.reset()  # forget earlier versions and the sizes seen so far
    counters.clear()
    graphs.clear()
    compiled = torch.compile(scale, backend=keep_graph, dynamic=dynamic)
    per_call = []
    for n, k in CALLS:
        x = torch.randn(n)
        with torch._dynamo.config.patch(**config):
            torch.testing.assert_close(compiled(x, k), scale(x, k))
        per_call.append(counters["stats"]["unique_graphs"])
    first = {n.name: n.meta["example_value"] for n in graphs[0].graph.nodes if n.op == "placeholder"}
    shown = ", ".join(f"{name}={tuple(v.shape) if isinstance(v, torch.Tensor) else v}"
                      for name, v in first.items())
    return per_call, shown


print("calls (len(x), k):", CALLS)
print(f"{'dynamic':>8}  {'graphs after each call':<24} first graph's inputs")
results = {}
for dynamic in (None, True, False):
    results[dynamic] = run(dynamic)
    per_call, shown = results[dynamic]
    print(f"{dynamic!s:>8}  {str(per_call):<24} {shown}")
# the same default, but automatic dynamic makes unbacked symbols (torch/_dynamo/config.py)
unbacked, _ = run(None, automatic_dynamic_shapes_mark_as="unbacked")
print(f"None, with automatic_dynamic_shapes_mark_as='unbacked': {unbacked}")

assert results[None][0] == [1, 2, 3, 3, 4, 4]  # static, then one recompile per changing value
assert results[True][0] == [1, 1, 1, 1, 2, 2]  # symbolic at once; size 1 still gets its own graph
assert results[False][0] == [1, 2, 3, 4, 5, 6]  # every new size or k recompiles
assert unbacked == [1, 2, 3, 3, 3, 3]  # unbacked: size 1 reuses the dynamic version
assert "l_k_" in results[True][1] and "l_k_" not in results[None][1]
