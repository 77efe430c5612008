"""Backend ablation: compile with each stage added in turn to find the one that breaks the result."""
import time

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
# Each backend adds one stage of the torch.compile pipeline to the one before it.
BACKENDS = {
    "eager": "Dynamo graph capture, graph run by eager PyTorch",
    "aot_eager": "+ AOTAutograd (ATen graph, functionalized)",
    "aot_eager_decomp_partition": "+ Inductor's decompositions and partitioner",
    "inductor": "+ Inductor code generation",
}


def layer(x, w, b):
    h = torch.relu(x @ w + b)
    return F.layer_norm(h, h.shape[-1:]) * torch.sigmoid(h)


def ablate(bug):
    """Max |compiled - eager| per backend, or the error that backend raised."""
    found = {}
    # A stand-in for a compiler bug: a test-only switch in Inductor's relu, CPU and GPU.
    with torch._inductor.config.patch({"cpp.inject_relu_bug_TESTING_ONLY": bug,
                                       "triton.inject_relu_bug_TESTING_ONLY": bug}):
        for backend in BACKENDS:
            torch._dynamo.reset()  # compile afresh for each backend
            try:
                out = torch.compile(layer, backend=backend)(*inputs)
                found[backend] = (out - expected).abs().max().item()
            except Exception as e:  # noqa: BLE001 - a crash is a result too: name it
                found[backend] = f"{type(e).__name__}: {str(e).splitlines()[0][:40]}"
    return found


torch.manual_seed(0)
inputs = (torch.randn(32, 64, device=device), torch.randn(64, 64, device=device),
          torch.randn(64, device=device))
expected = layer(*inputs)

results = {}
for bug in ("accuracy", "compile_error"):
    t0 = time.perf_counter()
    results[bug] = ablate(bug)
    print(f"injected bug: {bug!r} (ablation took {time.perf_counter() - t0:.1f} s)")
    print(f"  {'backend':28} {'stages':50} max |diff| vs eager")
    for backend, stages in BACKENDS.items():
        found = results[bug][backend]
        shown = f"{found:.2e}" if isinstance(found, float) else f"raised {found}"
        print(f"  {backend:28} {stages:50} {shown}")


def first_bad(found, tol=1e-4):
    return next(b for b, r in found.items() if isinstance(r, str) or r > tol)


for bug, found in results.items():
    print(f"{bug}: first backend that differs from eager: {first_bad(found)!r}")
    assert first_bad(found) == "inductor"  # the bug lives in code generation, as injected
    assert found["eager"] == 0.0  # Dynamo alone replays the same ops: identical bits
assert isinstance(results["compile_error"]["inductor"], str)
