"""Symptom: a model warmed up under `no_grad` compiles again on its first call under `inference_mode`."""
# expects: ^- \d+/\d+: tensor '\w+' dispatch key set mismatch\. expected DispatchKeySet\(
import logging
import time

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


class Capture(logging.Handler):
    """Keep the `recompiles` log records (they go to stderr by default) to print them below."""

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


def timed(fn, x):
    t0 = time.perf_counter()
    out = fn(x)
    if DEVICE == "cuda":
        torch.cuda.synchronize()
    return out, time.perf_counter() - t0


capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(recompiles=True)  # the same as TORCH_LOGS=recompiles

torch.manual_seed(0)
model = MLP().to(DEVICE).eval()
compiled = torch.compile(model)  # the default backend, Inductor: a recompile is a real compile
with torch.no_grad():  # warm-up, as many guides write it
    warm = torch.randn(4, 16, device=DEVICE)
    _, warm_up = timed(compiled, warm)
    _, warmed = timed(compiled, warm)
with torch.inference_mode():  # serving: each request's tensor is made inside the block
    request = torch.randn(4, 16, device=DEVICE)
    hits = counters["inductor"]["fxgraph_cache_hit"]
    out, served = timed(compiled, request)
    hit = counters["inductor"]["fxgraph_cache_hit"] > hits
    _, served_again = timed(compiled, request)
    torch.testing.assert_close(out, model(request))

if not capture.messages:
    raise AssertionError("no recompilation: the symptom is gone in this torch")
failed = next(ln.strip() for ln in capture.messages[0].splitlines() if "mismatch" in ln)
print(failed, end="\n\n")  # the line of the log that tells this recompile apart: the guard that failed
print(capture.messages[0], end="\n\n")  # the whole log record, as TORCH_LOGS=recompiles prints it
print(f"warm-up under no_grad, first call:        {warm_up * 1e3:9.1f} ms (compiles)")
print(f"warm-up under no_grad, second call:       {warmed * 1e3:9.1f} ms")
print(f"served under inference_mode, first call:  {served * 1e3:9.1f} ms (compiles again)")
print(f"served under inference_mode, second call: {served_again * 1e3:9.1f} ms")
print(f"graphs compiled: {counters['stats']['unique_graphs']}; the served call's compile "
      f"{'found' if hit else 'did not find'} its code in Inductor's FX graph cache")
assert counters["stats"]["unique_graphs"] == 2
assert "dispatch key set mismatch" in capture.messages[0]
