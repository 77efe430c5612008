"""Symptom: threads that call a compiled model for the first time together each compile it again."""
# expects: ^- \d+/\d+: Unexpected recompilation: runtime guards failed even though they passed during
import logging
import threading
from logging.handlers import BufferingHandler

import torch
from torch import nn
from torch._dynamo.utils import counters

THREADS = 4  # a small pool of worker threads, as a threaded server has


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, 8)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def serve_together(compiled, model, batches):
    """One request per thread, all sent at once, as the first requests reach a freshly started server."""
    start, results = threading.Barrier(len(batches)), {}

    def serve(i, batch):
        x = torch.randn(batch, 64, generator=torch.Generator().manual_seed(i))
        start.wait()
        with torch.no_grad():
            results[i] = (compiled(x), model(x))

    threads = [threading.Thread(target=serve, args=(i, b)) for i, b in enumerate(batches)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


capture = BufferingHandler(capacity=100_000)  # keeps Dynamo's log records (stderr by default)
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(recompiles=True)  # the same as TORCH_LOGS=recompiles

torch.manual_seed(0)
model = Net().eval()
results = serve_together(torch.compile(model), model, [16] * THREADS)  # one input shape in every thread
graphs = counters["stats"]["unique_graphs"]
logged = [r.getMessage() for r in capture.buffer if r.name.endswith("__recompiles")]
unexpected = [m for m in logged if "Unexpected recompilation" in m]
if not unexpected:
    raise AssertionError("no thread compiled again: the symptom is gone in this torch")
print(next(ln.strip() for ln in unexpected[0].splitlines() if "Unexpected recompilation" in ln), end="\n\n")
print(unexpected[0], end="\n\n")  # the whole log record, as TORCH_LOGS=recompiles prints it
print(f"{THREADS} threads, one input shape: graphs compiled {graphs} (one would do)")

# More threads than recompile_limit: the redundant compiles use up the limit, and later shapes run eager.
torch.compiler.reset()
counters.clear()
crowd = torch._dynamo.config.recompile_limit + 2
compiled = torch.compile(model)
serve_together(compiled, model, [16] * crowd)
crowded = counters["stats"]["unique_graphs"]
with torch.no_grad():
    compiled(torch.randn(5, 64))  # a new batch size after the crowd
new = counters["stats"]["unique_graphs"] - crowded
hit = [r for r in capture.buffer if "recompile_limit" in r.getMessage()]
print(f"{crowd} threads: graphs compiled {crowded} (recompile_limit {torch._dynamo.config.recompile_limit}), "
      f"limit warnings {len(hit)}; a new batch size afterwards: graphs compiled {new}, it ran eager")

for out, ref in results.values():
    torch.testing.assert_close(out, ref)  # the answers are right: the cost is time, and the limit
assert graphs > 1 and hit and crowded >= torch._dynamo.config.recompile_limit and new == 0
