"""Fix: warm up in the mode you serve in, on an input made the way requests are; one graph."""
import time

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class MLP(torch.nn.Module):  # the symptom's model
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 16))

    def forward(self, x):
        return self.net(x)


def handle(compiled):
    """The server's code path: the request tensor is made inside inference_mode, then served."""
    with torch.inference_mode():
        request = torch.randn(4, 16, device=DEVICE)
        t0 = time.perf_counter()
        out = compiled(request)
        if DEVICE == "cuda":
            torch.cuda.synchronize()
        seconds = time.perf_counter() - t0
        torch.testing.assert_close(out, model(request))
        return seconds


def first_served_call(warm_up):
    """Compile afresh, run `warm_up`, then serve one request; return its time and the graph count."""
    torch._dynamo.reset()
    counters.clear()
    compiled = torch.compile(model)  # Inductor, as in the symptom: a recompile costs a real compile
    warm_up(compiled)
    return handle(compiled), counters["stats"]["unique_graphs"], compiled


def warm_up_under_no_grad(compiled):  # the symptom's warm-up
    with torch.no_grad():
        compiled(torch.randn(4, 16, device=DEVICE))


torch.manual_seed(0)
model = MLP().to(DEVICE).eval()
mismatched, mismatched_graphs, _ = first_served_call(warm_up_under_no_grad)
matched, matched_graphs, compiled = first_served_call(handle)  # the fix: warm up through the serving path

# After warm-up, make any further compile an error: a call in another mode now raises.
torch.compiler.set_stance("fail_on_recompile")
handle(compiled)  # the served mode: no compile, no error
try:
    with torch.no_grad():
        compiled(torch.randn(4, 16, device=DEVICE))
    raised = ""
except RuntimeError as err:
    raised = str(err).splitlines()[0]
torch.compiler.set_stance("default")

print(f"warm-up under no_grad, served under inference_mode: first served call {mismatched * 1e3:8.1f} ms, "
      f"{mismatched_graphs} graphs")
print(f"warm-up through the serving path (inference_mode):  first served call {matched * 1e3:8.1f} ms, "
      f"{matched_graphs} graph")
print(f"with set_stance('fail_on_recompile'), a call under no_grad raises:\n  {raised}")
assert mismatched_graphs == 2 and matched_graphs == 1
assert raised.startswith("Detected recompile")
