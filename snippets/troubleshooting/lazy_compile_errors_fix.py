"""Fix: try the compiled model once and fall back to eager, or use force_eager or suppress_errors."""
import logging
import sys

import torch
from torch._dynamo.utils import counters

# The symptom's machine: inductor cannot build C++ (CPU tensors on purpose, as in the symptom).
torch._inductor.config.cpp.cxx = ("/nonexistent/g++",)
logging.getLogger("train").addHandler(stdout := logging.StreamHandler(sys.stdout))
stdout.setFormatter(logging.Formatter("   %(levelname)s %(name)s: %(message)s"))


def compile_or_eager(model, sample, train, **options):
    """torch.compile(model), tried once on `sample` (a backward too if `train`); `model` if that fails."""
    compiled = torch.compile(model, **options)
    state = {name: t.clone() for name, t in model.state_dict().items()}  # BatchNorm's running stats too
    try:
        with torch.random.fork_rng():  # the trial's dropout draws leave the real run's random numbers alone
            loss = compiled(sample).square().mean()
            if train:
                loss.backward()  # the backward graph is compiled here, at its first call
        return compiled
    except Exception as err:  # BackendCompilerFailed, Unsupported, ...: all raised at the first call
        logging.getLogger("train").warning("compile failed, running eagerly: %s", str(err).splitlines()[0])
        return model
    finally:  # the trial step is not a training step: undo what it changed in the real model
        model.load_state_dict(state)
        model.zero_grad(set_to_none=True)


torch.manual_seed(0)
mlp = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU())  # needs C++: fails in the forward
linear = torch.nn.Linear(16, 16)  # its forward needs no generated code, its backward does
norm = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.BatchNorm1d(16), torch.nn.Dropout())
x = torch.randn(8, 16)
print("1. a guarded first call (the last model with aot_eager, which needs no compiler: its trial runs)")
for name, model, train, options, expected in (
        ("Linear+ReLU", mlp, False, {}, "eager"), ("Linear", linear, False, {}, "compiled"),
        ("Linear", linear, True, {}, "eager"),  # the lone Linear's failure shows only in a backward
        ("Linear+BatchNorm1d+Dropout", norm, True, {"backend": "aot_eager"}, "compiled")):
    before = [t.clone() for t in model.state_dict().values()] + [torch.get_rng_state()]
    chosen = compile_or_eager(model, x, train, **options)
    kind = "eager" if chosen is model else "compiled"
    same = all(map(torch.equal, before, [*model.state_dict().values(), torch.get_rng_state()]))
    print(f"   {name}, train={train}: runs {kind}; weights, buffers and RNG as before the trial: {same}")
    model.eval()  # no dropout, BatchNorm on its running stats: compiled and eager outputs must agree
    torch.testing.assert_close(chosen(x), model(x))
    assert same and kind == expected
print("2. torch.compiler.set_stance('force_eager'): every torch.compile is ignored")
counters.clear()
with torch.compiler.set_stance("force_eager"):
    (out := torch.compile(mlp)(x)).square().mean().backward()
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
    print(f"   calls: {len(outs)}, graphs compiled: {graphs}, frames Dynamo looked at: {frames} (no retry)")
    torch.testing.assert_close(outs, [mlp(x)] * len(outs))
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
