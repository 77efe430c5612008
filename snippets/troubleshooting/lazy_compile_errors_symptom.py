"""Symptom: a try around torch.compile() catches nothing; the compile error comes at the first call."""
# expects: ^torch\._dynamo\.exc\.BackendCompilerFailed: backend='tvm' raised:$
import traceback

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU())
x = torch.randn(8, 16)

try:  # a backend whose package (apache-tvm) this machine lacks, as a deployment box may
    compiled = torch.compile(model, backend="tvm")  # returns at once: nothing is compiled yet
    caught_at_compile = None
except Exception as err:  # the fallback most people write; it never runs
    compiled, caught_at_compile = model, err
try:
    compiled(x)  # Dynamo traces here and hands the graph to the backend here, which fails here
except torch._dynamo.exc.BackendCompilerFailed as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    first_call_error = err
else:
    raise AssertionError("the first call compiled without a C++ compiler: the symptom is gone in this torch")
print(f"the try around torch.compile() caught: {caught_at_compile!r}")

# The backward is compiled later still, at the first backward. Inductor on a machine without a
# working C++ compiler (as in the no-cxx-compiler recipe; CPU tensors on purpose: on a GPU it writes
# Triton): a lone Linear's forward is one addmm, a library call with no generated code, while its
# backward sums the bias gradient in C++.
torch._inductor.config.cpp.cxx = ("/nonexistent/g++",)
linear = torch.nn.Linear(16, 16)
loss = torch.compile(linear)(x).square().mean()  # forward: compiled and run without error
try:
    loss.backward()
except torch._dynamo.exc.BackendCompilerFailed as err:
    backward_error = err
    first_line = "".join(traceback.format_exception_only(err)).splitlines()[0]
    print("the forward ran; the first backward raised:", first_line)
else:
    raise AssertionError("the backward compiled without a C++ compiler: the symptom is gone in this torch")

assert caught_at_compile is None
assert "tvm" in str(first_call_error) and "InvalidCxxCompiler" in str(backward_error)
