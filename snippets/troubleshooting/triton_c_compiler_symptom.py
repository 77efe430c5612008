"""Symptom: Triton cannot build its CUDA launcher module when it finds no C compiler."""
# requires: triton
# expects: ^RuntimeError: Failed to find C compiler\. Please specify via CC environment variable or set triton\.knobs\.build\.impl\.$
import os
import pathlib
import shutil
import tempfile
import traceback

# As on a machine without gcc: no CC variable, and a PATH (an empty folder) with neither gcc nor clang.
os.environ.pop("CC", None)
empty_path, cache = tempfile.TemporaryDirectory(), tempfile.TemporaryDirectory()
os.environ["PATH"] = empty_path.name
os.environ["TRITON_CACHE_DIR"] = cache.name  # an empty cache: a module built by an earlier run cannot hide it
import triton.runtime.build as build  # noqa: E402  (Triton itself is what this recipe is about)
NVIDIA = pathlib.Path(build.__file__).parents[1] / "backends" / "nvidia"

try:
    # The call CudaUtils() in triton/backends/nvidia/driver.py makes when Triton's CUDA driver starts,
    # less the libcuda link flags (the compiler lookup fails before any linking).
    build.compile_module_from_file(src_path=str(NVIDIA / "driver.c"), name="cuda_utils",
                                   include_dirs=[str(NVIDIA / "include")])
except RuntimeError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert "Failed to find C compiler" in str(err)
else:
    raise AssertionError("Triton built C code without a C compiler: the symptom is gone in this Triton")
print("CC:", os.environ.get("CC"), "| gcc:", shutil.which("gcc"), "| clang:", shutil.which("clang"))
