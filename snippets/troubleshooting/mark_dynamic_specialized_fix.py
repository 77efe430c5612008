"""Fix: `maybe_mark_dynamic` (no error, a graph per length), or keep the loop out of the graph."""
import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
HIDDEN = 16
LENGTHS = (6, 9, 12, 5, 7)  # sequence lengths, one call each
ROWS = (8, 12, 20)  # row counts for the torch._check functions


class Recurrent(torch.nn.Module):  # the symptom's model
    def __init__(self):
        super().__init__()
        self.cell = torch.nn.RNNCell(8, HIDDEN)

    def forward(self, x):  # x: (batch, seq_len, 8)
        h = x.new_zeros(x.shape[0], HIDDEN)
        for t in range(x.shape[1]):
            h = self.cell(x[:, t], h)
        return h


def run_loop(step, x):  # the same loop, in plain Python around a compiled step
    h = x.new_zeros(x.shape[0], HIDDEN)
    for x_t in x.transpose(0, 1).contiguous():  # time-major: every step's input has the same strides
        h = step(x_t, h)
    return h


def graphs(fn, inputs, mark=None):
    """Call a fresh compile of `fn` on each input (marked first); assert it equals eager; count graphs."""
    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(fn, backend="eager")  # Dynamo decides the graphs, whatever the backend
    for x in inputs:
        if mark:
            mark(x)
        torch.testing.assert_close(compiled(x), fn(x))
    return counters["stats"]["unique_graphs"]


def scale_at_least_two_rows(x):  # fix 3: check a range, not `x.shape[0] == 8` as in the symptom
    torch._check(x.shape[0] >= 2, lambda: "needs at least 2 rows")
    return x * 2


torch.manual_seed(0)
torch.set_grad_enabled(False)  # inference, as in the symptom
model = Recurrent().to(DEVICE)
sequences = [torch.randn(4, n, 8, device=DEVICE) for n in LENGTHS]
maybe = graphs(model, sequences, mark=lambda x: torch._dynamo.maybe_mark_dynamic(x, 1))
unmarked = graphs(model, sequences)

torch._dynamo.reset()
counters.clear()
step = torch.compile(model.cell, backend="eager")  # fix 2: the graph holds one time step, not the loop
for x in sequences:
    torch.testing.assert_close(run_loop(step, x), model(x))
stepped = counters["stats"]["unique_graphs"]

rows = [torch.randn(n, 3, device=DEVICE) for n in ROWS]
ranged = graphs(scale_at_least_two_rows, rows, mark=lambda x: torch._dynamo.mark_dynamic(x, 0))

print(f"sequence lengths {LENGTHS}:")
print(f"  fix 1, maybe_mark_dynamic(x, 1):        {maybe} graphs, no error (no mark at all: {unmarked})")
print(f"  fix 2, compile the step, loop in Python: {stepped} graph")
print(f"row counts {ROWS}, mark_dynamic(x, 0):")
print(f"  fix 3, torch._check(x.shape[0] >= 2):    {ranged} graph")
assert maybe == unmarked == len(LENGTHS)  # every length is a new constant, so a new graph
assert stepped == 1 and ranged == 1
