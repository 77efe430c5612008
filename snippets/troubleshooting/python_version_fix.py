"""Fix: check that this Python is one the installed torch supports for torch.compile."""
import importlib.metadata
import platform
import sys

import torch
import torch._dynamo

print(f"Python {platform.python_version()} ({platform.python_implementation()}), torch {torch.__version__}")
meta = importlib.metadata.metadata("torch")
print("torch's Requires-Python:", meta["Requires-Python"])
tested = [c.rsplit("::", 1)[1].strip() for c in meta.get_all("Classifier") or []
          if c.startswith("Programming Language :: Python :: 3.")]
print("Python versions torch's wheel lists (PyPI classifiers):", ", ".join(tested))

supported = torch._dynamo.is_dynamo_supported()  # the check torch.compile runs before tracing
print("torch._dynamo.is_dynamo_supported():", supported)
assert supported, f"torch.compile does not support Python {platform.python_version()} in torch {torch.__version__}"
assert f"{sys.version_info.major}.{sys.version_info.minor}" in tested, "this Python is not in torch's classifiers"


def f(x):
    return torch.sin(x) + 1


x = torch.randn(8)
torch.testing.assert_close(torch.compile(f, backend="eager")(x), f(x))  # Dynamo runs on this Python
print("torch.compile traced f on this Python: OK")
