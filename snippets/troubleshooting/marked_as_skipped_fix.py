"""Fix: reorder a warning after the graph, trace a skipped torch helper, or call it outside the compiled code."""
import warnings

import torch


def scale(x):  # the symptom's functions, unchanged
    y = x.sin()
    warnings.warn("scale() is deprecated: multiply by 0.5 instead")
    return y * 0.5


def jitter(x):
    y = x.sin()
    info = torch.utils.data.get_worker_info()
    return y + (0 if info is None else info.seed)


x = torch.randn(8)

# Fix 1, a builtin such as `warnings.warn`: let Dynamo run it after the graph instead of tracing it.
torch._dynamo.config.reorderable_logging_functions.add(warnings.warn)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out = torch.compile(scale, fullgraph=True)(x)
torch.testing.assert_close(out, x.sin() * 0.5)
print(f"fix 1, reorderable_logging_functions: one graph; warnings still shown: {[str(w.message) for w in caught]}")

# Fix 2, a function torch's trace rules skip: trace into it anyway (the decorator covers the calls it makes).
out = torch.compile(torch._dynamo.dont_skip_tracing(jitter), fullgraph=True)(x)
torch.testing.assert_close(out, jitter(x))
print("fix 2, torch._dynamo.dont_skip_tracing: one graph, equal to eager")

# Fix 3, either kind: call it before the compiled region and pass its result in.
info = torch.utils.data.get_worker_info()
seed = 0 if info is None else info.seed
out = torch.compile(lambda x, seed: x.sin() + seed, fullgraph=True)(x, seed)
torch.testing.assert_close(out, jitter(x))
print("fix 3, call it outside and pass the result: one graph, equal to eager")

# dont_skip_tracing cannot open a builtin: it has no Python source to trace.
torch._dynamo.reset()
torch._dynamo.config.reorderable_logging_functions.discard(warnings.warn)
try:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.compile(torch._dynamo.dont_skip_tracing(scale), fullgraph=True)(x)
except Exception as err:  # AssertionError in torch 2.15, from torch/_dynamo/trace_rules.py
    builtin = f"{type(err).__name__}: {str(err).splitlines()[0]}"
else:
    builtin = "compiled"
print(f"dont_skip_tracing on warnings.warn: {builtin}")

assert len(caught) == 1 and builtin != "compiled"
