"""Deploy without Python model code: torch.export -> AOTInductor .pt2 package -> load and run."""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

import torch
from torch import nn


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(32, 64), nn.Linear(64, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
model = TinyNet().to(device).eval()
example = torch.randn(8, 32, device=device)

# 1. Export: one whole graph, no Python left in it; the batch dimension is declared dynamic.
batch = torch.export.Dim("batch", min=1, max=1024)
exported = torch.export.export(model, (example,), dynamic_shapes={"x": {0: batch}})
print("exported graph ops:", sum(n.op == "call_function" for n in exported.graph.nodes))

with tempfile.TemporaryDirectory() as tmp:
    # 2. Compile ahead of time with Inductor and write one .pt2 file.
    t0 = time.perf_counter()
    path = torch._inductor.aoti_compile_and_package(exported, package_path=os.path.join(tmp, "tiny.pt2"))
    print(f"aoti_compile_and_package: {time.perf_counter() - t0:.1f} s (one run) -> "
          f"{os.path.basename(path)}, {os.path.getsize(path) / 1024:.0f} KiB, containing:")
    shutil.unpack_archive(path, os.path.join(tmp, "unpacked"), "zip")  # a .pt2 is a zip archive
    for f in sorted(pathlib.Path(tmp, "unpacked").rglob("*")):
        if f.is_file():
            print(f"  {f.relative_to(tmp, 'unpacked').as_posix()}  ({f.stat().st_size / 1024:.0f} KiB)")

    # 3. Load it in a fresh process that never sees the TinyNet class, and run another batch size.
    x = torch.randn(3, 32, device=device)
    torch.save(x, os.path.join(tmp, "x.pt"))
    child = textwrap.dedent("""
        import sys, torch
        runner = torch._inductor.aoti_load_package(sys.argv[1] + "/tiny.pt2")
        x = torch.load(sys.argv[1] + "/x.pt")
        torch.save(runner(x), sys.argv[1] + "/y.pt")
    """)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", child, tmp], check=True)
    print(f"fresh process: import torch + load package + run: {time.perf_counter() - t0:.1f} s (one run)")
    out = torch.load(os.path.join(tmp, "y.pt"))

    # 4. Compare with eager.
    with torch.no_grad():
        expected = model(x)
    torch.testing.assert_close(out, expected)
    print(f"package output {tuple(out.shape)} matches eager (batch 3, exported with batch 8)")

assert out.shape == (3, 4)
