"""Mark a repeated block with torch.compiler.nested_compile_region: compile time of a deep stack, cold."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap

BLOCKS = 8
CHILD = textwrap.dedent("""
    import json, statistics, sys, time
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self, d=64):
            super().__init__()
            self.ln, self.fc1, self.fc2 = nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            return x + self.fc2(nn.functional.gelu(self.fc1(self.ln(x))))

    if sys.argv[1] == "nested":  # in a model's own code: @torch.compiler.nested_compile_region on forward
        Block.forward = torch.compiler.nested_compile_region(Block.forward)
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Sequential(*(Block() for _ in range(int(sys.argv[2])))).to(device)
    x = torch.randn(32, 64, device=device)
    model(x).square().mean().backward()  # eager gradients, to check against
    expected = [p.grad.clone() for p in model.parameters()]
    torch.compile(lambda t: t + 1)(x)  # the compiler's one-time start-up: not counted

    graphs = []
    def inductor_and_keep(gm, example_inputs):  # keep Dynamo's graph to count the block bodies in it
        graphs.append(gm)
        return torch._inductor.compile(gm, example_inputs)
    compiled = torch.compile(model, backend=inductor_and_keep)

    def step():
        model.zero_grad(set_to_none=True)
        compiled(x).square().mean().backward()
        torch.cuda.synchronize() if device == "cuda" else None
    t0 = time.perf_counter()
    step()  # the first training step compiles forward and backward
    first_s, times = time.perf_counter() - t0, []
    for p, ref in zip(model.parameters(), expected):
        torch.testing.assert_close(p.grad, ref, rtol=1e-4, atol=1e-5)
    for _ in range(10):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    nodes = [n for g in graphs for n in g.graph.nodes]
    calls = [n for n in nodes if n.target is torch.ops.higher_order.invoke_subgraph]
    print(json.dumps({"first_s": first_s, "step_ms": statistics.median(times) * 1e3, "graphs": len(graphs),
                      "calls": len(calls), "bodies": len({n.args[0].target for n in calls}),
                      "linears": sum(n.target is torch._C._nn.linear for n in nodes)}))
""")


def start(how):
    """Run CHILD in a fresh Python process with an empty compile cache (a cold compile)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        env.pop("TRITON_CACHE_DIR", None)
        proc = subprocess.run([sys.executable, "-c", CHILD, how, str(BLOCKS)], env=env,
                              stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.splitlines()[-1])


runs = {"torch.compile(model)": start("whole"), "+ nested_compile_region on Block.forward": start("nested")}
print(f"{BLOCKS} identical blocks, one training step (forward + backward), empty compile cache:")
print(f"{'':42} {'first step':>10} {'later steps':>12}  Dynamo graph: invoke_subgraph calls / bodies, inlined linears")
for name, r in runs.items():
    print(f"{name:42} {r['first_s']:>8.1f} s {r['step_ms']:>9.2f} ms  {r['calls']} / {r['bodies']}, {r['linears']}")
whole, nested = runs.values()
assert whole["graphs"] == nested["graphs"] == 1  # one graph for the whole model either way
assert whole["calls"] == 0 and whole["linears"] == 2 * BLOCKS  # without it: every block inlined
assert nested["bodies"] >= 1 and nested["calls"] + nested["linears"] // 2 == BLOCKS  # with it: reused
