"""What Dynamo's guards cost on every call of a small compiled model, and what the unsafe knobs save."""
import statistics
import time

import torch
from torch import nn

LAYERS, ROUNDS, CALLS = 8, 15, 400
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(*[m for _ in range(LAYERS) for m in (nn.Linear(16, 16), nn.LeakyReLU(0.1))])

    def forward(self, x):
        return self.layers(x)


model, x = Net().eval(), torch.randn(4, 16)
kept = {}


def counted(name, keep):
    """A guard_filter_fn that records how many guards Dynamo offered it and how many it kept."""
    def guard_filter_fn(entries):
        flags = keep(entries)
        kept[name] = (len(entries), sum(flags))
        return flags
    return guard_filter_fn


FILTERS = {
    "all guards (default)": lambda entries: [True] * len(entries),
    "skip_guard_on_inbuilt_nn_modules_unsafe": torch.compiler.skip_guard_on_inbuilt_nn_modules_unsafe,
    "keep_tensor_guards_unsafe": torch.compiler.keep_tensor_guards_unsafe,
    "skip_all_guards_unsafe": torch.compiler.skip_all_guards_unsafe,
}
# isolate_recompiles: each torch.compile of the same forward keeps its own compiled entry (and guards)
compiled = {name: torch.compile(model, isolate_recompiles=True, options={"guard_filter_fn": counted(name, keep)})
            for name, keep in FILTERS.items()}
BASE = "all guards (default)"
runs = {"eager": (model, False), **{n: (f, False) for n, f in compiled.items()},
        "set_stance(skip_guard_eval_unsafe=True)": (compiled[BASE], True)}

with torch.no_grad():
    for fn, _ in runs.values():
        fn(x)  # compile and warm up
    per_call = {name: [] for name in runs}
    for _ in range(ROUNDS):  # interleaved rounds: a slow moment of the machine hits every variant
        for name, (fn, skip) in runs.items():
            with torch.compiler.set_stance(skip_guard_eval_unsafe=skip):
                start = time.perf_counter()
                for _ in range(CALLS):
                    fn(x)
                per_call[name].append((time.perf_counter() - start) / CALLS * 1e6)
    outputs = {name: fn(x) for name, (fn, _) in runs.items()}

base = per_call[BASE]
print(f"{'':40} {'guards':>7}  µs per call: median (min-max), {ROUNDS} rounds of {CALLS} calls")
for name, times in per_call.items():
    total, left = kept.get(name, (0, 0))
    line = f"{name:40} {f'{left}/{total}' if total else '':>7}  {statistics.median(times):6.1f} " \
           f"({min(times):.1f}-{max(times):.1f})"
    if name not in ("eager", BASE):  # paired with the baseline's run of the same round
        diffs = [b - t for b, t in zip(base, times)]
        wins = sum(d > 0 for d in diffs)
        line += f"  {statistics.median(diffs):+5.1f} µs saved, faster in {wins}/{ROUNDS} rounds"
    print(line)

total = kept[BASE][0]
diffs = [b - t for b, t in zip(base, per_call["skip_all_guards_unsafe"])]
print(f"checking all {total} guards: {statistics.median(diffs):.1f} µs per call "
      f"({min(diffs):.1f} to {max(diffs):.1f}), about {statistics.median(diffs) * 1000 / total:.0f} ns per guard")

assert kept[BASE] == (total, total) and kept["skip_all_guards_unsafe"] == (total, 0)
assert 0 < kept["keep_tensor_guards_unsafe"][1] < kept["skip_guard_on_inbuilt_nn_modules_unsafe"][1] < total
for name, out in outputs.items():  # nothing changed between calls, so every variant is still right
    torch.testing.assert_close(out, outputs["eager"])
