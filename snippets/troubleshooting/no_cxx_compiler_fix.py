"""Fix: give inductor a C++ compiler that exists, or use a backend that generates no code."""
import os
import pathlib
import shutil
import tempfile

cache = tempfile.TemporaryDirectory()
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache.name  # an empty cache: the compiler really runs
import torch  # noqa: E402
from torch._inductor import cpp_builder  # noqa: E402

# What inductor searches, in order (None: a conda download, only if TORCH_INDUCTOR_INSTALL_GXX is set).
print("inductor's search list (torch._inductor.config.cpp.cxx):", torch._inductor.config.cpp.cxx)

cxx = shutil.which("g++") or shutil.which("c++") or shutil.which("clang++")
assert cxx, "no C++ compiler on PATH: install one (apt install g++, conda install -c conda-forge gxx)"
torch._inductor.config.cpp.cxx = (cxx,)  # same effect as `export CXX=/path/to/g++` before starting Python
print("compiler inductor will use:", cpp_builder.get_cpp_compiler())


def f(x):
    return torch.sin(x) * 2 + 1


x = torch.randn(16)
torch.testing.assert_close(torch.compile(f)(x), f(x))
libraries = [p.name for p in pathlib.Path(cache.name).rglob("*.so")]
print(f"inductor: output matches eager; {cxx} built {len(libraries)} .so files in the cache")

# No compiler can be installed? aot_eager traces the same graphs but generates no code (so no speedup).
torch._dynamo.reset()
torch.testing.assert_close(torch.compile(f, backend="aot_eager")(x), f(x))
print('backend="aot_eager": output matches eager, no compiler needed')
# It is tagged "debug", which list_backends() leaves out by default; exclude_tags=None lists every backend.
listed, listed_all = torch.compiler.list_backends(), torch.compiler.list_backends(exclude_tags=None)
print(f'"aot_eager" in list_backends(): {"aot_eager" in listed}; with exclude_tags=None: {"aot_eager" in listed_all}')
assert libraries, "inductor compiled nothing: a cached kernel hid the compiler"
assert "aot_eager" not in listed and "aot_eager" in listed_all
