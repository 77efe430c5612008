"""Fix: check the C compiler and Python.h Triton will use, then build and call a C module through Triton."""
# requires: triton
import os
import pathlib
import shutil
import sysconfig
import tempfile

cache = tempfile.TemporaryDirectory()
os.environ["TRITON_CACHE_DIR"] = cache.name  # an empty cache: the compiler really runs
import torch  # noqa: E402

import triton.runtime.build as build  # noqa: E402  (Triton itself is what this recipe is about)

# Where _find_compiler("c") looks, in its order: the CC variable, then gcc, then clang on PATH.
print("CC:", os.environ.get("CC"), "| gcc:", shutil.which("gcc"), "| clang:", shutil.which("clang"))
cc = build._find_compiler("c")  # raises the symptom's RuntimeError when all three are missing
# _build adds sysconfig's include folder with -I (Debian's posix_local scheme read as posix_prefix).
scheme = sysconfig.get_default_scheme()
scheme = "posix_prefix" if scheme == "posix_local" else scheme
python_h = pathlib.Path(sysconfig.get_paths(scheme=scheme)["include"]) / "Python.h"
print(f"Triton will compile with {cc}; {python_h} exists: {python_h.exists()}")
assert python_h.exists(), "install the headers of this Python: python3-dev (or python3.X-dev)"

SOURCE = r"""
#include <Python.h>
static PyObject *add(PyObject *self, PyObject *args) {
    long a, b;
    if (!PyArg_ParseTuple(args, "ll", &a, &b)) return NULL;
    return PyLong_FromLong(a + b);
}
static PyMethodDef methods[] = {{"add", add, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef probe = {PyModuleDef_HEAD_INIT, "probe", NULL, -1, methods};
PyMODINIT_FUNC PyInit_probe(void) { return PyModule_Create(&probe); }
"""
# The same function (compile, cache, import) that builds Triton's CUDA launcher module.
probe = build.compile_module_from_src(SOURCE, "probe")
print("a C extension built by Triton's build function: probe.add(2, 3) =", probe.add(2, 3))
assert probe.add(2, 3) == 5

if torch.cuda.is_available():  # the real thing: the first Triton kernel builds cuda_utils with this compiler
    def f(x):
        return torch.sin(x) * 2 + 1

    x = torch.randn(1024, device="cuda")
    torch.testing.assert_close(torch.compile(f)(x), f(x))
    launcher = [p.name for p in pathlib.Path(cache.name).rglob("cuda_utils*")]
    print("torch.compile on CUDA matches eager; Triton built", launcher)
    assert launcher, "Triton's CUDA launcher module was not built in the empty cache"
