"""Symptom: a new sequence length recompiles; the second one compiles a dynamic graph; length 1 recompiles."""
# expects: ^- \d+/\d+: tensor '\w+' size mismatch at index \d+\. expected \d+, actual \d+$
import logging
import time

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
LENGTHS = (8, 12, 16, 20, 24, 1)


class Capture(logging.Handler):
    """Keep the `recompiles` log records (they go to stderr by default) to print them below."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.name.endswith("__recompiles"):
            self.messages.append(record.getMessage())


class TokenMLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))

    def forward(self, x):  # x: (batch, seq_len, 32)
        return self.net(x)


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(recompiles=True)  # the same as TORCH_LOGS=recompiles

model = TokenMLP().to(DEVICE)
compiled = torch.compile(model)
calls = []
torch.set_grad_enabled(False)  # inference
for seq_len in LENGTHS:
    x = torch.randn(4, seq_len, 32, device=DEVICE)
    t0 = time.perf_counter()
    out = compiled(x)
    if DEVICE == "cuda":
        torch.cuda.synchronize()
    calls.append((seq_len, time.perf_counter() - t0, counters["stats"]["unique_graphs"]))
    torch.testing.assert_close(out, model(x))

if capture.messages:  # first the guard that failed: the line that tells this recompile apart
    print(next(ln.strip() for ln in capture.messages[0].splitlines() if "mismatch" in ln), end="\n\n")
for message in capture.messages:
    print(message, end="\n\n")
for seq_len, seconds, graphs in calls:
    print(f"seq_len {seq_len:>2}: {seconds * 1e3:9.1f} ms, graphs compiled so far: {graphs}")
if len(capture.messages) < 2:
    raise AssertionError("no recompilation: the symptom is gone in this torch")
assert "size mismatch at index 1" in capture.messages[0]
