"""Fix: find the break with `error_on_graph_break`, then move it out of the block, or compile the block's body."""
import contextlib
import io

import torch
from torch._dynamo.testing import CompileCounter

STEPS = 3


def in_loop(x):  # the symptom's function
    x = x.sin()
    for step in range(STEPS):
        x = x * 2
        print("step", step)
    return x.cos()


def quiet():
    return contextlib.redirect_stdout(io.StringIO())  # the functions' own prints


x = torch.randn(8)
with quiet():
    expected = in_loop(x)

# 1. Find it: error_on_graph_break(True) turns the break into an error naming the line, if Dynamo traces.
compiled = torch.compile(in_loop)
with quiet():
    compiled(x)  # the symptom: the frame is skipped, silently, and stays skipped
    with torch._dynamo.error_on_graph_break(True):
        compiled(x)  # no error: Dynamo does not trace a skipped frame again
print("error_on_graph_break(True) on a frame already skipped: no error")
torch.compiler.reset()  # forget the skip (and every compiled function of the process)
try:
    with quiet(), torch._dynamo.error_on_graph_break(True):
        compiled(x)
except torch._dynamo.exc.Unsupported as err:
    lines = [ln.strip() for ln in str(err).splitlines()]
    at = next(i for i, ln in enumerate(lines) if ln.startswith("File "))  # from user code: the line
    found = f"{type(err).__name__}: {lines[0]}, {lines[at]}: {lines[at + 1]}"
print(f"after torch.compiler.reset(): {found}")


# 2. Move the break out of the loop: what the loop printed, the caller prints after it.
def in_loop_moved(x):
    x = x.sin()
    for _ in range(STEPS):
        x = x * 2
    return x.cos()


counter = CompileCounter()
torch.testing.assert_close(torch.compile(in_loop_moved, backend=counter, fullgraph=True)(x), expected)
print(f"break moved out of the loop: graphs compiled {counter.frame_count} (fullgraph=True), equal to eager")


# 3. Or keep the loop as it is in Python, and compile its body: fullgraph=True makes a break there an error.
body_counter = CompileCounter()


@torch.compile(backend=body_counter, fullgraph=True)
def body(x):
    return x * 2


def in_loop_region(x):
    x = x.sin()
    for step in range(STEPS):
        x = body(x)
        print("step", step)
    return x.cos()


with quiet():
    torch.testing.assert_close(in_loop_region(x), expected)
print(f"loop body compiled as a region: graphs compiled {body_counter.frame_count}, "
      f"called once per step, equal to eager")

assert found.endswith('in in_loop: print("step", step)') and counter.frame_count == body_counter.frame_count == 1
