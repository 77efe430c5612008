"""Fix: make the C call a custom operator with a fake implementation, keeping the autograd.Function around it."""
import importlib.util
import pathlib
import subprocess
import sysconfig
import tempfile

import torch

# The symptom's C extension, unchanged: out = x / (1 + |x|).
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


def softsign_c(x: torch.Tensor) -> torch.Tensor:  # the symptom's C call, alone in a function
    out = torch.empty_like(x)
    fastops.softsign(x.detach().contiguous().numpy(), out.numpy())
    return out


softsign = torch.library.custom_op("fastops::softsign", softsign_c, mutates_args=())  # one node, C at run time


@softsign.register_fake
def _(x):  # what the compiler needs to know without running C: the output's shape, dtype and device
    return torch.empty_like(x)


class SoftSign(torch.autograd.Function):  # the library's class, with its one C call replaced
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return softsign(x)

    @staticmethod
    def backward(ctx, grad):
        return grad / (1 + ctx.saved_tensors[0].abs()) ** 2


torch.manual_seed(0)
x = torch.randn(64, requires_grad=True)
x_eager = x.detach().clone().requires_grad_()
loss = torch.compile(lambda x: SoftSign.apply(x.sin()).sum(), fullgraph=True)(x)  # raised in the symptom
loss.backward()
eager_loss = SoftSign.apply(x_eager.sin()).sum()
eager_loss.backward()
torch.testing.assert_close((loss, x.grad), (eager_loss, x_eager.grad))
torch.library.opcheck(softsign, (torch.randn(8),))  # the fake agrees with the real operator
print("custom_op: fullgraph=True compiles; the loss and the gradient match eager's")
y = torch.randn(64)
eager_call = torch.compiler.disable(softsign_c)  # stays eager, at the price of a graph break
torch.testing.assert_close(torch.compile(lambda y: eager_call(y.sin()) * 2)(y), softsign_c(y.sin()) * 2)
disabled = torch._dynamo.explain(lambda y: eager_call(y.sin()) * 2)(y)
print(f"torch.compiler.disable: {disabled.graph_count} graphs, {disabled.graph_break_count} graph break; matches eager")
allowed = torch.compiler.allow_in_graph(softsign_c)
refused = ""
try:  # allow_in_graph is for code that can run on fake tensors; this C code reads real memory
    torch.compile(lambda y: allowed(y.sin()) * 2, fullgraph=True)(y)
except Exception as err:
    refused = f"{type(err).__name__}: {str(err).splitlines()[0]}: " + str(err).split(": got ")[-1].splitlines()[0]
print("torch.compiler.allow_in_graph:", refused or "compiled")
assert disabled.graph_break_count == 1 and "fake tensor" in refused
