"""The article's `%timeit x + y` example, run as written: its tensors are on the CPU, not a GPU."""
import torch
from torch.utils.benchmark import Timer

x = torch.randn(1000, 1000)  # as in the article: no device given
y = torch.randn(1000, 1000)
print(f"x is on: {x.device} (the article quotes its timings as 'on RTX 3090')")

threads = torch.get_num_threads()
devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
for device in devices:
    a, b = x.to(device), y.to(device)
    for stmt in ("a + b", "torch.matmul(a, b)"):
        # Timer synchronizes CUDA itself; num_threads: its default is 1 thread, not torch's setting.
        m = Timer(stmt, globals={"a": a, "b": b, "torch": torch}, num_threads=threads).blocked_autorange(min_run_time=1)
        noisy = "  noisy — rerun on an idle machine" if m.iqr > 0.10 * m.median else ""  # IQR/median > 10 %
        print(f"{device:>4} {stmt:<20} median {m.median * 1e3:8.3f} ms  IQR {m.iqr * 1e3:6.3f} ms  "
              f"({len(m.times)} runs, {threads} threads){noisy}")

assert x.device.type == "cpu"
torch.testing.assert_close(torch.matmul(x, y), x @ y)
