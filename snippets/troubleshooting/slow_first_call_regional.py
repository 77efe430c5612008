"""Fix 4: compile the repeated block, not the whole model (regional compilation)."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap

CHILD = textwrap.dedent("""
    import json, sys, time
    import torch
    from torch import nn
    from torch._dynamo.utils import counters

    class Block(nn.Module):  # the repeated region, like a transformer layer
        def __init__(self, d=256):
            super().__init__()
            self.norm, self.fc1, self.fc2 = nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            return x + self.fc2(nn.functional.gelu(self.fc1(self.norm(x))))

    class Model(nn.Module):
        def __init__(self, n_layers=8):
            super().__init__()
            self.layers = nn.ModuleList(Block() for _ in range(n_layers))

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = Model().to(device).eval()
    x = torch.randn(32, 256, device=device)
    with torch.no_grad():
        expected = model(x)
        t0 = time.perf_counter()  # the compiler's one-time start-up, paid by any first compile:
        torch.compile(lambda t: t + 1)(x)  # measured apart so the model's own cost is visible
        startup = time.perf_counter() - t0
        counters.clear()
        if sys.argv[1] == "whole":
            run = torch.compile(model)  # one graph: all 8 layers inlined
        else:
            for layer in model.layers:  # regional: each layer compiled in place; the 8 layers
                layer.compile()         # share one compiled graph
            run = model
        t0 = time.perf_counter()
        out = run(x)
        if device == "cuda":
            torch.cuda.synchronize()
        first = time.perf_counter() - t0
        torch.testing.assert_close(out, expected)  # compiled output equals eager
    print(json.dumps({"startup_s": startup, "first_s": first,
                      "graphs": counters["stats"]["unique_graphs"],
                      "ops": counters["stats"]["calls_captured"]}))
""")


def start(how):
    """Run CHILD in a fresh Python process with an empty compile cache: a cold compile."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        env.pop("TRITON_CACHE_DIR", None)  # on a GPU, Triton's cache then lives inside `cache`
        proc = subprocess.run([sys.executable, "-c", CHILD, how], env=env,
                              stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


whole, regional = start("whole"), start("regional")
print(f"{'compiled (one run each)':<34} {'start-up':>9} {'model first call':>17}  graphs  ops traced")
for name, r in (("whole model, torch.compile(model)", whole),
                ("each layer, layer.compile()", regional)):
    print(f"{name:<34} {r['startup_s']:>7.2f} s {r['first_s']:>15.2f} s  {r['graphs']:>6}  {r['ops']:>10}")

assert whole["graphs"] == 1 and regional["graphs"] == 1, "expected one compiled graph each"
assert regional["ops"] < whole["ops"], "regional compilation traced the whole model"
