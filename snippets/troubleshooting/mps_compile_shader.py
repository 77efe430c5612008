"""Symptom: Metal rejects a shader, as when it rejects one that torch.compile generated for MPS tensors."""
# requires: mps
import traceback

from torch._inductor.runtime.runtime_utils import compile_mps_shader

# A missing ';' makes Metal reject this shader every time; in practice it is one Inductor generated
BROKEN = "kernel void add_one(device float* x, uint i [[thread_position_in_grid]]) { x[i] += 1.0f }"
try:
    compile_mps_shader(BROKEN)  # what the code Inductor generates for MPS calls to build its kernels
except SyntaxError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert str(err).startswith("failed to compile ")
else:
    raise AssertionError("Metal compiled a shader with a syntax error")
