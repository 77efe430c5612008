"""Where a cold compile's seconds go: Dynamo, AOTAutograd, Inductor, the C++ compiler."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import json, time
import torch
from torch import nn
from torch._dynamo.utils import compilation_time_metrics

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.LayerNorm(128), nn.Linear(128, 10)).to(device)
x = torch.randn(16, 64, device=device)
with torch.no_grad():
    t0 = time.perf_counter()
    out = torch.compile(model)(x)
    if device == "cuda":
        torch.cuda.synchronize()
    first = time.perf_counter() - t0
    torch.testing.assert_close(out, model(x), rtol=1e-4, atol=1e-4)
print(json.dumps({"first call": [first], **compilation_time_metrics}))  # timer name -> seconds per use
"""
INDUCTOR = "compile_fx.<locals>.fw_compiler_base"  # Inductor, as AOTAutograd calls it on the graph
PHASES = [  # (what it covers, torch's timer); these do not overlap, and all run in _compile.compile_inner
    ("Dynamo: trace the bytecode into an FX graph", "bytecode_tracing"),
    ("Dynamo: build the guards", "build_guards"),
    ("AOTAutograd, Inductor excluded", "create_aot_dispatcher_function"),
    ("Inductor: graph passes (pattern matching)", "_recursive_joint_graph_passes"),
    ("Inductor: lower the graph to its IR", "GraphLowering.run"),
    ("Inductor: schedule, fuse, generate the code", "GraphLowering.codegen"),
    ("Inductor: load the generated module", "PyCodeCache.load_by_key_path"),
]

with tempfile.TemporaryDirectory() as cache:  # an empty compile cache: a cold start
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
    env.pop("TRITON_CACHE_DIR", None)
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, check=True)
    sources = sorted(len(p.read_text().splitlines()) for p in Path(cache).rglob("*.cpp"))
timers = json.loads(proc.stdout.splitlines()[-1])

total = timers["_compile.compile_inner"][0]
seconds = {name: sum(timers.get(name, [])) for _, name in PHASES}
seconds["create_aot_dispatcher_function"] -= sum(timers.get(INDUCTOR, []))
print(f"first call: {timers['first call'][0]:.2f} s, of which torch.compile's work on it: {total:.2f} s "
      "(_compile.compile_inner)")
print(f"{'seconds':>8}  {'share':>5}  phase (torch timer, from torch._dynamo.utils.compilation_time_metrics)")
for what, name in PHASES:
    print(f"{seconds[name]:>8.2f}  {seconds[name] / total:>5.0%}  {what} ({name})")
print(f"{total - sum(seconds.values()):>8.2f}  {'':>5}  other work of torch.compile")
builds = timers.get("compile_file", [])  # on a GPU, Triton compiles in worker processes instead
print(f"C++ compiler (compile_file), inside the Inductor rows: {len(builds)} builds, {sum(builds):.2f} s")
print(f"C++ sources left in the cache: {len(sources)}, their lengths in lines: {sources}")

assert len(timers["_compile.compile_inner"]) == 1, "one frame compiled once"
for name in [INDUCTOR, *(name for _, name in PHASES)]:
    assert name in timers, f"{name}: timer missing in this torch"
inductor_rows = sum(seconds[name] for what, name in PHASES if what.startswith("Inductor"))
assert inductor_rows <= sum(timers[INDUCTOR]) and sum(seconds.values()) <= total, "the rows nest"
