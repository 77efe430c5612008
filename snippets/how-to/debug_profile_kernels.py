"""Profile one eager and one compiled training step: the compiled region's frames and Inductor's kernels."""
import torch
import torch._inductor.config as inductor_config
from torch import nn
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.LayerNorm(256), nn.Linear(256, 10))
x = torch.randn(64, 64)


def step(fn):
    """One forward and backward; returns the gradients."""
    model.zero_grad(set_to_none=True)
    fn(x).square().mean().backward()
    return [p.grad.clone() for p in model.parameters()]


def profile_step(fn):
    step(fn)  # warm-up: compiles on the first call, so the profiled step only runs
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        grads = step(fn)
    return grads, prof.key_averages()


eager_grads, eager_events = profile_step(model)
runs = {}
# Inductor's C++ kernels are plain function calls: each gets a profiler event of its own only if
# cpp.enable_kernel_profile is on when Inductor writes the code (TORCHINDUCTOR_CPP_ENABLE_KERNEL_PROFILE=1).
for kernel_profile in (False, True):
    torch._dynamo.reset()
    with inductor_config.patch({"cpp.enable_kernel_profile": kernel_profile}):
        runs[kernel_profile] = profile_step(torch.compile(model))
grads, events = runs[True]

print("compiled step, cpp.enable_kernel_profile=True, by total CPU time:")
print(events.table(sort_by="cpu_time_total", row_limit=12, max_name_column_width=58))
names = {"eager": [e.key for e in eager_events], "compiled": [e.key for e in events],
         "compiled, kernel profile off": [e.key for e in runs[False][1]]}
frames = ("Torch-Compiled Region", "CompiledFunction", "## Call CompiledFxGraph")
for run, keys in names.items():
    print(f"{run}:")
    print("  compiled-region frames:", sorted({k[:40] for k in keys if k.startswith(frames)}) or "none")
    print("  Inductor's kernels:", sorted(k for k in keys if "cpp_fused" in k) or "none")
    print("  ATen matmuls:", sorted(k for k in keys if k in ("aten::mm", "aten::addmm")))

for g, ref in zip(grads + runs[False][0], eager_grads * 2):
    torch.testing.assert_close(g, ref, rtol=1e-4, atol=1e-5)
assert any(k.startswith("graph_") and "cpp_fused" in k for k in names["compiled"])
assert not any("cpp_fused" in k for k in names["eager"] + names["compiled, kernel profile off"])
for frame in ("Torch-Compiled Region", "CompiledFunction", "CompiledFunctionBackward", "## Call CompiledFxGraph"):
    assert any(k.startswith(frame) for k in names["compiled"]) and not any(k.startswith(frame) for k in names["eager"])
