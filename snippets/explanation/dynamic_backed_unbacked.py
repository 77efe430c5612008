"""`mark_dynamic` (backed) vs `mark_unbacked`: the guards each compiled version carries, and what a branch on the size does."""
import contextlib
import io
import logging

import torch
from torch._dynamo.decorators import mark_unbacked
from torch._dynamo.utils import counters

SIZES = (8, 16, 2, 1, 0)


class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def total(x):  # no branch on the size
    return (x * 2).sum(0)


def branchy(x):  # a Python branch on the size
    return x * 2 if x.shape[0] > 4 else x + 1


def graphs_per_call(fn, mark):
    """Compile fn afresh; mark dim 0 of every input; return the graph count after each call."""
    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(fn, backend="eager")  # guards are Dynamo's: the backend does not matter
    counts = []
    for n in SIZES:
        x = torch.randn(n, 3)
        mark(x, 0)  # the mark lives on the tensor, so mark each input
        torch.testing.assert_close(compiled(x), fn(x))
        counts.append(counters["stats"]["unique_graphs"])
    return counts


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(guards=True)
rows = {}
for name, mark in (("mark_dynamic", torch._dynamo.mark_dynamic), ("mark_unbacked", mark_unbacked)):
    capture.messages.clear()
    rows[name] = graphs_per_call(total, mark), graphs_per_call(branchy, mark)
    size_guards = sorted({line.split("+- LAMBDA_GUARD: ")[1].split("  #")[0] for m in capture.messages
                          for line in m.splitlines() if "LAMBDA_GUARD: " in line and "size()" in line})
    print(f"{name}: sizes {SIZES}")
    print(f"  no branch:   graphs after each call {rows[name][0]}")
    print(f"  size branch: graphs after each call {rows[name][1]}")
    print(f"  size guards on the versions compiled: {size_guards}")
torch._logging.set_logs()

x = torch.randn(8, 3)
mark_unbacked(x, 0)
torch._dynamo.reset()
with contextlib.redirect_stdout(io.StringIO()):
    report = torch._dynamo.explain(branchy)(x)
print(f"unbacked + size branch, fullgraph=False: graphs={report.graph_count},"
      f" breaks={report.graph_break_count} ({report.break_reasons[0].reason.splitlines()[0]})")
try:
    torch._dynamo.reset()
    torch.compile(branchy, backend="eager", fullgraph=True)(x)
except torch._dynamo.exc.UserError as err:
    error = str(err).split("Could not guard", 1)[1].split("(")[0].strip()
    print(f"unbacked + size branch, fullgraph=True: UserError: Could not guard {error}")
else:
    raise AssertionError("fullgraph=True branched on an unbacked size")

assert rows["mark_dynamic"][0] == [1, 1, 1, 2, 3]  # sizes 1 and 0 each get a specialised version
assert rows["mark_unbacked"][0] == [1, 1, 1, 1, 1]  # one version for every size, 0 and 1 included
assert rows["mark_dynamic"][1] == [1, 1, 2, 3, 4]  # the branch adds a guard: the other side recompiles
assert rows["mark_unbacked"][1] == [2, 2, 3, 3, 3]  # a break, one resume graph per side, no guards
assert report.graph_break_count == 1 and "u0 > 4" in error
