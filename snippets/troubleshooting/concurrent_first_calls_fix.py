"""Fix: compile and warm up once in the main thread, batch dimension dynamic, before the threads serve."""
import threading

import torch
from torch import nn
from torch._dynamo.utils import counters

BATCHES = [16, 3, 7, 16, 12, 5]  # the first requests, one per worker thread, all at once


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.fc2 = nn.Linear(128, 8)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


torch.manual_seed(0)
model = Net().eval()
compiled = torch.compile(model)

# Before the server starts its threads: one call that compiles, with the batch dimension marked
# dynamic so that one graph serves every batch size (of at least 2: 0 and 1 are specialized).
warm = torch.randn(16, 64)
torch._dynamo.mark_dynamic(warm, 0)
with torch.no_grad():
    compiled(warm)
warm_graphs = counters["stats"]["unique_graphs"]

start, results, errors = threading.Barrier(len(BATCHES)), {}, []


def serve(i, batch):
    x = torch.randn(batch, 64, generator=torch.Generator().manual_seed(i))
    start.wait()
    try:
        with torch.no_grad():  # the same grad mode as the warm-up: grad mode is guarded
            results[i] = (compiled(x), model(x))
    except Exception as err:  # an exception in a thread would otherwise only be printed
        errors.append(repr(err))


with torch.compiler.set_stance("fail_on_recompile"):  # serving must not compile: a compile would raise
    threads = [threading.Thread(target=serve, args=(i, b)) for i, b in enumerate(BATCHES)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

served = counters["stats"]["unique_graphs"] - warm_graphs
print(f"warm-up in the main thread: graphs compiled {warm_graphs}")
print(f"{len(BATCHES)} threads at once, batch sizes {sorted(set(BATCHES))}: graphs compiled while serving "
      f"{served}, errors {len(errors)}")
for out, ref in results.values():
    torch.testing.assert_close(out, ref)
print("every thread's output equals eager's")

assert not errors, errors
assert warm_graphs == 1 and served == 0 and len(results) == len(BATCHES)
