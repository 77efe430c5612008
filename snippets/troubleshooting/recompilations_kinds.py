"""Which changing numbers recompile once and which recompile on every new value: count the graphs."""
import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
VALUES = (2, 3, 4, 5, 6)  # five distinct values, fewer than recompile_limit
SCALE = 1  # a module-level global read inside a compiled function


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 1  # a plain Python number on the module

    def forward(self, x):
        return x * self.scale


def times_argument(x, scale):
    return x * scale


def times_global(x):
    return x * SCALE


def double(x):
    return x * 2


def set_global(value):
    global SCALE
    SCALE = value


x = torch.randn(4, 8, device=DEVICE)
module = Scaled().to(DEVICE)
KINDS = {  # what changes: (the function compiled, how one call sets value v and calls it)
    "int argument": (times_argument, lambda fn, v: fn(x, v)),
    "float argument": (times_argument, lambda fn, v: fn(x, v + 0.5)),
    "int global": (times_global, lambda fn, v: (set_global(v), fn(x))),
    "float global": (times_global, lambda fn, v: (set_global(v + 0.5), fn(x))),
    "int module attribute": (module, lambda fn, v: (setattr(module, "scale", v), fn(x))),
    "float module attribute": (module, lambda fn, v: (setattr(module, "scale", v + 0.5), fn(x))),
    "tensor size (dim 0)": (double, lambda fn, v: fn(torch.randn(v, 8, device=DEVICE))),
}


def graphs_after_each_call(fn, call, **compile_kwargs):
    """Compile fn afresh and call it once per value; return the graph count after each call."""
    torch._dynamo.reset()
    counters.clear()
    # Guards and recompiles are Dynamo's, decided before any backend runs: Inductor gives the
    # same counts, only slower, so the "eager" backend keeps this table quick.
    compiled = torch.compile(fn, backend="eager", **compile_kwargs)
    counts = []
    for v in VALUES:
        call(compiled, v)
        counts.append(counters["stats"]["unique_graphs"])
    return counts


print(f"{len(VALUES)} calls, each with a new value; graphs compiled after each call")
print(f"{'what changes':>24}  {'default':<16} dynamic=True")
rows = {}
for name, (fn, call) in KINDS.items():
    rows[name] = graphs_after_each_call(fn, call), graphs_after_each_call(fn, call, dynamic=True)
    print(f"{name:>24}  {str(rows[name][0]):<16} {rows[name][1]}")

once = [1] + [2] * (len(VALUES) - 1)  # specialised, one recompile to dynamic, then reused
every = list(range(1, len(VALUES) + 1))  # a new graph for every new value
for name, (default, dynamic) in rows.items():
    if name in ("int global", "int module attribute"):
        assert default == every and dynamic == every, (name, default, dynamic)
    else:
        assert default == once and dynamic == [1] * len(VALUES), (name, default, dynamic)
