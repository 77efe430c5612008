"""Fix 3: precompile with aot_compile, save the artifact, load it in a new process that does not trace."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap

# argv: "plain", "save" or "load", then the artifact's path.
CHILD = textwrap.dedent("""
    import json, sys, time
    import torch
    from torch import nn
    from torch._dynamo.utils import compilation_time_metrics, counters

    how, path = sys.argv[1], sys.argv[2]
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    layers = [m for _ in range(4) for m in (nn.Linear(256, 256), nn.GELU())]
    model = nn.Sequential(*layers).to(device).eval()
    x = torch.randn(32, 256, device=device)
    def forward(model, x):  # the model is an argument: the artifact holds code, not weights
        return model(x)
    with torch.no_grad():
        refused, t0 = "", time.perf_counter()
        if how == "plain":  # the usual path: this first call traces, lowers and builds
            out = torch.compile(model)(x)
        elif how == "save":  # all of that now, for these inputs; the artifact goes to a file
            compiled = torch.compile(forward, fullgraph=True).aot_compile(((model, x), {}))
            compiled.save_compiled_function(path)
            out = compiled(model, x)
        else:  # a new process: read the artifact and call it
            with open(path, "rb") as f:
                compiled = torch.compiler.load_compiled_function(f)
            out = compiled(model, x)
        if device == "cuda":
            torch.cuda.synchronize()
        first = time.perf_counter() - t0
        torch.testing.assert_close(out, model(x))  # compiled output equals eager
        if how == "load":  # another batch size: a guard refuses it, and nothing recompiles
            try:
                compiled(model, x[:16])
            except RuntimeError as e:
                refused = " ".join(str(e).split())
    print(json.dumps({"first_s": first, "graphs": counters["stats"]["unique_graphs"],
                      "refused": refused, "traced": "bytecode_tracing" in compilation_time_metrics,
                      "lowered": "compile_fx_inner" in compilation_time_metrics,
                      "cxx_s": sum(compilation_time_metrics.get("compile_file", []))}))
""")


def start(how, cache, path=""):
    """Run CHILD in a fresh Python process that uses `cache` as its compile cache directory."""
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
    env.pop("TRITON_CACHE_DIR", None)  # on a GPU, Triton's cache then lives inside `cache`
    proc = subprocess.run([sys.executable, "-c", CHILD, how, path], env=env,
                          stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


with tempfile.TemporaryDirectory() as tmp:
    a, b, c, path = (os.path.join(tmp, name) for name in ("a", "b", "c", "forward.pt"))
    runs = {"torch.compile, empty cache dir": start("plain", a),  # a, b, c: cache directories
            "torch.compile, same dir (warm)": start("plain", a),
            "aot_compile + save, empty dir": start("save", b, path),
            "load, the saver's cache dir": start("load", b, path),
            "load, empty cache dir": start("load", c, path)}
    size = os.path.getsize(path)
print(f"{'fresh process (one run each)':<31} {'first call':>10} {'C++ compiler':>13}  Dynamo graphs  Inductor lowered")
for name, r in runs.items():
    print(f"{name:<31} {r['first_s']:>8.2f} s {r['cxx_s']:>11.2f} s  {r['graphs']:>13}  "
          f"{'yes' if r['lowered'] else 'no'}")
print(f"artifact: {size:,} bytes; the load rows' first call includes load_compiled_function()")
cold, warm, saved, *loaded = runs.values()
print("a loaded artifact called with 16 rows instead of 32:", loaded[0]["refused"])

assert cold["traced"] and warm["traced"], "plain torch.compile traces in every new process"
assert saved["traced"] and saved["lowered"], "aot_compile did the whole compile up front"
assert all(not (r["traced"] or r["lowered"] or r["graphs"]) for r in loaded), "loaded, yet traced"
assert all("GuardManager check failed" in r["refused"] for r in loaded), "a failed guard recompiled"
