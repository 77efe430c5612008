"""The articles' APIs, checked against the installed torch: what exists, what is deprecated."""
import warnings

import torch

print(f"torch {torch.__version__}")

# One article debugs numerics with torch.debug_assertions(): there is no such function.
print("torch.debug_assertions exists:", hasattr(torch, "debug_assertions"))

# Its compile example lists three modes; the installed torch knows these:
modes = sorted(torch._inductor.list_mode_options())
print("torch.compile modes:", ", ".join(modes))

# It recommends torch.jit.script for dynamic control flow. TorchScript still runs, but recent
# torch releases warn that it is deprecated (a FutureWarning or DeprecationWarning).
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")

    @torch.jit.script
    def dynamic_branch(x):
        if bool(x.sum() > 0):
            return x * 2
        return x / 2

    out = dynamic_branch(torch.ones(3))
deprecations = [str(w.message).splitlines()[0] for w in caught 
                if issubclass(w.category, (DeprecationWarning, FutureWarning))]
print("torch.jit.script warnings:", deprecations or "none")

# The other article's my_model calls x.t without parentheses: a method, not a tensor.
x = torch.randn(10, 10)
print("type of x.t:", type(x.t).__name__, "| x.t() shape:", tuple(x.t().shape))

assert not hasattr(torch, "debug_assertions")
assert {"default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"} <= set(modes)
assert torch.equal(out, torch.full((3,), 2.0))
assert callable(x.t) and not isinstance(x.t, torch.Tensor)
