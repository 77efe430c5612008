"""Peak memory (RSS) eager vs compiled, inference and training, each in a fresh process (Linux, CPU)."""
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
    class QuickGELU(nn.Module):
        def forward(self, h):
            return h * torch.sigmoid(1.702 * h)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(256, 2048), QuickGELU(), nn.Linear(2048, 2048), QuickGELU(),
                          nn.Linear(2048, 256), nn.LayerNorm(256))
    x = torch.randn(2048, 256)
    mode, task = sys.argv[1:]
    run = torch.compile(model) if mode == "compiled" else model
    def step():
        if task == "inference":
            with torch.no_grad():
                run(x)
        else:
            model.zero_grad(set_to_none=True)
            run(x).square().mean().backward()
    model.train(task == "training")
    before = mib("VmRSS")
    step()  # compiled: loads the compiler and compiles, then runs
    first = mib("VmHWM") - before
    step()
    pathlib.Path("/proc/self/clear_refs").write_text("5")  # reset the peak to the current RSS
    held = mib("VmRSS")
    for _ in range(3):
        step()
    print(before, first, mib("VmHWM") - held)
""")
# Compile in this process (not in worker processes) so its memory is counted; glibc returns freed
# blocks of 64 KiB and more to the system at once, so RSS follows the tensors that are alive.
env = {**os.environ, "TORCHINDUCTOR_COMPILE_THREADS": "1", "MALLOC_MMAP_THRESHOLD_": "65536"}
print("| task | mode | RSS before the first call | added by the first call | later calls: peak above held |")
print("|---|---|---|---|---|")
runs = {(task, mode): subprocess.Popen([sys.executable, "-c", CHILD, mode, task], env=env, text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for task in ("inference", "training") for mode in ("eager", "compiled")}  # separate processes
m = {}
for (task, mode), proc in runs.items():
    out, err = proc.communicate()
    assert proc.returncode == 0, err[-2000:]
    m[task, mode] = before, first, steady = [float(v) for v in out.split()]
    print(f"| {task} | {mode} | {before:.0f} MiB | +{first:.0f} MiB | +{steady:.0f} MiB |")
assert all(v >= 0 for vals in m.values() for v in vals)
assert m["training", "eager"][2] > m["inference", "eager"][2]  # training keeps activations for backward
