"""See the code Inductor generates: eight pointwise ops become one fused kernel."""
import re
import textwrap

import torch
from torch._inductor.utils import run_and_get_code

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def gelu_ish(x):
    # Eight pointwise ops in eager, one kernel each: pow, tanh, 2 adds, 4 muls.
    return 0.5 * x * (1 + torch.tanh(0.79788456 * (x + 0.044715 * x**3)))


x = torch.randn(4096, device=DEVICE)
with torch._inductor.config.patch(fx_graph_cache=False):  # generate now, even if cached on disk
    out, sources = run_and_get_code(torch.compile(gelu_ish), x)
torch.testing.assert_close(out, gelu_ish(x))

code = "\n".join(sources)
# Each kernel is bound to a Python name: triton_* on a GPU, cpp_fused_* on a CPU.
kernels = re.findall(r"^(triton_\w+|cpp_fused_\w+) = async_compile", code, re.M)
print(f"{len(sources)} generated module(s), {len(code.splitlines())} lines; kernels: {kernels}")
print("--- the kernel (excerpt) ---")
lines = code[code.index(kernels[0] + " = async_compile"):].splitlines()
loop = next(i for i, line in enumerate(lines) if line.lstrip().startswith(("for(", "for ", "xindex")))
body = [line.rstrip() for line in lines[loop:loop + 24] if line.strip() not in ("{", "}")]
print(textwrap.dedent("\n".join(body[:22])))
print("--- the wrapper's call(): allocate the output, run the one kernel ---")
call = code[code.index("def call("):].splitlines()
print("\n".join(line.rstrip() for line in call if "buf0" in line or kernels[0] in line))

assert len(kernels) == 1, kernels  # one fused kernel for the whole expression
