"""Benchmark eager vs compiled correctly with torch.utils.benchmark.Timer."""
import torch
import torch.utils.benchmark as benchmark
from torch import nn

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH, FEATURES = 64, 512
THREADS = torch.get_num_threads()  # Timer defaults to ONE thread; eager would then look slow

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(FEATURES, 4 * FEATURES), nn.GELU(), nn.Linear(4 * FEATURES, FEATURES))
model = model.to(DEVICE).eval()  # eval(): dropout/batch-norm in inference behaviour
x = torch.randn(BATCH, FEATURES, device=DEVICE)
compiled = torch.compile(model)

with torch.no_grad():  # inference: no autograd graph is recorded
    torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)  # also warms up: compiles now
    for _ in range(3):  # warm-up both, outside the timed region
        model(x), compiled(x)

    results = []
    for label, fn in [("eager", model), ("torch.compile", compiled)]:
        timer = benchmark.Timer(
            stmt="fn(x)",
            globals={"fn": fn, "x": x},
            num_threads=THREADS,
            label="MLP forward",
            sub_label=f"batch {BATCH}",
            description=label,
        )
        # blocked_autorange picks the number of calls per block and synchronizes CUDA itself.
        results.append(timer.blocked_autorange(min_run_time=1.0))

for m in results:
    noisy = "  noisy — rerun on an idle machine" if m.iqr > 0.10 * m.median else ""  # IQR/median > 10 %
    print(f"{m.description:14} median {m.median * 1e3:.3f} ms  IQR {m.iqr * 1e3:.3f} ms  "
          f"({len(m.times)} blocks of {m.number_per_run} calls, {THREADS} threads){noisy}")
print(f"speedup (ratio of medians): {results[0].median / results[1].median:.2f}x")
benchmark.Compare(results).print()

assert all(m.median > 0 for m in results)
assert results[0].task_spec.num_threads == THREADS
