"""Print the versions in use and which generation of PyTorch's execution modes they offer."""
import platform
import sys
import warnings

import torch

print(f"torch            {torch.__version__}")
print(f"Python           {platform.python_version()} ({platform.python_implementation()})")
print(f"CUDA build       {torch.version.cuda or 'none (CPU-only wheel)'}")
print(f"CUDA available   {torch.cuda.is_available()}")
print(f"Dynamo supported {torch._dynamo.is_dynamo_supported()}  (torch.compile can trace here)")
print(f"Inductor usable  {torch._dynamo.is_inductor_supported()}")

# Each generation is still importable; which ones does this torch provide?
generations = {
    "eager (define-by-run)": hasattr(torch.Tensor, "backward"),
    "TorchScript torch.jit.script": hasattr(torch.jit, "script"),
    "torch.compile": hasattr(torch, "compile"),
    "torch.export": hasattr(torch, "export") and hasattr(torch.export, "export"),
    "torch.cond (control flow in a graph)": hasattr(torch, "cond"),
}
for name, present in generations.items():
    print(f"  {name:<38} {'yes' if present else 'no'}")


def double(x: torch.Tensor) -> torch.Tensor:
    return x * 2


# TorchScript still works, but this torch says what to use instead.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    scripted = torch.jit.script(double)
notes = [str(w.message) for w in caught if issubclass(w.category, FutureWarning)]
print("torch.jit.script warns:", notes[0] if notes else "(no deprecation warning in this torch)")

x = torch.arange(4.0)
torch.testing.assert_close(scripted(x), double(x))
if torch._dynamo.is_dynamo_supported():
    torch.testing.assert_close(torch.compile(double)(x), double(x))
assert all(generations.values()), generations
assert sys.version_info >= (3, 9)
