"""A chain of N small pointwise ops: eager pays per op, compiled runs one fused kernel."""
import re

import torch
from torch._dynamo.utils import counters
from torch.utils.benchmark import Timer

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
THREADS = 1  # one thread: per-op costs, not how busy the other cores are
torch.set_num_threads(THREADS)
SIZES = {"1k elements": 1_000, "1M elements": 1_000_000}


def make_chain(n):
    def chain(x):
        for i in range(n):  # n pointwise ops; Dynamo unrolls the Python loop into the graph
            x = x * 1.0001 if i % 2 == 0 else x + 0.0001
        return x
    return chain


def best_s(fn, x):
    """Fastest of the timed blocks (the op's own cost, least disturbed by other processes), and the
    blocks' spread, IQR/median."""
    m = Timer("fn(x)", globals={"fn": fn, "x": x}, num_threads=THREADS).blocked_autorange(min_run_time=0.2)
    return min(m.times), m.iqr / m.median


print(f"device {DEVICE}, {THREADS} thread; time per call (fastest block); spread: the largest "
      f"IQR/median of the row's timings")
print(f"{'ops':>4} | " + " | ".join(f"{k + ' eager':>18} {'compiled':>10}" for k in SIZES) + " | spread")
rows = []
for n in (1, 2, 4, 8, 16, 32):
    # Every chain shares one code object; without a reset its cache entries (one per n and size)
    # would pass the recompile limit, and Dynamo would run the rest eagerly (with a warning).
    torch._dynamo.reset()
    counters.clear()
    chain = make_chain(n)
    compiled = torch.compile(chain, dynamic=False)
    cells, spreads = [], []
    for size in SIZES.values():
        x = torch.randn(size, device=DEVICE)
        torch.testing.assert_close(compiled(x), chain(x))  # compiled equals eager
        (eager_t, eager_spread), (comp_t, comp_spread) = best_s(chain, x), best_s(compiled, x)
        cells.append((eager_t, comp_t))
        spreads += [eager_spread, comp_spread]
    assert counters["stats"]["unique_graphs"] == len(SIZES), dict(counters["stats"])  # all compiled
    rows.append((n, cells))
    noisy = "  noisy — rerun on an idle machine" if max(spreads) > 0.10 else ""  # IQR/median > 10 %
    print(f"{n:>4} | " + " | ".join(f"{e * 1e6:>15.1f} µs {c * 1e6:>7.1f} µs" for e, c in cells)
          + f" | {max(spreads):>6.0%}{noisy}")

for label, i in zip(SIZES, range(len(SIZES))):
    e1, c1 = rows[0][1][i]
    e32, c32 = rows[-1][1][i]
    print(f"{label}: 1 → 32 ops multiplies eager time by {e32 / e1:.1f}, compiled time by {c32 / c1:.1f}")

# One fused kernel for the longest chain: count the C++/Triton kernels inductor generated.
from torch._inductor.utils import run_and_get_code  # noqa: E402

with torch._inductor.config.patch(fx_graph_cache=False):  # regenerate even if cached
    _, code = run_and_get_code(torch.compile(make_chain(32), dynamic=False), x)
kernels = len(re.findall(r"^(?:triton_|cpp_fused_)\w+ = async_compile", "\n".join(code), re.M))
print(f"32-op chain: {len(code)} generated module(s), {kernels} kernel(s)")
assert kernels == 1, code
