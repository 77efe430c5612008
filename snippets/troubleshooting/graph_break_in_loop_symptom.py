"""Symptom: one graph break inside a loop, a `try` or a `with` block sends the whole function to eager."""
# expects: ^Graph Break Reason: Failed to handle graph break gracefully\. Skipping the function and falling back
import contextlib
import io
import logging
from logging.handlers import BufferingHandler

import torch
from torch._dynamo.testing import CompileCounter


def in_loop(x):
    x = x.sin()
    for step in range(3):
        x = x * 2
        print("step", step)  # a graph break inside the loop
    return x.cos()


def in_try(x):
    x = x.sin()
    try:
        x = x * 2
        print("scaled")  # the same break inside a try block
    except ValueError:
        pass
    return x.cos()


class Section:  # a context manager of your own: a timer, a profiler range, a lock
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def in_section(x):
    x = x.sin()
    with Section():
        x = x * 2
        print("scaled")  # the same break inside it
    return x.cos()


def in_no_grad(x):
    x = x.sin()
    with torch.no_grad():  # a context manager Dynamo knows: it can resume after the break
        x = x * 2
        print("scaled")
    return x.cos()


def flat(x):  # the same break outside any block: the function is split, not dropped
    x = x.sin() * 2
    print("scaled")
    return x.cos()


capture = BufferingHandler(capacity=100_000)  # keeps Dynamo's log records (stderr by default)
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(graph_breaks=True)  # the same as TORCH_LOGS=graph_breaks

x, counts = torch.randn(8), {}
for fn in (in_loop, in_try, in_section, in_no_grad, flat):
    counter = CompileCounter()  # a backend that counts the graphs Dynamo hands it, and their operations
    with contextlib.redirect_stdout(io.StringIO()):  # the functions' own prints
        torch.compile(fn, backend=counter)(x)
    counts[fn.__name__] = (counter.frame_count, counter.op_count)

logged = [r.getMessage() for r in capture.buffer if r.name.endswith("__graph_breaks")]
skipped = [m for m in logged if "Failed to handle graph break gracefully" in m]
assert skipped, "no function fell back to eager: the symptom is gone in this torch"
print(next(ln for ln in skipped[0].splitlines() if ln.startswith("Graph Break Reason:")), end="\n\n")
print(skipped[0], end="\n\n")  # the whole log record of the loop, as TORCH_LOGS=graph_breaks prints it
for name, (graphs, ops) in counts.items():
    print(f"{name:>10}: graphs compiled {graphs}, operations in them {ops}")

assert counts["in_loop"] == counts["in_try"] == counts["in_section"] == (0, 0) and len(skipped) == 3
assert counts["flat"][0] == counts["in_no_grad"][0] == 2
