"""Two steps of tools/gpu-run.sh that are easier in Python than in sh (standard library and the package).

    python tools/gpu_steps.py captures [--dry-run]   run every `# requires: cuda` snippet, keeping captures
    python tools/gpu_steps.py pack ROOT STAMP OUT     pack what ROOT gained since STAMP into OUT/evc-gpu-records.tar
"""

from __future__ import annotations

import json
import os
import sys
import tarfile
from pathlib import Path

ARCHIVE = "evc-gpu-records.tar"


def captures(dry_run: bool) -> int:
    """Run each snippet that needs a GPU; snippets.run keeps a capture of every symptom it reproduces."""
    from eager_vs_compiled import captures, snippets, store

    for path in sorted(snippets.root().rglob("*.py")):
        rel = path.relative_to(snippets.root()).as_posix()
        code = path.read_text(encoding="utf-8")
        needs = snippets.requirements(code)
        if "cuda" not in needs:
            continue
        if dry_run:
            print(f"{rel}: requires {', '.join(sorted(needs))}")
            continue
        r = snippets.run(rel, use_cache=False)
        if r.skipped or r.returncode != 0:
            said = r.skipped or ("timed out" if r.returncode is None else f"failed, exit {r.returncode}")
        elif captures.path_for(store.default_root(), r.machine, r.torch, rel).is_file():
            said = "captured"  # what snippets.run kept, read back rather than guessed from its rules
        else:
            said = snippets.expectation(r) or "ran (nothing to capture: it has no '# expects:' header)"
        print(f"{rel}: {said} ({r.duration_s:.1f} s)", flush=True)
    return 0


def measured_nothing(path: Path) -> bool:
    """A workload record whose every mode was skipped (for time, a missing package): nothing to keep."""
    try:
        results = json.loads(path.read_text(encoding="utf-8")).get("results")
    except (OSError, ValueError, AttributeError):
        return False  # not ours to judge: pack it, the store's reader names what is wrong with it
    return isinstance(results, list) and all(isinstance(r, dict) and r.get("status") == "skipped" for r in results)


def pack(root: Path, stamp: Path, out: Path) -> int:
    """OUT/evc-gpu-records.tar with the files under ROOT written since STAMP, paths relative to ROOT."""
    since = stamp.stat().st_mtime
    kept = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.stat().st_mtime >= since):
        if path.suffix == ".json" and measured_nothing(path):
            print(f"left out {path.relative_to(root)}: every mode was skipped")
            continue
        kept.append(path.relative_to(root).as_posix())
    part = out / f".{ARCHIVE}.part"  # renamed when whole: a run killed while packing keeps the last pack
    with tarfile.open(part, "w") as tar:
        for rel in kept:
            tar.add(root / rel, arcname=rel)
    os.replace(part, out / ARCHIVE)
    (out / "evc-gpu-files.txt").write_text("".join(f"{rel}\n" for rel in kept), encoding="utf-8")
    print(f"{len(kept)} files in {out / ARCHIVE}; in your checkout: tar -xf {ARCHIVE} -C measurements")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["captures"] and argv[1:] in ([], ["--dry-run"]):
        return captures(dry_run=bool(argv[1:]))
    if argv[:1] == ["pack"] and len(argv) == 4:
        return pack(Path(argv[1]), Path(argv[2]), Path(argv[3]))
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
