"""Fix 1: keep the compiler's on-disk cache between processes (a persistent TORCHINDUCTOR_CACHE_DIR)."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap

# The program to start twice: it compiles a small model and times its first call.
CHILD = textwrap.dedent("""
    import json, time
    import torch
    from torch import nn
    from torch._dynamo.utils import compilation_time_metrics, counters
    from torch._inductor.runtime.cache_dir_utils import default_cache_dir

    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    layers = [m for _ in range(4) for m in (nn.Linear(256, 256), nn.GELU())]
    model = nn.Sequential(*layers).to(device).eval()
    x = torch.randn(32, 256, device=device)
    with torch.no_grad():
        t0 = time.perf_counter()
        out = torch.compile(model)(x)
        if device == "cuda":
            torch.cuda.synchronize()
        first = time.perf_counter() - t0
        torch.testing.assert_close(out, model(x))  # compiled output equals eager
    print(json.dumps({"first_s": first, "default_dir": default_cache_dir(),
                      "fx_graph_cache": torch._inductor.config.fx_graph_cache,
                      "autograd_cache": torch._functorch.config.enable_autograd_cache,
                      "cxx_s": sum(compilation_time_metrics.get("compile_file", [])),
                      **counters["inductor"], **counters["aot_autograd"]}))
""")


def start(cache_dir):
    """Run CHILD in a fresh Python process that uses `cache_dir` as its compile cache."""
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache_dir}
    env.pop("TRITON_CACHE_DIR", None)  # on a GPU, Triton's cache then lives inside cache_dir too
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, stdout=subprocess.PIPE,
                          text=True, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


with tempfile.TemporaryDirectory() as cache:
    cold = start(cache)  # process 1: the directory is empty, so it compiles and fills it
    warm = start(cache)  # process 2: a new process, same directory: it reuses the artifacts

print(f"{'process (one run each)':<26} {'first call':>10} {'C++ compiler (sum)':>19}  {'FX-graph cache':<15} AOTAutograd cache")
for name, r in (("1, empty cache dir (cold)", cold), ("2, same cache dir (warm)", warm)):
    fx = f"{r.get('fxgraph_cache_hit', 0)} hit, {r.get('fxgraph_cache_miss', 0)} miss"
    aot = f"{r.get('autograd_cache_hit', 0)} hit, {r.get('autograd_cache_miss', 0)} miss"
    print(f"{name:<26} {r['first_s']:>8.2f} s {r['cxx_s']:>17.2f} s  {fx:<15} {aot}")
print("default cache dir when TORCHINDUCTOR_CACHE_DIR is unset:", cold["default_dir"])
print(f"torch._inductor.config.fx_graph_cache = {cold['fx_graph_cache']}, "
      f"torch._functorch.config.enable_autograd_cache = {cold['autograd_cache']}")

assert cold.get("fxgraph_cache_miss", 0) > 0 and cold.get("fxgraph_cache_hit", 0) == 0
assert warm.get("fxgraph_cache_hit", 0) + warm.get("autograd_cache_hit", 0) > 0, "warm run missed"
