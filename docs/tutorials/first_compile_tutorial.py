# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Your first torch.compile
#
# *Tutorial.* You will compile a small model, see what the first call costs, measure
# the speedup, meet a graph break and remove it. This notebook was executed when this site was
# built, so every number below was measured on the machine named in the first output.

# %%
import logging
import platform
import time

import torch
from torch import nn

# A CUDA build of torch on a machine without a GPU logs a harmless notice when it compiles C++.
logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
print(f"torch {torch.__version__} on {DEVICE}, {torch.get_num_threads()} CPU threads, "
      f"Python {platform.python_version()}")

# %% [markdown]
# ## 1. A model and its eager baseline
#
# A small residual block: layer norm, a projection, the tanh approximation of GELU (written out, as
# in GPT-2) and a skip connection. Most of its work is element-wise: in eager mode each of those
# operations is a separate pass over memory.

# %%
class Block(nn.Module):
    def __init__(self, width=64):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        h = self.proj(self.norm(x))
        h = 0.5 * h * (1.0 + torch.tanh(0.7978845608 * (h + 0.044715 * h**3)))
        return x + h


torch.manual_seed(0)
model = Block().to(DEVICE).eval()
x = torch.randn(16384, 64, device=DEVICE)


def timed(fn, repeat=20):
    """Median seconds per call of fn(x), synchronising on a GPU."""
    times = []
    for _ in range(repeat):
        if DEVICE == "cuda":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn(x)
        if DEVICE == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2]


torch.set_grad_enabled(False)
model(x)  # warm-up
eager_s = timed(model)
print(f"eager: {eager_s * 1e3:.2f} ms per call")

# %% [markdown]
# ## 2. Compile it, and pay for the first call
#
# `torch.compile` returns at once; the compiler runs on the first call.

# %%
compiled = torch.compile(model)

t0 = time.perf_counter()
out = compiled(x)
first_call_s = time.perf_counter() - t0
print(f"first compiled call: {first_call_s:.1f} s (tracing + code generation + one run)")

torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
print("compiled output matches eager")

# %% [markdown]
# ## 3. The steady state
#
# Later calls reuse the generated code. Inductor fused the element-wise tail of the block into one
# loop, so the tensor crosses memory far fewer times. (A model dominated by large matrix
# multiplications gains less: those run in the same vendor library either way.)

# %%
compiled_s = timed(compiled)
print(f"eager:    {eager_s * 1e3:.2f} ms per call")
print(f"compiled: {compiled_s * 1e3:.2f} ms per call")
print(f"speedup:  {eager_s / compiled_s:.2f}x")
if compiled_s < eager_s:
    print(f"break-even after {first_call_s / (eager_s - compiled_s):,.0f} calls")
else:
    print("no gain per call here, so the compile time is never repaid for this model on this machine")

# %% [markdown]
# ## 4. A graph break
#
# A Python `if` on a tensor's value cannot be traced: Dynamo splits the function into two graphs
# and runs the `if` in Python. `torch._dynamo.explain` counts the graphs and says why.

# %%
def gate(x):
    h = torch.relu(x) * 2
    if h.mean() > 0.5:
        return torch.sin(h)
    return torch.cos(h)


report = torch._dynamo.explain(gate)(x)
print(f"graphs: {report.graph_count}, graph breaks: {report.graph_break_count}")
print("reason:", report.break_reasons[0].reason.strip().splitlines()[0])

# %% [markdown]
# ## 5. Fix it with torch.cond
#
# `torch.cond` keeps both branches inside one graph; the choice is made when the graph runs.

# %%
def gate_cond(x):
    h = torch.relu(x) * 2
    return torch.cond(h.mean() > 0.5, torch.sin, torch.cos, (h,))


report = torch._dynamo.explain(gate_cond)(x)
print(f"graphs: {report.graph_count}, graph breaks: {report.graph_break_count}")
torch.testing.assert_close(torch.compile(gate_cond, fullgraph=True)(x), gate(x))
print("one graph, same result as eager")

# %% [markdown]
# ## What you saw
#
# - Compilation happens on the first call and costs seconds; it is repaid only when each call gets
#   faster and the model runs many times.
# - Always check the compiled output against eager, and time the steady state separately.
# - Graph breaks split the work into several graphs; `explain` finds them, `torch.cond` removes a
#   data-dependent branch.
#
# Next: [how `torch.compile` works](../explanation/how-compile-works.md) and
# [benchmark eager vs compiled correctly](../how-to/benchmark-correctly.md).
