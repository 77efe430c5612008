"""Fix: try the compiled model once and fall back to eager, or use force_eager or suppress_errors."""
import logging
import sys

import torch
from torch._dynamo.utils import counters

# The symptom's machine: inductor cannot build C++ (CPU tensors on purpose, as in the symptom).
torch._inductor.config.cpp.cxx = ("/nonexistent/g++",)
log = logging.getLogger("train")
log.addHandler(stdout := logging.StreamHandler(sys.stdout))
stdout.setFormatter(logging.Formatter("   %(levelname)s %(name)s: %(message)s"))


def compile_or_eager(model, sample, train):
    """torch.compile(model), tried once on `sample` (with a backward if `train`); `model` if that fails."""
    compiled = torch.compile(model)
    try:
        loss = compiled(sample).square().mean()
        if train:
            loss.backward()  # the backward graph is compiled here, at its first call
        return compiled
    except Exception as err:  # BackendCompilerFailed, Unsupported, ...: all raised at the first call
        log.warning("torch.compile failed, running %s eagerly: %s", type(model).__name__,
                    str(err).splitlines()[0])
        return model
    finally:
        model.zero_grad(set_to_none=True)  # the trial step is not a training step


torch.manual_seed(0)
mlp = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU())  # needs C++: fails in the forward
linear = torch.nn.Linear(16, 16)  # its forward needs no generated code, its backward does
x = torch.randn(8, 16)

print("1. a guarded first call")
kinds = []
for model, train in ((mlp, False), (linear, False), (linear, True)):
    chosen = compile_or_eager(model, x, train)
    kinds.append("eager" if chosen is model else "compiled")
    print(f"   {type(model).__name__}, train={train}: runs {kinds[-1]}")
    torch.testing.assert_close(chosen(x), model(x))
assert kinds == ["eager", "compiled", "eager"]  # the lone Linear's failure shows only in a backward

print("2. torch.compiler.set_stance('force_eager'): every torch.compile is ignored")
counters.clear()
with torch.compiler.set_stance("force_eager"):
    out = torch.compile(mlp)(x)
    out.square().mean().backward()
print(f"   frames Dynamo looked at: {counters['frames']['total']}")
torch.testing.assert_close(out, mlp(x))
assert counters["frames"]["total"] == 0

print("3. torch._dynamo.config.suppress_errors = True: a failing frame runs eagerly, with a warning")
dynamo_warnings = []
logging.getLogger("torch._dynamo").addHandler(handler := logging.Handler(logging.WARNING))
handler.emit = lambda record: dynamo_warnings.append(record.getMessage())  # printed on stderr too
torch._dynamo.reset()
counters.clear()
with torch._dynamo.config.patch(suppress_errors=True):
    compiled = torch.compile(mlp)
    outs = [compiled(x) for _ in range(3)]
    frames, graphs = counters["frames"]["total"], counters["stats"]["unique_graphs"]
    print("   the warning's first line:", dynamo_warnings[0].splitlines()[0])
    print("   and its error:", next(ln for ln in dynamo_warnings[0].splitlines() if ln.startswith("torch._")))
    print(f"   calls: {len(outs)}, graphs compiled: {graphs}, frames Dynamo looked at: {frames} "
          "(later calls do not try again)")
    for out in outs:
        torch.testing.assert_close(out, mlp(x))
    torch._dynamo.reset()
    loss = torch.compile(linear)(x).square().mean()  # the forward compiles
    try:
        loss.backward()
    except torch._dynamo.exc.BackendCompilerFailed as err:
        print("   but a failing backward is not suppressed:", str(err).splitlines()[0])
    else:
        raise AssertionError("suppress_errors now covers the backward's compile")
assert graphs == 0 and frames == 1 and len(dynamo_warnings) == 1  # one try, then eager for good
assert counters["stats"]["unique_graphs"] == 1  # the lone Linear's forward compiled, its backward raised
