"""Which warm-up and serving modes share one compiled graph: every pair, and the guard that failed."""
import contextlib
import json
import logging

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
MODES = {"grad enabled": contextlib.nullcontext, "no_grad": torch.no_grad,
         "inference_mode": torch.inference_mode}


class Capture(logging.Handler):
    """Keep the `recompiles` log records (they go to stderr by default)."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        if record.name.endswith("__recompiles"):
            self.messages.append(record.getMessage())


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 16))

    def forward(self, x):
        return self.net(x)


def serve(warm_up_in, served_in, request_made_in=None):
    """Warm up in one mode, serve one request in another; return the graph count and the failed guard."""
    torch._dynamo.reset()
    counters.clear()
    capture.messages.clear()
    compiled = torch.compile(model, backend="eager")  # the guards are Dynamo's, whatever the backend
    with MODES[warm_up_in]():
        compiled(torch.randn(4, 16, device=DEVICE))  # its input is made inside the warm-up block
    with MODES[request_made_in or served_in]():
        request = torch.randn(4, 16, device=DEVICE)  # made under inference_mode: an inference tensor
    with MODES[served_in]():
        torch.testing.assert_close(compiled(request), model(request))
    failed = capture.messages[0].splitlines()[2].split(": ", 1)[1].strip() if capture.messages else ""
    return counters["stats"]["unique_graphs"], failed


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(recompiles=True)
torch.manual_seed(0)
model = MLP().to(DEVICE).eval()

print("(each warm-up input is made inside its warm-up block)")
print("warm-up in        served in        request made in  graphs  guard that failed")
rows = [(warm, served, served) for warm in MODES for served in MODES]
rows += [("no_grad", "no_grad", "inference_mode"), ("inference_mode", "inference_mode", "grad enabled")]
counts = {}
for warm, served, made in rows:
    counts[warm, served, made], failed = serve(warm, served, made)
    print(f"{warm:<17}{served:<17}{made:<17}{counts[warm, served, made]:>6}  {failed or '-'}")
state = json.loads(torch._C._dynamo.guards.GlobalStateGuard().__getstate__())
print("\nfields of the GLOBAL_STATE guard:", ", ".join(sorted(state)))

assert all(n == 1 for (w, s, m), n in counts.items() if w == s == m)  # the same mode: one graph
assert all(n == 2 for (w, s, m), n in counts.items() if not w == s == m)  # any difference: a recompile
assert "grad_mode" in state and not any("inference" in field for field in state)
