"""Fix: GPU memory per compile mode; without CUDA graphs, or with inputs padded to one size."""
# requires: cuda
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import sys, torch
    from torch import nn
    case = sys.argv[1]
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda().eval()
    mode = {"eager": None, "default": "default"}.get(case, "reduce-overhead")
    run = model if mode is None else torch.compile(model, mode=mode, dynamic=False)
    sizes = (64, 40, 48, 56) if "sizes" in case else (64,)
    with torch.no_grad():
        for _ in range(3):
            for n in sizes:
                x = torch.randn(n, 1024, device="cuda")
                if case == "padded":  # pad every batch to one bucket size, use the first n rows
                    x = torch.nn.functional.pad(x, (0, 0, 0, 64 - n))
                out = run(x)[:n].clone()
                torch.testing.assert_close(out, model(x)[:n], rtol=1e-3, atol=1e-3)
    torch.cuda.synchronize()
    print(torch.cuda.max_memory_allocated() / 2**20, torch.cuda.memory_allocated() / 2**20)
""")
cases = {"eager": "eager", "default": "mode='default'", "reduce-overhead": "mode='reduce-overhead'",
         "sizes": "reduce-overhead, 4 batch sizes", "padded": "reduce-overhead, 4 sizes padded to 1"}
mib = {}
for case, label in cases.items():
    out = subprocess.run([sys.executable, "-c", CHILD, case], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    mib[case] = [float(v) for v in out.stdout.split()]
    print(f"{label:36} peak {mib[case][0]:7.1f} MiB, held after the loop {mib[case][1]:7.1f} MiB")
# CUDA graphs keep their inputs, outputs and memory pool alive between calls; without them,
# or with fewer recorded graphs, less is allocated.
assert mib["default"][1] <= mib["reduce-overhead"][1]
assert mib["padded"][1] <= mib["sizes"][1]
