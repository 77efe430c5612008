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
# # 你的第一个 torch.compile
#
# *教程*。你将编译一个小模型，看看首次调用的代价，测量加速比，遇到一次图中断（graph break）并把它消除。本 notebook 在构建本站时执行过，所以下面的每一个数字，都是在第一段输出所列出的机器上测得的。

# %%
import logging
import platform
import time

import torch
from torch import nn

# 在没有 GPU 的机器上，CUDA 版的 torch 编译 C++ 时会记录一条无害的提示。
logging.getLogger("torch.utils.cpp_extension").setLevel(logging.ERROR)

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
print(f"torch {torch.__version__} on {DEVICE}, {torch.get_num_threads()} CPU threads, "
      f"Python {platform.python_version()}")

# %% [markdown]
# ## 1. 一个模型及其 eager 基线
#
# 一个小型残差块：层归一化（layer norm）、一个投影、GELU 的 tanh 近似（像 GPT-2 那样逐项写出）以及一个跳跃连接。它的大部分工作是逐元素运算：在 eager 模式下，其中每个操作都要单独遍历一遍内存。

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
model(x)  # 预热
eager_s = timed(model)
print(f"eager: {eager_s * 1e3:.2f} ms per call")

# %% [markdown]
# ## 2. 编译它，并为首次调用付出代价
#
# `torch.compile` 会立即返回；编译器在首次调用时才运行。

# %%
compiled = torch.compile(model)

t0 = time.perf_counter()
out = compiled(x)
first_call_s = time.perf_counter() - t0
print(f"first compiled call: {first_call_s:.1f} s (tracing + code generation + one run)")

torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
print("compiled output matches eager")

# %% [markdown]
# ## 3. 稳态
#
# 之后的调用复用已生成的代码。Inductor 把块末尾的逐元素运算融合成了一个循环，因此张量进出内存的次数少得多。（以大型矩阵乘法为主的模型收益较小：无论是否编译，矩阵乘法都在同一个厂商库中运行。）

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
# ## 4. 一次图中断
#
# 对张量的值做 Python `if` 判断是无法追踪的：Dynamo 会把函数拆成两个图，并在 Python 中运行这个 `if`。`torch._dynamo.explain` 会统计图的数量并说明原因。

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
# ## 5. 用 torch.cond 修复
#
# `torch.cond` 把两个分支都保留在同一个图中；选择哪个分支，在图运行时才决定。

# %%
def gate_cond(x):
    h = torch.relu(x) * 2
    return torch.cond(h.mean() > 0.5, torch.sin, torch.cos, (h,))


report = torch._dynamo.explain(gate_cond)(x)
print(f"graphs: {report.graph_count}, graph breaks: {report.graph_break_count}")
torch.testing.assert_close(torch.compile(gate_cond, fullgraph=True)(x), gate(x))
print("one graph, same result as eager")

# %% [markdown]
# ## 小结
#
# - 编译发生在首次调用时，要花上几秒；只有当每次调用都变快、并且模型要运行很多次时，这笔开销才能赚回来。
# - 始终对照 eager 模式检查编译后的输出，并单独测量稳态的耗时。
# - 图中断会把工作拆分成多个图；`explain` 能找到它们，`torch.cond` 能消除数据相关的分支。
#
# 下一步：[`torch.compile` 的工作原理](../explanation/how-compile-works.md)，以及[对比 eager 与编译的性能](../how-to/benchmark-correctly.md)。
