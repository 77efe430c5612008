"""Symptom: `fullgraph=True` meets a C extension that a library calls in an autograd.Function's forward."""
# expects: ^Explanation: Dynamo does not know how to trace the builtin `fastops\.softsign\.` This function is either a Python builtin .* or a third-party C/C\+\+ Python extension
import importlib.util
import pathlib
import subprocess
import sysconfig
import tempfile
import traceback
import warnings

import torch

# A third-party C extension, built here (a C compiler and Python.h are all it needs): out = x / (1 + |x|).
C_SOURCE = r"""
#include <Python.h>
static PyObject *softsign(PyObject *self, PyObject *args) {
    Py_buffer x, out;  /* float32 buffers */
    if (!PyArg_ParseTuple(args, "y*w*", &x, &out)) return NULL;
    float *in = x.buf, *o = out.buf;
    for (Py_ssize_t i = 0; i < x.len / 4; i++) o[i] = in[i] / (1.0f + (in[i] < 0 ? -in[i] : in[i]));
    PyBuffer_Release(&x); PyBuffer_Release(&out); Py_RETURN_NONE;
}
static PyMethodDef methods[] = {{"softsign", softsign, METH_VARARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "fastops", NULL, -1, methods};
PyMODINIT_FUNC PyInit_fastops(void) { return PyModule_Create(&module); }
"""
build = pathlib.Path(tempfile.mkdtemp())
(build / "fastops.c").write_text(C_SOURCE)
library = build / ("fastops" + sysconfig.get_config_var("EXT_SUFFIX"))
subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-I", sysconfig.get_config_var("INCLUDEPY"),
                str(build / "fastops.c"), "-o", str(library)], check=True)
fastops = importlib.util.module_from_spec(spec := importlib.util.spec_from_file_location("fastops", library))
spec.loader.exec_module(fastops)


class SoftSign(torch.autograd.Function):  # how a library hands its C kernel to autograd
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        out = torch.empty_like(x)
        fastops.softsign(x.numpy(), out.numpy())  # the C code reads and writes the tensors' memory
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad / (1 + ctx.saved_tensors[0].abs()) ** 2


def model(x):
    return SoftSign.apply(x.sin()).sum()


torch.manual_seed(0)
x = torch.randn(64, requires_grad=True)
try:
    torch.compile(model, fullgraph=True)(x)
except torch._dynamo.exc.Unsupported as err:
    message = "".join(traceback.format_exception_only(err))
else:
    raise AssertionError("fullgraph=True compiled the C call: the symptom is gone in this torch")
telling = next(line.strip() for line in message.splitlines() if line.strip().startswith("Explanation:"))
print(telling, end="\n\n")  # the line that tells this call apart from other skipped ones; the whole error follows
print(message, end="")

# The default fullgraph=False raises nothing: a warning on stderr, graph breaks, and eager's results.
torch._dynamo.reset()  # also forgets which warnings Dynamo has shown (it shows each text once)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.compile(model)(x).backward()
warned = [str(w.message).splitlines()[0] for w in caught if "fastops.softsign" in str(w.message)]
found = torch._dynamo.explain(model)(x)
x_eager = x.detach().clone().requires_grad_()
model(x_eager).backward()
print(f"with fullgraph=False: {found.graph_count} graphs, {found.graph_break_count} graph breaks; "
      f"the gradient matches eager's: {torch.allclose(x.grad, x_eager.grad)}; UserWarning: {warned[0]}")
assert "fastops.softsign" in telling and "Higher Order Operator: autograd.Function" in message
assert found.graph_break_count >= 1 and torch.allclose(x.grad, x_eager.grad)
