"""Fix: measure eager vs compiled correctly, and see what each common mistake does to the result."""
import os
import statistics
import tempfile
import time

cache = tempfile.TemporaryDirectory()  # an empty compile cache: a first-time user's compile
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache.name

import torch
import torch.utils.benchmark as benchmark
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"
sync = torch.cuda.synchronize if device == "cuda" else torch.cpu.synchronize  # CPU: does nothing
threads = torch.get_num_threads()


def block(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU())


torch.manual_seed(0)
model = nn.Sequential(block(3, 32), block(32, 32), nn.MaxPool2d(2), block(32, 64), block(64, 64),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)).to(device).eval()
x = torch.randn(8, 3, 32, 32, device=device)
compiled = torch.compile(model)


def per_call(fn, calls, synchronize=True):  # a hand-written loop: seconds of each call
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn(x)
        if synchronize:
            sync()
        times.append(time.perf_counter() - start)
    return times


def timer(fn, **kwargs):  # torch.utils.benchmark: median of blocks of calls
    t = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x}, **kwargs)
    return t.blocked_autorange(min_run_time=0.5)


def cell(s):  # seconds -> (median, text, noisy?); a float is one run; noisy: IQR/median > 10 % or < 3 samples
    if isinstance(s, float):
        return s, f"{s * 1e3:>7.2f} ms (one run)  ", False
    q1, med, q3 = statistics.quantiles(s if len(s) > 1 else s * 2, n=4, method="inclusive")
    return med, f"{med * 1e3:>7.2f} ms (IQR {(q3 - q1) * 1e3:5.2f})", q3 - q1 > 0.10 * med or len(s) < 3


rows = []
with torch.no_grad():  # inference: eval() above, no autograd graph
    first = per_call(model, 20), per_call(compiled, 20)  # the compiled model compiles in call 1
    torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
    rows.append(("no warm-up: the first call alone", [t[0] for t in first]))
    rows.append(("compile time in the average: mean of calls 1-20", [statistics.mean(t) for t in first]))
    loops = [per_call(fn, 50, synchronize=False) for fn in (model, compiled)]
    rows.append(("hand-written loop without synchronize()", loops))
    loops = [per_call(fn, 50) for fn in (model, compiled)]
    rows.append(("hand-written loop with synchronize()", loops))
    single = [timer(fn) for fn in (model, compiled)]  # Timer's default: num_threads=1
    rows.append((f"Timer, default num_threads={single[0].task_spec.num_threads}", [m.times for m in single]))
    correct = [timer(fn, num_threads=threads).times for fn in (model, compiled)]
    rows.append((f"CORRECT: eval, no_grad, warmed up, Timer num_threads={threads}", correct))

model.train()  # the same model left in training mode, autograd on: another graph, another compile
per_call(compiled, 3)
torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)
rows.append(("train mode, autograd on (warmed up, Timer)",
             [timer(fn, num_threads=threads).times for fn in (model, compiled)]))

print(f"{'how it was measured':<58} {'eager':>22} {'compiled':>22}  eager/compiled")
for name, sides in rows:
    (eager_s, e_text, e_noisy), (compiled_s, c_text, c_noisy) = (cell(s) for s in sides)
    noisy = "  noisy — rerun on an idle machine" if e_noisy or c_noisy else ""
    print(f"{name:<58} {e_text:>22} {c_text:>22}  {eager_s / compiled_s:>8.3g}x{noisy}")
print(f"device: {device}, torch.get_num_threads(): {threads}")
assert single[0].task_spec.num_threads == 1, "Timer no longer defaults to one thread"
