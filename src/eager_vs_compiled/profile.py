"""Where a recipe's time goes: `python -m eager_vs_compiled.profile WORKLOAD PROFILE MODE OUT`.

Builds the workload with the recipe's knobs in this fresh process, compiles it, warms it up, runs
`torch.profiler` over a few calls and writes the top operators by self CPU time, and the shares of
the convolutions and of Inductor's generated kernels, as JSON. Standard library + torch."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import recipes, workloads
from .child import _compile


def profile(workload: str, profile_name: str, mode: str, calls: int = 5) -> dict:
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    w = workloads.get(workload)
    recipe = recipes.parse(mode)
    recipes.configure(recipe)
    device = workloads.default_device(profile_name)
    built = _compile(w.build(profile_name, device, recipe.knobs), recipe)
    for _ in range(3):  # compile, then warm
        built.call(*built.inputs)
    with torch_profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(calls):
            built.call(*built.inputs)
    events = [e for e in prof.key_averages() if e.self_cpu_time_total > 0]
    total = sum(e.self_cpu_time_total for e in events) or 1
    top = sorted(events, key=lambda e: -e.self_cpu_time_total)[:12]

    def share(pred) -> float:
        return sum(e.self_cpu_time_total for e in events if pred(e.key)) / total

    return {"calls": calls, "top": [{"name": e.key, "self_s": e.self_cpu_time_total / 1e6 / calls,
                                     "share": e.self_cpu_time_total / total, "calls": e.count // calls} for e in top],
            "conv_share": share(lambda k: "conv" in k.lower() or "mkldnn" in k.lower()),
            "inductor_share": share(lambda k: k.startswith(("cpp_fused", "graph_", "triton_")) or "inductor" in k.lower())}


if __name__ == "__main__":
    Path(sys.argv[4]).write_text(json.dumps(profile(sys.argv[1], sys.argv[2], sys.argv[3])))
