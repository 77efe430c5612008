"""Symptom: Triton builds a kernel for a GPU newer than its ptxas knows, and ptxas refuses the `--gpu-name`."""
# requires: triton
# expects: ^ptxas(-blackwell)? fatal +: Value 'sm_\d+a?' is not defined for option 'gpu-name'$
import contextlib
import io
import os
import re
import subprocess
import tempfile
import traceback

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()  # an empty cache: ptxas really runs
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton's default, said out loud (silences its warning)
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.backends.nvidia.compiler import get_ptxas  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + i, tl.load(x_ptr + i, mask=i < n) + 1, mask=i < n)


# No such GPU here: take the first compute capability past the newest one Triton's ptxas lists, as a
# GPU released after this Triton. Triton compiles ahead of time for any target; no GPU is needed.
ptxas = get_ptxas(90)  # the ptxas Triton runs for compute capability 9.0 and up
listed = subprocess.run([ptxas.path, "--help"], capture_output=True, text=True).stdout
newest = max(int(n) for n in re.findall(r"'sm_(\d+)[af]?'", listed))
capability = (newest // 10 + 1) * 10
source = ASTSource(add_one, signature={"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, constexprs={"BLOCK": 128})
banner = io.StringIO()
try:
    with contextlib.redirect_stdout(banner):  # Triton prints the PTX and a banner before it raises
        triton.compile(source, target=GPUTarget("cuda", capability, 32))
except Exception as err:  # triton.runtime.errors.PTXASError
    message, kind = "".join(traceback.format_exception_only(err)), type(err).__name__
else:
    raise AssertionError(f"Triton built for sm_{capability}: its ptxas knows it, the symptom is gone")
telling = next(line for line in message.splitlines() if "fatal" in line)
print(telling, end="\n\n")  # ptxas's own line, the one to search for; Triton's whole error follows
print(message.rstrip())
print(f"\nptxas of CUDA {ptxas.version} at .../site-packages/triton/{ptxas.path.split('/triton/')[-1]}; "
      f"the newest architecture it lists: sm_{newest}")
assert kind == "PTXASError" and f"--gpu-name=sm_{capability}" in message
