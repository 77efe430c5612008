"""Who measured: a fingerprint of this machine and the versions of the software that ran.

Standard library + torch only, so it works on a bare GPU image.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import subprocess
import sys
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from . import paths


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    if sys.platform == "darwin":
        try:
            out = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"],
                                 capture_output=True, text=True, timeout=5)
            if out.stdout.strip():
                return out.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or platform.machine() or "unknown cpu"


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def _memory_gib() -> int:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30)
    except (ValueError, OSError, AttributeError):
        return 0


def _gpus() -> list[dict]:
    import torch

    if not torch.cuda.is_available():
        return []
    gpus = []
    for i in range(torch.cuda.device_count()):
        p = torch.cuda.get_device_properties(i)
        gpus.append({"name": p.name, "capability": f"{p.major}.{p.minor}",
                     "memory_gib": round(p.total_memory / 2**30)})
    return gpus


def slugify(text: str) -> str:
    text = re.sub(r"\((r|tm)\)|\bcpu\b|\bprocessor\b|\b\d+-core\b", " ", text.lower())
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def _free_slug(store: Path, slug: str, fingerprint: str) -> str:
    """`slug`, unless the store already holds that folder for other hardware (another contributor's
    CPU of the same model and core count): then `slug-<short fingerprint>`, so nobody's records are
    measured over."""
    folder = store / slug
    prints = set()
    for path in folder.glob("torch-*/*.json"):
        try:
            prints.add(json.loads(path.read_text(encoding="utf-8"))["machine"]["fingerprint"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return slug if not prints or fingerprint in prints else f"{slug}-{fingerprint[:4]}"


class MachineNameError(ValueError):
    """EVC_MACHINE names no usable folder."""


def _chosen_slug(raw: str) -> str | None:
    """EVC_MACHINE, the slug a user chose, checked: refused when it would not name the folder as given."""
    if not raw.strip():
        return None
    slug = slugify(raw)
    if slug != raw.strip():
        raise MachineNameError(f"EVC_MACHINE={raw!r} is not a machine slug: use lowercase letters, digits and "
                               f"dashes, e.g. {slug or 'ci-a100'!r}")
    return slug


def describe() -> dict:
    """The hardware facts that decide whether a record was measured on this machine, and its slug: a
    value of its inputs (the hardware, the store its slug is checked against, EVC_MACHINE), cached per
    inputs, so a process that changes its store (the CLI's --out) gets the slug of that store."""
    return _describe(str(paths.measurements().resolve()), os.environ.get("EVC_MACHINE", ""))


@lru_cache(maxsize=8)
def _describe(store: str, chosen: str) -> dict:
    gpus = _gpus()
    hw = {
        "arch": platform.machine(),
        "os": platform.system(),
        "cpu": _cpu_model(),
        "cores": _usable_cores(),
        "memory_gib": _memory_gib(),
        "gpus": gpus,
    }
    fingerprint = hashlib.sha256(json.dumps(hw, sort_keys=True).encode()).hexdigest()[:16]
    if gpus:
        # Many contributors own the same GPU model: the short fingerprint (CPU, cores, memory, GPUs)
        # keeps their folders apart while the name stays readable.
        count = f"-x{len(gpus)}" if len(gpus) > 1 else ""
        slug = f"gpu-{slugify(gpus[0]['name'])}{count}-{fingerprint[:4]}"
    else:
        slug = _free_slug(Path(store), f"cpu-{slugify(hw['cpu'])}-{hw['cores']}c", fingerprint)
    # A user may name the machine (e.g. "ci-a100"); the fingerprint still guards freshness.
    slug = _chosen_slug(chosen) or slug
    return {"slug": slug, "fingerprint": fingerprint, **hw}


def _dist_version(*names: str) -> str | None:
    for name in names:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


@lru_cache(maxsize=1)
def versions() -> dict:
    """Versions of everything that shapes a measurement."""
    import torch

    return {
        "torch": torch.__version__,
        "torchvision": _dist_version("torchvision"),
        "cuda": torch.version.cuda,
        "triton": _dist_version("triton", "pytorch-triton"),
        "python": platform.python_version(),
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        # the inference engines measured beside torch.compile (engines.py); None where not installed
        "onnxruntime": _dist_version("onnxruntime", "onnxruntime-gpu"),
        "onnxscript": _dist_version("onnxscript"),
        "openvino": _dist_version("openvino"),
        "torch_tensorrt": _dist_version("torch-tensorrt", "torch_tensorrt"),
    }


def label(machine: dict) -> str:
    """A short human description: 'AMD EPYC, 2 cores' or 'NVIDIA H200'."""
    if machine.get("gpus"):
        names = [g["name"] for g in machine["gpus"]]
        return names[0] + (f" ×{len(names)}" if len(names) > 1 else "")
    return f"{machine.get('cpu', '?')}, {machine.get('cores', '?')} cores"


def git_commit(cwd: str | os.PathLike | None = None) -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=cwd,
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


describe.cache_clear = _describe.cache_clear  # what a test that fakes the hardware calls
