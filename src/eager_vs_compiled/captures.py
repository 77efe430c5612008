"""Captured snippet outputs kept in the store: measurements/<machine>/torch-<release>/captures/.

A capture is what a symptom snippet printed on one machine with one torch release: the text of an
error that needs hardware the building machine may lack (a GPU), or the text of a release that a
newer torch no longer prints. Like records, captures of other releases are history. Standard
library only (the snippet runner's result is duck-typed).
"""

from __future__ import annotations

import json
from pathlib import Path

from . import machine, store
from .records import RecordError

FIELDS = ("code", "stdout", "date", "machine", "torch", "duration_s")


def path_for(root: Path, slug: str, torch_version: str, rel_path: str) -> Path:
    name = rel_path.removesuffix(".py").replace("/", "__") + ".json"
    return store.release_dir(root, slug, store.release(torch_version)) / store.CAPTURES / name


def save(result, rel_path: str, root: Path | None = None) -> Path:
    """Keep one snippet run (a snippets.SnippetResult that ran) as a capture of this machine."""
    data = {"snippet": rel_path, **{k: getattr(result, k) for k in FIELDS}, "machine_info": machine.describe()}
    path = path_for(root or store.default_root(), result.machine, result.torch, rel_path)
    store.write_atomic(path, json.dumps(data, indent=1) + "\n")
    return path


def find(rel_path: str, root: Path | None = None, before: str | None = None) -> dict | None:
    """The newest capture of a snippet from any machine (only of releases older than `before`,
    when given), or None. The newest: highest release, then latest date."""
    root = Path(root or store.default_root())
    found = []
    for path in sorted(root.glob(f"*/{store.RELEASE_PREFIX}*/{store.CAPTURES}/*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as err:
            raise RecordError(path, f"not valid JSON ({err})") from None
        if not isinstance(data, dict) or data.get("snippet") != rel_path:
            continue
        rel = store.release(str(data.get("torch", "")))
        if before is None or store.release_key(rel) < store.release_key(before):
            found.append((store.release_key(rel), str(data.get("date", "")), data))
    return max(found, key=lambda f: f[:2])[2] if found else None
