"""This machine's measured limits, the roof of the roofline: matmul FLOP/s and memory bandwidth.

Measured (not taken from a datasheet) in a fresh process: the best of several large matrix
products per dtype, and a large tensor copy (bytes read + bytes written). Saved beside the workload
records as measurements/<slug>/torch-<release>/machine_peaks.json with the same provenance. Standard library + torch.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from . import isolate, machine, records, store

FILE = store.PEAKS_FILE
VERSION = 2  # 2: bfloat16 matmul on CPUs with native bf16 too
SIZES = {"cpu": {"matmul_n": 2048, "copy_mib": 256}, "cuda": {"matmul_n": 8192, "copy_mib": 4096}}


def _best_seconds(fn, sync, repeats: int) -> float:
    fn()
    sync()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t0)
    return best


def sizes(device_type: str, free_bytes: int | None = None) -> dict:
    """The matrices and the copy to measure with; on a GPU, small enough for its free memory (the
    three fp32 matrices and the two copy buffers each within 40 % of it)."""
    size = dict(SIZES[device_type])
    if free_bytes is not None:
        budget = free_bytes * 0.4
        size["copy_mib"] = max(16, min(size["copy_mib"], int(budget / 2 / 2**20)))
        while size["matmul_n"] > 512 and 3 * size["matmul_n"] ** 2 * 4 > budget:
            size["matmul_n"] //= 2
    return size


def _child(device_type: str) -> dict:
    import torch

    device = torch.device(device_type)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    size = sizes(device.type, torch.cuda.mem_get_info()[0] if device.type == "cuda" else None)
    n = size["matmul_n"]
    out = {"threads": torch.get_num_threads(), "matmul_n": n, "copy_mib": size["copy_mib"], "matmul_tflops": {}}
    from .recipes import cpu_flags

    native_bf16 = device.type == "cuda" or bool({"amx_bf16", "avx512_bf16"} & cpu_flags())
    dtypes = ["float32", "bfloat16"] if native_bf16 else ["float32"]
    for name in dtypes:
        dt = getattr(torch, name)
        a, b = torch.randn(n, n, device=device, dtype=dt), torch.randn(n, n, device=device, dtype=dt)
        seconds = _best_seconds(lambda: a @ b, sync, 10)
        out["matmul_tflops"][name] = 2 * n**3 / seconds / 1e12
    src = torch.empty(size["copy_mib"] * 2**20 // 4, device=device, dtype=torch.float32).fill_(1.0)
    dst = torch.empty_like(src)
    seconds = _best_seconds(lambda: dst.copy_(src), sync, 10)
    out["copy_gb_s"] = 2 * src.numel() * 4 / seconds / 1e9
    if device.type == "cuda":
        out["tf32_matmul"] = torch.backends.cuda.matmul.allow_tf32
    return out


def path(root: Path, slug: str, rel: str) -> Path:
    return store.release_dir(root, slug, rel) / FILE


def load(root: Path, slug: str, rel: str | None = None) -> dict | None:
    """A machine's measured peaks for a release (default: its newest release that has them)."""
    if rel is None:
        rel = next((r for r in reversed(store.releases(root, slug)) if path(root, slug, r).exists()), None)
        if rel is None:
            return None
    p = path(root, slug, rel)
    if not p.exists():
        return None
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        assert 1 <= data["version"] <= VERSION and data["matmul_tflops"] and data["copy_gb_s"] > 0
        return data
    except (OSError, ValueError, KeyError, AssertionError, TypeError) as e:
        raise records.RecordError(p, f"not a machine-peaks file of versions 1 to {VERSION} ({e!r})") from None


def fresh(peaks: dict, me: dict, torch_version: str, device_type: str) -> bool:
    """Whether measured peaks hold for this machine, torch and device (else they are measured again)."""
    return (peaks["machine"]["fingerprint"] == me["fingerprint"] and peaks["versions"].get("torch") == torch_version
            and peaks["device"] == device_type and peaks["version"] == VERSION)


def ensure(root: Path | None = None, device_type: str | None = None, force: bool = False) -> dict:
    """This machine's peaks: reused when measured on the same machine and torch, else measured."""
    root = Path(root or store.default_root())
    me, versions = machine.describe(), machine.versions()
    rel = store.release(versions["torch"])
    if device_type is None:
        from . import workloads  # imports torch: only where the peaks are measured or checked

        device_type = workloads.device_type(workloads.default_profile())
    old = load(root, me["slug"], rel)
    if old and not (force or store.remeasure_requested()) and fresh(old, me, versions["torch"], device_type):
        return old
    store.check_writable(path(root, me["slug"], rel).parent)
    with tempfile.TemporaryDirectory(prefix="evc-peaks-") as tmp:
        out = Path(tmp) / "peaks.json"
        code, _, err = isolate.module("eager_vs_compiled.peaks", [device_type, str(out)], None, 600)
        if code != 0 or not out.exists():
            raise RuntimeError(f"measuring this machine's peaks failed (exit {code}): {err.strip()[-500:]}")
        data = json.loads(out.read_text())
    data = {"version": VERSION, "device": device_type, "machine": me, "versions": versions,
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"), **data}
    store.write_atomic(path(root, me["slug"], rel), json.dumps(data, indent=1) + "\n")
    return data


if __name__ == "__main__":
    Path(sys.argv[2]).write_text(json.dumps(_child(sys.argv[1])))
