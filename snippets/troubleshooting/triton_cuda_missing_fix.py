"""Fix: check what this torch can use, then compile for a device and backend that work here."""
import importlib.metadata
import importlib.util

import torch
from torch.utils._triton import has_triton

print(f"torch {torch.__version__}: built for CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}")
if torch.version.cuda:  # the index that serves this build's wheels: install matching ones from it
    print("wheel index of this build: https://download.pytorch.org/whl/cu" + torch.version.cuda.replace(".", ""))
print("its triton requirement:", [r for r in importlib.metadata.requires("torch") or [] if r.startswith("triton")])
print("triton importable:", importlib.util.find_spec("triton") is not None)
print("GPU usable (torch.cuda.is_available()):", torch.cuda.is_available())

device, backend = "cpu", "inductor"  # inductor on the CPU generates C++: it needs a C++ compiler
if torch.cuda.is_available():
    major, minor = torch.cuda.get_device_capability()
    print(f"GPU: {torch.cuda.get_device_name()}, compute capability {major}.{minor}")
    # inductor's own test: a working triton for a GPU of capability >= 7.0
    device, backend = "cuda", ("inductor" if has_triton() else "aot_eager")
print(f"inductor can generate Triton kernels here: {has_triton()} -> compiling on {device} with {backend}")


def f(x):
    return torch.sin(x) * 2 + 1


x = torch.randn(1024, device=device)
torch.testing.assert_close(torch.compile(f, backend=backend)(x), f(x))
print("compiled output matches eager")
