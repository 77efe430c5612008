"""Compile a transformer-like stack whole or block by block: start-up, first call, speed; cold cache."""
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
    from torch.utils import benchmark
    from torch._dynamo.utils import counters

    class Block(nn.Module):  # pre-norm attention + MLP: the region that repeats
        def __init__(self, d=128, heads=4):
            super().__init__()
            self.heads, self.ln1, self.ln2 = heads, nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):
            b, s, d = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, self.heads, -1).transpose(1, 3).unbind(2)
            a = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.proj(a.transpose(1, 2).reshape(b, s, d))
            return x + self.mlp(self.ln2(x))

    def per_call(fn, x):  # [median, IQR] seconds per call, all threads (Timer synchronises CUDA)
        timer = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x}, num_threads=torch.get_num_threads())
        return [getattr(timer.blocked_autorange(min_run_time=0.5), k) for k in ("median", "iqr")]

    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(0)
    model = nn.Sequential(*(Block() for _ in range(6))).to(device).eval()
    x = torch.randn(4, 64, 128, device=device)
    with torch.no_grad():
        expected = model(x)
        eager_s = per_call(model, x)  # eager in the same process, for a fair comparison
        t0 = time.perf_counter()  # the compiler's one-time start-up, paid by any first compile:
        torch.compile(lambda t: t + 1)(x)  # measured apart so the model's own cost is visible
        startup = time.perf_counter() - t0
        counters.clear()
        if sys.argv[1] == "whole":
            run = torch.compile(model)  # one graph: all 6 blocks inlined
        else:
            for block in model:  # regional: compile each block in place; identical blocks
                block.compile()  # reuse one compiled graph
            run = model
        t0 = time.perf_counter()
        out = run(x)
        torch.cuda.synchronize() if device == "cuda" else None
        first = time.perf_counter() - t0
        torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-4)  # compiled output equals eager
        print(json.dumps(dict(startup_s=startup, first_s=first, per_call_s=per_call(run, x), eager_s=eager_s,
                              graphs=counters["stats"]["unique_graphs"], ops=counters["stats"]["calls_captured"])))
""")


def start(how):
    """Run CHILD in a fresh Python process with an empty compile cache (a cold compile)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        env.pop("TRITON_CACHE_DIR", None)  # on a GPU, Triton's cache then lives inside `cache`
        proc = subprocess.run([sys.executable, "-c", CHILD, how], env=env,
                              stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


whole, regional = start("whole"), start("regional")
print("6 blocks, batch 4 x 64 tokens; start-up, first call: one fresh process; per call, eager: median (IQR)")
print(f"{'compiled':<31} {'start-up':>8} {'first call':>10} {'per call':>18} {'eager':>18}  graphs  ops traced")
for name, r in (("whole: torch.compile(model)", whole), ("regional: block.compile() each", regional)):
    (c, c_iqr), (e, e_iqr) = r["per_call_s"], r["eager_s"]
    noisy = "  noisy: rerun on an idle machine" if c_iqr > 0.10 * c or e_iqr > 0.10 * e else ""
    print(f"{name:<31} {r['startup_s']:>6.2f} s {r['first_s']:>8.2f} s {c * 1e3:>7.2f} ms ({c_iqr * 1e3:5.2f}) "
          f"{e * 1e3:>7.2f} ms ({e_iqr * 1e3:5.2f})  {r['graphs']:>6}  {r['ops']:>10}{noisy}")
assert whole["graphs"] == 1 and regional["graphs"] == 1, "one graph each: the 6 blocks share it"
assert regional["ops"] < whole["ops"], "regional compilation traced the whole model"
