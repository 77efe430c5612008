"""Symptom: Triton's C build fails in gcc when Python's headers (python3-dev) are not installed."""
# requires: triton
# expects: ^\S+driver\.c:\d+:\d+: fatal error: Python\.h: No such file or directory$
import os
import pathlib
import subprocess
import sysconfig
import tempfile
import traceback

cache, no_headers = tempfile.TemporaryDirectory(), tempfile.TemporaryDirectory()
os.environ["TRITON_CACHE_DIR"] = cache.name  # an empty cache: a module built by an earlier run cannot hide it
import triton.runtime.build as build  # noqa: E402  (Triton itself is what this recipe is about)
NVIDIA = pathlib.Path(build.__file__).parents[1] / "backends" / "nvidia"

# As on a machine without python3-dev: _build passes `-I` + sysconfig.get_paths()["include"] to gcc,
# and there Python.h does not exist. Point that one entry at an empty folder; gcc stays the real one.
real_get_paths = sysconfig.get_paths
sysconfig.get_paths = lambda *args, **kw: {**real_get_paths(*args, **kw), "include": no_headers.name}

failure = None
with tempfile.TemporaryFile("w+") as gcc_said:
    saved_stderr = os.dup(2)
    os.dup2(gcc_said.fileno(), 2)  # gcc writes to the stderr it inherits: keep it to print it first
    try:
        # CudaUtils() in triton/backends/nvidia/driver.py makes this call, plus the libcuda link flags
        build.compile_module_from_file(src_path=str(NVIDIA / "driver.c"), name="cuda_utils",
                                       include_dirs=[str(NVIDIA / "include")])
    except subprocess.CalledProcessError as err:
        failure = err
    finally:
        os.dup2(saved_stderr, 2)
        sysconfig.get_paths = real_get_paths
    gcc_said.seek(0)
    said = gcc_said.read()

if failure is None:
    raise AssertionError("built without Python.h: the symptom is gone in this Triton")
print(said, end="")  # gcc's own words, then the last line of Python's traceback
print("".join(traceback.format_exception_only(failure)), end="")
assert "Python.h: No such file or directory" in said and failure.returncode != 0
