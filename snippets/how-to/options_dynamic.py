"""`dynamic=None / True / False`: how many compilations the same calls with changing sizes cost."""
import torch
import torch._dynamo
from torch._dynamo.testing import CompileCounterWithBackend


def f(x):
    return torch.relu(x) * x.shape[0]


sizes = [8, 16, 32, 64]
print(f"input sizes, called in order: {sizes}")
counts = {}
for dynamic in (None, True, False):
    torch._dynamo.reset()  # forget earlier compilations (and the sizes seen so far)
    counter = CompileCounterWithBackend("inductor")  # counts the graphs Dynamo hands to Inductor
    compiled = torch.compile(f, backend=counter, dynamic=dynamic)
    per_call = []
    for n in sizes:
        x = torch.randn(n)
        torch.testing.assert_close(compiled(x), f(x))
        per_call.append(counter.frame_count)
    counts[dynamic] = counter.frame_count
    print(f"dynamic={dynamic!s:<5}: {counter.frame_count} compilation(s); running total after each"
          f" call: {per_call}")

# None (the default): first call specialises on size 8, the first new size recompiles once with a
# symbolic size, and that graph serves every later size.
assert counts[True] == 1 and counts[False] == len(sizes) and counts[None] == 2, counts
