"""Fill a compile cache once, then see which changes a new process still finds in it and which miss."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap

# What each process runs: argv[1] is a JSON dict of what to change from the first process.
CHILD = textwrap.dedent("""
    import json, sys, time
    import torch
    from torch import nn
    from torch._dynamo.utils import compilation_time_metrics, counters

    change = json.loads(sys.argv[1])
    if change.get("more_threads"):
        torch.set_num_threads(torch.get_num_threads() + 1)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = getattr(torch, change.get("dtype", "float32"))
    torch.manual_seed(change.get("seed", 0))
    model = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 64)).to(device, dtype).eval()
    x = torch.randn(change.get("batch", 8), 64, device=device, dtype=dtype)
    with torch.no_grad():
        t0 = time.perf_counter()
        out = torch.compile(model, options=change.get("options"))(x)
        if device == "cuda":
            torch.cuda.synchronize()
        first = time.perf_counter() - t0
        torch.testing.assert_close(out, model(x))  # compiled output equals eager
    fx, aot = counters["inductor"], counters["aot_autograd"]
    print(json.dumps({"first_s": first, "device": device,
                      "builds": len(compilation_time_metrics.get("compile_file", [])),
                      "fx": [fx[f"fxgraph_cache_{k}"] for k in ("hit", "miss")],
                      "aot": [aot[f"autograd_cache_{k}"] for k in ("hit", "miss")]}))
""")

CASES = {  # what the new process changes -> the change, as the child reads it
    "nothing: first process, empty dir": {},
    "the weights (another seed)": {"seed": 1},
    "input batch 8 -> 16": {"batch": 16},
    "dtype float32 -> float64": {"dtype": "float64"},
    "option epilogue_fusion=False": {"options": {"epilogue_fusion": False}},
    "CPU threads n -> n + 1": {"more_threads": True},
}


def start(cache, change):
    """Run CHILD in a fresh Python process with `cache` as its compile cache."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_CACHE_DIR"}
    env["TORCHINDUCTOR_CACHE_DIR"] = cache
    proc = subprocess.run([sys.executable, "-c", CHILD, json.dumps(change)], env=env,
                          stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


with tempfile.TemporaryDirectory() as cache:
    runs = {name: start(cache, change) for name, change in CASES.items()}  # in order, one process each

print(f"{'a new process on the same cache; changed':<40} {'first call':>10} {'C++ builds':>10}  "
      f"{'FX graph':<14} AOTAutograd")
for name, r in runs.items():
    fx, aot = "{} hit {} miss".format(*r["fx"]), "{} hit {} miss".format(*r["aot"])
    print(f"{name:<40} {r['first_s']:>8.2f} s {r['builds']:>10}  {fx:<14} {aot}")

hit, miss = [1, 0], [0, 1]
assert runs["nothing: first process, empty dir"]["fx"] == miss
assert runs["the weights (another seed)"]["fx"] == hit, "parameters are graph inputs, not part of the key"
assert runs["input batch 8 -> 16"]["fx"] == miss and runs["dtype float32 -> float64"]["fx"] == miss
assert runs["option epilogue_fusion=False"]["fx"] == miss, "Inductor's config is part of the key"
cpu = runs["CPU threads n -> n + 1"]
assert cpu["fx"] == (miss if cpu["device"] == "cpu" else hit), "C++ code is keyed on the thread count"
