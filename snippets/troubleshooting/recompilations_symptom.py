"""Symptom: an int attribute that changes every call recompiles until `recompile_limit`, then runs eager."""
# expects: ^torch\._dynamo hit config\.recompile_limit \(\d+\)$
import logging

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class Capture(logging.Handler):
    """Keep Dynamo's log records (they go to stderr by default) to print them below."""

    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(record)


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 16)
        self.calls = 0  # a Python int that changes on every call

    def forward(self, x):
        self.calls += 1
        return self.lin(x) / self.calls


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(recompiles=True)  # the same as TORCH_LOGS=recompiles

model = torch.compile(Scaled().to(DEVICE))
x = torch.randn(4, 16, device=DEVICE)
calls = torch._dynamo.config.recompile_limit + 2
with torch.no_grad():
    for _ in range(calls):
        model(x)

hit = [r for r in capture.records if "recompile_limit" in r.getMessage()]
reasons = [r for r in capture.records if r.name.endswith("__recompiles")]
if not hit:
    raise AssertionError("no recompile-limit warning: the symptom is gone in this torch")
print(hit[0].getMessage(), end="\n\n")  # a WARNING: printed on stderr even without TORCH_LOGS
print("The first of the recompilation reasons logged by TORCH_LOGS=recompiles:")
print(reasons[0].getMessage(), end="\n\n")
print(f"torch._dynamo.config.recompile_limit = {torch._dynamo.config.recompile_limit}")
print(f"calls: {calls}, graphs compiled: {counters['stats']['unique_graphs']}, "
      f"guard failures logged: {len(reasons)}; the calls after the limit ran eager")
assert counters["stats"]["unique_graphs"] == torch._dynamo.config.recompile_limit
assert "self.calls" in reasons[0].getMessage()
