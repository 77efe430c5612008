"""Fix: count graph breaks with `explain`, then remove them: tensors stay tensors, `torch.cond`, reordered print."""
import contextlib
import io
import statistics
import time

import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def step(x):  # three graph breaks, as in the symptom
    y = x.sin()
    scale = y.abs().max().item()
    y = y.cos()
    print("step: scaled")
    y = y + 1
    if y.sum() > 0:
        y = y * 2
    return y / scale


def step_fixed(x):
    y = x.sin()
    scale = y.abs().max()  # a 0-d tensor instead of a Python float
    y = y.cos()
    print("step: scaled")  # reordered after the graph (see config below)
    y = y + 1
    y = torch.cond(y.sum() > 0, lambda t: t * 2, lambda t: t.clone(), (y,))
    return y / scale


def median_iqr_ms(fn, x, n=50):
    with contextlib.redirect_stdout(io.StringIO()):  # silence the prints while timing
        for _ in range(3):
            fn(x)  # warm-up: compilation is not part of the steady state
        times = []
        for _ in range(n):
            if DEVICE == "cuda":
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            fn(x)
            if DEVICE == "cuda":
                torch.cuda.synchronize()
            times.append(time.perf_counter() - t0)
    q1, median, q3 = statistics.quantiles(times, n=4, method="inclusive")
    return median * 1e3, (q3 - q1) * 1e3


x = torch.randn(1_000_000, device=DEVICE)
with contextlib.redirect_stdout(io.StringIO()):
    before = torch._dynamo.explain(step)(x)  # recompiles from scratch, counts graphs
    torch._dynamo.config.reorderable_logging_functions.add(print)
    after = torch._dynamo.explain(step_fixed)(x)
for name, e in (("before", before), ("after", after)):
    print(f"{name}: graph count {e.graph_count}, graph break count {e.graph_break_count}")
for reason in before.break_reasons:
    print("  broke at:", reason.reason.splitlines()[0])

torch._dynamo.reset()
with_breaks = torch.compile(step)
without = torch.compile(step_fixed, fullgraph=True)  # fullgraph: any break would be an error
with contextlib.redirect_stdout(io.StringIO()):
    torch.testing.assert_close(without(x), step(x))
    torch.testing.assert_close(with_breaks(x), step(x))
breaks = f"compiled, {before.graph_break_count} breaks"
for name, fn in (("eager", step), (breaks, with_breaks), ("compiled, 0 breaks", without)):
    median, iqr = median_iqr_ms(fn, x)
    noisy = "  noisy — rerun on an idle machine" if iqr > 0.10 * median else ""  # IQR/median > 10 %
    print(f"{name:>20}: {median:.3f} ms per call (median of 50, IQR {iqr:.3f} ms){noisy}")

assert before.graph_break_count >= 3 and after.graph_break_count == 0
assert after.graph_count == 1 < before.graph_count
