"""Fix: find the ptxas Triton runs for your GPU, check that it lists the GPU, and point Triton at one that does."""
# requires: triton
import os
import re
import subprocess
import tempfile

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton's default, said out loud (silences its warning)
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.backends.nvidia.compiler import get_ptxas  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

CAPABILITY = 120  # the GPU of the message, sm_120: torch.cuda.get_device_capability() says (12, 0)
# Each ptxas Triton may run, and the variable that replaces it (triton/knobs.py, nvidia_knobs).
KNOBS = {d.binary: d.key for d in vars(type(triton.knobs.nvidia)).values() if getattr(d, "binary", "").startswith("ptxas")}


@triton.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + i, tl.load(x_ptr + i, mask=i < n) + 1, mask=i < n)


def listed(path):
    """The sm_XY values a ptxas accepts for --gpu-name, read from its --help."""
    text = subprocess.run([path, "--help"], capture_output=True, text=True, check=True).stdout
    return {int(n) for n in re.findall(r"'sm_(\d+)[af]?'", text)}


def compile_for(capability):
    """Compile the kernel for that GPU, in an empty cache so that ptxas runs (no GPU is needed): its PTX and cubin."""
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()
    source = ASTSource(add_one, signature={"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                       constexprs={"BLOCK": 128})
    asm = triton.compile(source, target=GPUTarget("cuda", capability, 32)).asm
    return re.search(r"\.version (\S+)", asm["ptx"]).group(1), asm["cubin"]


print(f"triton {triton.__version__}; its ptxas, by the GPU it compiles for:")
for capability in (80, CAPABILITY):
    tool = get_ptxas(capability)
    name = os.path.basename(tool.path)
    print(f"  compute capability {capability}: {name} of CUDA {tool.version} (replaced by {KNOBS[name]}); "
          f"lists sm_{capability}: {capability in listed(tool.path)}, newest: sm_{max(listed(tool.path))}")
bundled = get_ptxas(CAPABILITY)
knob = KNOBS[os.path.basename(bundled.path)]
ptx, cubin = compile_for(CAPABILITY)
print(f"sm_{CAPABILITY}: compiled with the bundled ptxas (PTX ISA {ptx}), a cubin built")
assert CAPABILITY in listed(bundled.path) and cubin

# The fix for an older Triton: point the variable at a newer ptxas (a CUDA toolkit's bin/ptxas). Here the
# other bundled ptxas stands in for it. Triton reads the variable at each compile, and the PTX ISA
# version it writes follows that ptxas's CUDA release (triton/backends/nvidia/compiler.py).
other = next(p for p in (os.path.join(os.path.dirname(bundled.path), b) for b in KNOBS) if p != bundled.path)
os.environ[knob] = other
now, (ptx_other, cubin_other) = get_ptxas(CAPABILITY), compile_for(CAPABILITY)
print(f"{knob}={os.path.basename(other)}: sm_{CAPABILITY} uses {os.path.basename(now.path)} of CUDA {now.version} "
      f"(PTX ISA {ptx_other}), a cubin built")
os.environ[knob] = os.path.join(tempfile.mkdtemp(), "ptxas")  # a path with nothing there
fallback = get_ptxas(CAPABILITY)
print(f"{knob} naming a missing file: Triton silently uses {os.path.basename(fallback.path)} of CUDA {fallback.version}")
assert now.path == other and cubin_other and ptx_other != ptx and fallback.path == bundled.path
