"""Fix: one dynamic graph (`dynamic=True` or `mark_dynamic`), or a few static ones (padding to buckets)."""
import torch
import torch.nn.functional as F
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
LENGTHS = (8, 12, 16, 20, 24)
BUCKET = 16  # pad every sequence up to a multiple of this


class TokenMLP(torch.nn.Module):  # the symptom's model: each position is computed independently
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))

    def forward(self, x):  # x: (batch, seq_len, 32)
        return self.net(x)


def pad_to_bucket(x):
    seq_len = x.shape[1]
    padded_len = -(-seq_len // BUCKET) * BUCKET  # round up
    return F.pad(x, (0, 0, 0, padded_len - seq_len))  # zeros at the end of dim 1


def graphs_compiled(prepare, **compile_kwargs):
    """Run every length through a fresh compile; assert outputs equal eager; return the graph count."""
    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(model, **compile_kwargs)
    for seq_len in LENGTHS:
        x = torch.randn(4, seq_len, 32, device=DEVICE)
        out = compiled(prepare(x))[:, :seq_len]  # padding: drop the padded positions
        torch.testing.assert_close(out, model(x))
    return counters["stats"]["unique_graphs"]


def mark(x):
    torch._dynamo.mark_dynamic(x, 1)  # dim 1 (seq_len) is dynamic from the first compile
    return x


model = TokenMLP().to(DEVICE)
torch.set_grad_enabled(False)  # inference, as in the symptom
counts = {
    "default (automatic dynamic)": graphs_compiled(lambda x: x),
    "dynamic=True": graphs_compiled(lambda x: x, dynamic=True),
    "mark_dynamic(x, 1)": graphs_compiled(mark),
    f"pad to multiples of {BUCKET}, dynamic=False": graphs_compiled(pad_to_bucket, dynamic=False),
}
buckets = {-(-n // BUCKET) for n in LENGTHS}
print(f"sequence lengths: {LENGTHS}")
for name, count in counts.items():
    print(f"{name:>38}: {count} graph{'s' if count > 1 else ''}")

assert counts["dynamic=True"] == 1 and counts["mark_dynamic(x, 1)"] == 1
assert counts[f"pad to multiples of {BUCKET}, dynamic=False"] == len(buckets)
assert counts["default (automatic dynamic)"] == 2
