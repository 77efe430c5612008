"""What the installed torch says when you follow the old advice and call torch.jit.script."""
import warnings

import torch


def branchy(x):
    if x.sum() > 0:
        return torch.sin(x) * 2
    return torch.cos(x) / 2


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    scripted = torch.jit.script(branchy)  # still runs, but warns

deprecations = [w for w in caught if issubclass(w.category, (DeprecationWarning, FutureWarning))]
for w in deprecations:
    print(f"{w.category.__name__}: {w.message}")
x = torch.randn(8)
torch.testing.assert_close(scripted(x), branchy(x))
assert any("deprecated" in str(w.message) for w in deprecations), "torch.jit.script no longer warns"
