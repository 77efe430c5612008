"""MkDocs hooks: wire the measurement package into the build.

- our logger goes to MkDocs' handlers (so its warnings count in strict mode);
- paths are anchored at the folder of mkdocs.yml, wherever mkdocs is run from;
- the executed notebook is cached per machine and torch version (mkdocs-jupyter's own key is
  the notebook text only, which would keep another machine's numbers);
- at the end, one line and a JSON report say what this build measured and ran.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

log = logging.getLogger("mkdocs.hooks.evc")
_state: dict = {}


def on_config(config):
    root = Path(config.config_file_path).resolve().parent
    for var, default in (("EVC_MEASUREMENTS", "measurements"), ("EVC_SNIPPETS", "snippets"),
                         ("EVC_CACHE", ".cache/eager-vs-compiled")):
        os.environ.setdefault(var, str(root / default))

    ours = logging.getLogger("eager_vs_compiled")
    ours.setLevel(logging.INFO)
    ours.propagate = False
    for handler in logging.getLogger("mkdocs").handlers:
        if handler not in ours.handlers:
            ours.addHandler(handler)

    from eager_vs_compiled import machine, measure, snippets

    me, versions = machine.describe(), machine.versions()
    nb_cache = Path(os.environ["EVC_CACHE"]) / "notebooks" / f"{me['slug']}-{me['fingerprint']}-torch{versions['torch']}"
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None:
        jupyter.config["cache_dir"] = str(nb_cache)
        if measure.remeasure_requested():  # execute the notebooks again, and cache the new run
            for old in nb_cache.glob("**/*.json"):
                old.unlink()
    measure.COUNTS.clear()
    snippets.COUNTS.clear()
    _state.update(t0=time.time(), nb_cache=nb_cache)
    log.info("eager-vs-compiled: building on %s (%s), torch %s", me["slug"], machine.label(me), versions["torch"])
    return config


def on_post_build(config):
    from eager_vs_compiled import measure, snippets

    t0, nb_cache = _state["t0"], _state["nb_cache"]
    notebooks_ran = sum(1 for p in nb_cache.glob("**/*") if p.is_file() and p.stat().st_mtime >= t0)
    report = {
        "measured": measure.COUNTS["measured"], "reused": measure.COUNTS["reused"],
        "snippets_ran": snippets.COUNTS["ran"], "snippets_cached": snippets.COUNTS["cached"],
        "snippets_skipped": snippets.COUNTS["skipped"], "notebooks_executed": notebooks_ran,
        "seconds": round(time.time() - t0, 1),
    }
    log.info("eager-vs-compiled: measured %(measured)d workloads, reused %(reused)d records; "
             "ran %(snippets_ran)d snippets, reused %(snippets_cached)d cached; "
             "executed %(notebooks_executed)d notebooks", report)
    path = Path(os.environ["EVC_CACHE"]) / "last-build.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1))
