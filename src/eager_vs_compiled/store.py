"""Where records live: measurements/<machine-slug>/torch-<release>/<workload>.json.

A record belongs to a (machine, torch release) pair. A build checks and re-measures only records of
its own machine and torch release; records of other releases are history, read and shown, never
written (`save` derives the folder from the record's own torch version). Writes are atomic.
Standard library only.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from pathlib import Path

from . import paths
from .records import Record, RecordError, RecordWriteError, load

RELEASE_PREFIX = "torch-"  # measurements/<slug>/torch-2.15.0/
PEAKS_FILE = "machine_peaks.json"  # beside the records of a release: the machine's measured roof
CAPTURES = "captures"  # beside the records of a release: symptoms captured by snippet runs
log = logging.getLogger("eager_vs_compiled")
_warned: set[str] = set()


def default_root() -> Path:
    return paths.measurements()


def remeasure_requested() -> bool:
    """EVC_REMEASURE=1: measure and run everything again, fresh or not (records, peaks, snippets)."""
    return os.environ.get("EVC_REMEASURE", "").strip().lower() in ("1", "true", "yes")


def release(torch_version: str) -> str:
    """The public release of a torch version string: '2.15.0+cu132' -> '2.15.0'."""
    return torch_version.split("+", 1)[0].strip()


def release_key(rel: str) -> tuple:
    """Sort key for releases: 2.9.1 < 2.14.1 < 2.16.0a0 < 2.16.0 (numbers, then pre-releases first)."""
    m = re.match(r"(\d+(?:\.\d+)*)(.*)", rel)
    if not m:
        return ((), 0, rel)
    nums = tuple(int(n) for n in m.group(1).split("."))
    return nums, (0 if m.group(2) else 1), m.group(2)


def release_dir(root: Path, slug: str, rel: str) -> Path:
    return Path(root) / slug / f"{RELEASE_PREFIX}{rel}"


def path_for(root: Path, slug: str, workload: str, rel: str) -> Path:
    return release_dir(root, slug, rel) / f"{workload}.json"


def machines(root: Path | None = None) -> list[str]:
    """Machine slugs with a folder under the store, sorted."""
    root = Path(root or default_root())
    return sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


def releases(root: Path | None, slug: str) -> list[str]:
    """The torch releases a machine has records of, oldest first."""
    folder = Path(root or default_root()) / slug
    found = [p.name[len(RELEASE_PREFIX):] for p in folder.glob(f"{RELEASE_PREFIX}*") if p.is_dir()]
    return sorted(found, key=release_key)


def legacy_files(root: Path | None = None) -> list[Path]:
    """Records of the layout before releases had folders (measurements/<slug>/<workload>.json)."""
    root = Path(root or default_root())
    return sorted(p for p in root.glob("*/*.json")) + sorted(root.glob(f"*/{CAPTURES}/*.json"))


def _warn_legacy(root: Path) -> None:
    old = legacy_files(root)
    if old and str(root) not in _warned:
        _warned.add(str(root))
        log.warning("%d record file(s) in the old layout are not read (e.g. %s): move them into "
                    "torch-<release>/ folders with `python -m eager_vs_compiled migrate`", len(old), old[0])


def workload_names(root: Path | None, slug: str, rel: str) -> list[str]:
    """Workloads a machine has records of for one release (machine_peaks.json is not a record)."""
    folder = release_dir(Path(root or default_root()), slug, rel)
    return sorted(p.stem for p in folder.glob("*.json") if p.name != PEAKS_FILE)


SKIPPED: dict[str, str] = {}  # file -> why: other machines' records this version cannot read


def model_name(target: str) -> str:
    """A reader's model, 'my_model.py:factory', as its record's file name: 'my_model-factory'."""
    stem = Path(target.rpartition(":")[0]).stem.rsplit(".", 1)[-1]
    return re.sub(r"[^a-z0-9_-]+", "-", f"{stem}-{target.rpartition(':')[2]}".lower()).strip("-")


def read(path: Path, root: Path | None = None, mine: str | None = None) -> Record | None:
    """A committed record, or None when it is another machine's and cannot be read (a newer schema,
    a broken file from a fork): that one is skipped, with the reason kept for the page to show. An
    unreadable record of this machine (`mine`: its slug, default this process's) is an error, as it
    would be measured over."""
    try:
        return load(path)
    except RecordError as err:
        slug = Path(path).relative_to(Path(root or default_root())).parts[0]
        if mine is None:
            from . import machine

            mine = machine.describe()["slug"]
        if slug == mine:
            raise
        if str(path) not in SKIPPED:
            SKIPPED[str(path)] = str(err).split(": ", 1)[-1]
            log.info("skipping another machine's record that cannot be read: %s", err)
        return None


def records_for(workload: str, root: Path | None = None, mine: str | None = None) -> list[Record]:
    """Every machine's newest readable record of a workload, sorted by machine slug (`mine`: see `read`)."""
    root = Path(root or default_root())
    _warn_legacy(root)
    found = []
    for slug in machines(root):
        for rel in reversed(releases(root, slug)):
            path = path_for(root, slug, workload, rel)
            rec = read(path, root, mine) if path.exists() else None
            if rec is not None:
                found.append(rec)
                break
    return found


def migrate(root: Path | None = None) -> list[tuple[Path, Path]]:
    """Move records of the old flat layout into their torch-<release>/ folder, unchanged.

    The release is read from each file (a record's versions.torch, a capture's torch); nothing is
    re-measured and a file already present at the destination is never replaced.
    """
    root = Path(root or default_root())
    moved = []
    for old in legacy_files(root):
        try:
            data = json.loads(old.read_text(encoding="utf-8"))
            version = data["torch"] if "snippet" in data else data["versions"]["torch"]
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise RecordError(old, f"cannot tell which torch release measured it ({err!r})") from None
        capture = old.parent.name == CAPTURES
        slug = old.parent.parent.name if capture else old.parent.name
        dest = release_dir(root, slug, release(version))
        dest = dest / CAPTURES / old.name if capture else dest / old.name
        if dest.exists():
            raise RecordError(dest, f"already exists; {old} was left where it is")
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(old, dest)
        moved.append((old, dest))
    for folder in {old.parent for old, _ in moved}:
        if folder.name == CAPTURES and not any(folder.iterdir()):
            folder.rmdir()
    return moved


def write_atomic(path: Path, text: str) -> None:
    """A temp file in the same folder, then a rename: readers see the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save(record: Record, root: Path | None = None) -> Path:
    """Write the record atomically to measurements/<slug>/torch-<its release>/<workload>.json.

    The folder follows from the record's own torch version, so a record can never land in (or
    replace a file of) another release's folder: history is not overwritten.
    """
    rel = release(record.versions["torch"])
    path = path_for(root or default_root(), record.machine["slug"], record.workload, rel)
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
            old_torch, old_print = old["versions"]["torch"], old["machine"]["fingerprint"]
        except (OSError, ValueError, KeyError, TypeError):
            old_torch = old_print = None  # unreadable: replaced by a fresh measurement
        if old_torch is not None and release(old_torch) != rel:
            raise RecordWriteError(path, f"it holds a torch {old_torch} record, this one is torch "
                                         f"{record.versions['torch']}; history is never overwritten")
        if old_print is not None and old_print != record.machine.get("fingerprint"):
            raise RecordWriteError(path, f"it holds the record of another machine with the same slug "
                                         f"(fingerprint {old_print}, this one {record.machine.get('fingerprint')}); "
                                         f"name this machine's folder with EVC_MACHINE=<name>")
    try:
        write_atomic(path, record.to_json())
    except OSError as err:
        raise RecordWriteError(path, f"{err.strerror or err}; the previous file, if any, is unchanged") from err
    return path


def check_writable(folder: Path) -> None:
    """Raise RecordError now, before minutes of measuring, if records cannot be saved in `folder`."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-check.", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise RecordWriteError(folder, f"{err.strerror or err}; nothing was measured") from err


