"""Look inside Mega-Cache: which cache entries save_cache_artifacts() packs, and how many bytes they take."""
import os
import tempfile
import time
from pathlib import Path

TMP = tempfile.TemporaryDirectory()
CACHE = Path(TMP.name)
os.environ["TORCHINDUCTOR_CACHE_DIR"] = TMP.name  # an empty cache directory, set before torch is imported

import torch
from torch import nn

torch.compiler.config.job_id = "cache-demo"  # names the job, which turns on Dynamo's PGO profile

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 64)).to(device)
x = torch.randn(8, 64, device=device)
t0 = time.perf_counter()
torch.compile(model)(x).sum().backward()  # a training step: a forward and a backward graph
if device == "cuda":
    torch.cuda.synchronize()
print(f"compile + first training step: {time.perf_counter() - t0:.2f} s (empty cache directory)")

artifact_bytes, info = torch.compiler.save_cache_artifacts()
print(f"save_cache_artifacts(): {len(artifact_bytes):,} bytes\n")


def du(path):
    """Bytes under `path` (0 if it does not exist)."""
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


# Where each type of entry lives in TORCHINDUCTOR_CACHE_DIR. On a CPU this run writes no autotune or
# precompile entry; on a GPU its Triton kernels' tuned configs (.best_config files beside them) are autotune ones.
FOLDER = {"inductor": "fxgraph", "aot_autograd": "aotautograd", "pgo": "dynamo", "autotune": None,
          "precompile": None}
print(f"{'artifact type':<14} {'entries':>7}   their folder on disk")
packed = 0
for kind, folder in FOLDER.items():
    keys = getattr(info, f"{kind}_artifacts")  # CacheInfo has one such list per artifact type
    on_disk = du(CACHE / folder) if folder else 0
    packed += on_disk
    print(f"{kind:<14} {len(keys):>7}   " + (f"{folder + '/':<13} {on_disk:>9,} bytes" if folder else "-"))
whole = du(CACHE)
print(f"\nthese folders: {packed:,} bytes; the whole cache directory: {whole:,} bytes")
print("shared libraries (ELF files) inside the bytes:", artifact_bytes.count(b"\x7fELF"),
      "| in the directory:", sum(1 for f in CACHE.rglob("*.so")))

assert len(info.inductor_artifacts) == 2, "one Inductor entry each for the forward and the backward graph"
assert len(info.aot_autograd_artifacts) == 1, "one AOTAutograd entry for the Dynamo graph"
assert len(info.pgo_artifacts) == 1, "the PGO profile, recorded because a job id is set"
assert packed <= len(artifact_bytes) < whole, "the bytes hold the cache entries, not the whole directory"
TMP.cleanup()
