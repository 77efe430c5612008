"""Symptom: torch.compile on CPU tensors fails when inductor finds no working C++ compiler."""
# expects: ^torch\._inductor\.exc\.InductorError: InvalidCxxCompiler: 
import os
import tempfile
import traceback

cache = tempfile.TemporaryDirectory()
os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache.name  # an empty cache: no cached kernel can hide it
import torch  # noqa: E402  (after the environment variable, which torch reads at import)

# As on a machine without g++: inductor searches only a compiler that does not exist.
torch._inductor.config.cpp.cxx = ("/nonexistent/g++",)


def f(x):
    return torch.sin(x) * 2 + 1


try:
    torch.compile(f)(torch.randn(16))  # CPU tensors: inductor generates C++ and compiles it
except torch._dynamo.exc.BackendCompilerFailed as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "InvalidCxxCompiler" in str(err) and "No working C++ compiler" in str(err)
else:
    raise AssertionError("compiled without a C++ compiler: the symptom is gone in this torch")
