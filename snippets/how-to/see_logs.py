"""Read what torch.compile did from its logs: graph breaks, recompiles, guards, code, perf hints."""
import logging
import re
import time

import torch

ARTIFACTS = ("graph_breaks", "recompiles", "guards", "output_code", "perf_hints")


class Collect(logging.Handler):
    """TORCH_LOGS output goes to stderr through logging: keep each record, by artifact, instead."""

    def __init__(self):
        super().__init__()
        self.logs = {artifact: [] for artifact in ARTIFACTS}

    def emit(self, record):  # artifact loggers are named like torch._dynamo.guards.__recompiles
        self.logs.setdefault(record.name.rpartition("__")[2], []).append(record.getMessage())


def top_scores(x):
    scores = torch.relu(x) * 2
    best = torch.topk(scores, k=3).values  # Inductor has no kernel of its own for topk
    if best.sum() > 0:  # a tensor's value picks the branch: a graph break
        return best
    return -best


handler = Collect()
for name in ("torch._dynamo", "torch._inductor"):
    logging.getLogger(name).addHandler(handler)
torch._logging.set_logs(**dict.fromkeys(ARTIFACTS, True))  # as TORCH_LOGS="graph_breaks,recompiles,..."
# A cache hit loads the code without lowering the graph, and then Inductor logs no perf hints.
torch._inductor.config.fx_graph_cache = False
torch._functorch.config.enable_autograd_cache = False

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
compiled = torch.compile(top_scores)
t0 = time.perf_counter()
compiled(torch.randn(8, 32, device=device))
compiled(torch.randn(16, 32, device=device))  # a new batch size: a guard fails, it compiles again
print(f"two calls, two compiles: {time.perf_counter() - t0:.1f} s")
logs = handler.logs
print(f"records per artifact: { {a: len(logs[a]) for a in ARTIFACTS} }\n")

print("[graph_breaks]", *logs["graph_breaks"][0].splitlines()[:2], sep="\n  ")
print("[recompiles]", *logs["recompiles"][0].splitlines(), sep="\n  ")
trees = [r for r in logs["guards"] if "TREE_GUARD_MANAGER" in r and "L['x']" in r]
print(f"[guards] {len(trees)} guard sets for top_scores; their check on x:")
for tree in trees:
    match = re.search(r"TENSOR_MATCH: (.*?)\s+#", tree).group(1)
    print("  ", re.sub(r"DispatchKeySet\(.*?\), ", "", match))
code = logs["output_code"][0]
kernels = [line.split(" = ")[0] for line in code.splitlines() if " = async_compile." in line]
body = code.split("def call(self, args):")[1].split("\n    return")[0].splitlines()
calls = [s for s in map(str.strip, body) if s.startswith(tuple(kernels)) or "torch.ops." in s.split("(")[0]]
print(f"[output_code] first graph: {len(code.splitlines())} lines; its call() runs:", *calls, sep="\n  ")
written = next(r for r in logs["output_code"] if r.startswith("Output code written to"))
print("  written to the compile cache as", written.rsplit("/", 1)[1])
print("[perf_hints]", *sorted(set(logs["perf_hints"])), sep="\n  ")

assert "if best.sum() > 0:" in logs["graph_breaks"][0], "the graph break names the line"
assert "size mismatch at index 0" in logs["recompiles"][0], "the recompile names the failed guard"
assert len(trees) == 2 and "size=[None, 32]" in trees[1], "after the recompile, the batch size is dynamic"
assert kernels and any("topk" in c for c in calls), "generated kernels, and topk from ATen"
assert any("topk" in hint for hint in logs["perf_hints"]), "a perf hint names the topk fallback"
