"""Symptom: peak memory (RSS) of a small training loop, eager vs compiled, each in a fresh process."""
# expects: ^peak RSS of the process after the first step: eager \d+ MiB, compiled \d+ MiB
import os
import pathlib
import subprocess
import sys
import textwrap

assert pathlib.Path("/proc/self/status").exists(), "this measurement reads Linux's /proc/self/status"

CHILD = textwrap.dedent("""
    import pathlib, sys, torch
    from torch import nn
    def mib(field):  # the kernel's count of this process's resident memory (VmRSS now, VmHWM peak)
        status = pathlib.Path("/proc/self/status").read_text().splitlines()
        return int(next(line for line in status if line.startswith(field)).split()[1]) / 1024
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 512), nn.LayerNorm(512))
    x = torch.randn(1024, 512)
    before = mib("VmRSS")
    run = torch.compile(model) if sys.argv[1] == "compiled" else model
    def step():
        model.zero_grad(set_to_none=True)
        run(x).square().mean().backward()
    step()  # compiled: loads the compiler, compiles forward and backward, then runs them
    peak, first = mib("VmHWM"), mib("VmHWM") - before
    step()
    pathlib.Path("/proc/self/clear_refs").write_text("5")  # reset the peak to the current RSS
    held = mib("VmRSS")
    for _ in range(3):
        step()
    print(peak, first, mib("VmHWM") - held)
""")
# Compile in this process (not in worker processes), so its memory is counted; glibc returns freed
# blocks of 64 KiB and more to the system at once, so RSS follows the tensors that are alive.
env = {**os.environ, "TORCHINDUCTOR_COMPILE_THREADS": "1", "MALLOC_MMAP_THRESHOLD_": "65536"}
m = {}
for mode in ("eager", "compiled"):
    out = subprocess.run([sys.executable, "-c", CHILD, mode], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    m[mode] = [float(v) for v in out.stdout.split()]
print(f"peak RSS of the process after the first step: eager {m['eager'][0]:.0f} MiB, "
      f"compiled {m['compiled'][0]:.0f} MiB")
print(f"added by the first step: eager +{m['eager'][1]:.0f} MiB, compiled +{m['compiled'][1]:.0f} MiB"
      " (compiled: includes loading the compiler and compiling)")
print(f"peak of later steps above the memory held between steps: eager +{m['eager'][2]:.0f} MiB, "
      f"compiled +{m['compiled'][2]:.0f} MiB")
assert all(v > 0 for v in m["eager"] + m["compiled"][:2])
