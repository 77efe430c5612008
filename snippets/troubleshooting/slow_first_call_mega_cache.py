"""Fix 2: ship the compiled artifacts as bytes (Mega-Cache) to a machine or process with an empty cache."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap

# argv: "save" or "load", then the file the artifacts go to / come from.
CHILD = textwrap.dedent("""
    import json, pathlib, sys, time
    import torch
    from torch import nn
    from torch._dynamo.utils import compilation_time_metrics, counters

    mode, path = sys.argv[1], pathlib.Path(sys.argv[2])
    loaded = {}
    if mode == "load":  # before compiling: fill this process's (empty) caches from the bytes
        info = torch.compiler.load_cache_artifacts(path.read_bytes())
        assert info is not None, "no artifacts were loaded"
        loaded = {kind: len(keys) for kind, keys in info.artifacts.items()}
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
    saved = {}
    if mode == "save":  # after compiling: everything this process compiled, as one bytes object
        artifact_bytes, info = torch.compiler.save_cache_artifacts()
        path.write_bytes(artifact_bytes)
        saved = {kind: len(keys) for kind, keys in info.artifacts.items()}
    print(json.dumps({"first_s": first, "saved": saved, "loaded": loaded,
                      "size": path.stat().st_size, **counters["inductor"],
                      "cxx_s": sum(compilation_time_metrics.get("compile_file", []))}))
""")


def start(mode, path):
    """Run CHILD in a fresh Python process with its own, empty compile cache directory."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        env.pop("TRITON_CACHE_DIR", None)  # on a GPU, Triton's cache then lives inside `cache`
        proc = subprocess.run([sys.executable, "-c", CHILD, mode, path], env=env,
                              stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "compiled_artifacts.bin")
    saved = start("save", path)   # process 1: compiles from scratch, saves the artifacts
    loaded = start("load", path)  # process 2: another empty cache dir, loads the bytes first

for name, r in (("process 1, compile + save", saved), ("process 2, load + compile", loaded)):
    print(f"{name}: first call {r['first_s']:6.2f} s (one run), C++ compiler (sum) {r['cxx_s']:6.2f} s, "
          f"FX-graph cache {r.get('fxgraph_cache_hit', 0)} hit / {r.get('fxgraph_cache_miss', 0)} miss")
print(f"saved {saved['size']:,} bytes, artifacts per cache: {saved['saved']}")
print(f"loaded into process 2's empty cache dir: {loaded['loaded']}")

assert saved["size"] > 0 and saved["saved"], "save_cache_artifacts() returned nothing"
assert loaded["loaded"], "load_cache_artifacts() loaded nothing"
assert loaded.get("fxgraph_cache_hit", 0) > 0 and loaded.get("fxgraph_cache_miss", 0) == 0
