"""Compile once into an empty TORCHINDUCTOR_CACHE_DIR, list what it wrote, then start new processes on it."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

# What each process runs: compile a tiny model and time its first call.
CHILD = textwrap.dedent("""
    import json, time
    import torch
    from torch import nn
    from torch._dynamo.utils import compilation_time_metrics, counters
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 64)).to(device).eval()
    x = torch.randn(8, 64, device=device)
    with torch.no_grad():
        t0 = time.perf_counter()
        out = torch.compile(model)(x)
        if device == "cuda":
            torch.cuda.synchronize()
        first = time.perf_counter() - t0
        torch.testing.assert_close(out, model(x))  # compiled output equals eager
    fx, aot = counters["inductor"], counters["aot_autograd"]  # hit/miss counts of the two caches
    print(json.dumps({"first_s": first, "builds": len(compilation_time_metrics.get("compile_file", [])),
                      "default": default_cache_dir(),
                      "fx": [fx[f"fxgraph_cache_{k}"] for k in ("hit", "miss")],
                      "aot": [aot[f"autograd_cache_{k}"] for k in ("hit", "miss", "saved")]}))
""")


def start(cache, **extra):
    """Run CHILD in a fresh Python process whose compile cache is `cache`."""
    # TRITON_CACHE_DIR unset: Inductor then puts Triton's cache (GPU) inside `cache` too
    env = {k: v for k, v in os.environ.items() if k != "TRITON_CACHE_DIR"}
    env.update(TORCHINDUCTOR_CACHE_DIR=cache, **extra)
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


def kind(path, root):
    """Name what a file in the cache directory is, from where it lies and how it ends."""
    top, stem, ext = path.relative_to(root).parts[0], path.name.split(".")[0], "".join(path.suffixes)
    if top in ("fxgraph", "aotautograd", "triton", "locks") or top.startswith("tmp"):
        return top + "/"
    if (source := path.parent / (stem + ".cpp")).exists() and "_chk_kernel" in source.read_text():
        return "xx/*.cpp, *.so: CPU instruction-set probes"
    return {".py": "xx/*.py: generated Python (wrapper)", ".main.cpp": "xx/*.main.cpp: generated C++ kernels",
            ".main.so": "xx/*.main.so: compiled C++ kernels"}.get(ext, "xx/*" + ext)


with tempfile.TemporaryDirectory() as tmp:
    cold = start(tmp)  # process 1: empty directory, compiles everything and fills it
    files = [(kind(p, Path(tmp)), p.stat().st_size) for p in Path(tmp).rglob("*") if p.is_file()]
    warm = start(tmp)  # process 2: same directory
    off = start(tmp, TORCHINDUCTOR_FORCE_DISABLE_CACHES="1")  # process 3: same directory, caches off
    new_dirs = [name for name in os.listdir(tmp) if name.startswith("tmp")]

print("default TORCHINDUCTOR_CACHE_DIR:", cold["default"])
print(f"\n{'what process 1 wrote (xx: two-character folders)':<48} {'files':>6} {'KiB':>5}")
for name in sorted({name for name, _ in files}):
    sizes = [size for k, size in files if k == name]
    print(f"{name:<48} {len(sizes):>6} {sum(sizes) / 1024:>5.0f}")
print(f"\n{'process, same directory':<26} {'first call':>10} {'C++ builds':>10}  {'FX graph':<15} AOTAutograd")
for name, r in (("1 empty (cold)", cold), ("2 new process (warm)", warm), ("3 FORCE_DISABLE_CACHES=1", off)):
    fx, aot = "{} hit {} miss".format(*r["fx"]), "{} hit {} miss".format(*r["aot"])
    print(f"{name:<26} {r['first_s']:>8.2f} s {r['builds']:>10}  {fx:<15} {aot}")
print("process 3 left a new folder in the cache directory:", new_dirs)

assert {"fxgraph/", "aotautograd/"} <= {name for name, _ in files}, "both on-disk caches were written"
assert cold["fx"] == [0, 1] and cold["aot"] == [0, 1, 1], "cold: one miss each, one entry saved"
assert warm["fx"] == [1, 0] and warm["aot"][:2] == [1, 0], "warm: one hit each"
assert warm["builds"] < cold["builds"] or cold["builds"] == 0, "the warm process reused the C++ libraries"
assert off["fx"] == [0, 0] and off["aot"][:2] == [0, 0], "force-disabled: no lookup at all"
assert len(new_dirs) == 1, "with caches force-disabled, Inductor compiles into a fresh folder"
