"""Run snippets side by side, in a process of their own, for the tests: `python snippet_pool.py OUT JOBS REL...`.

Each run goes through the same runner the pages use (never its cache; a success refreshes the tests'
page cache) and its result is written to OUT/<n>.json as soon as it is known. The pool is a process
of its own so that the environment the tests change while it works (monkeypatch) never reaches it.
The runner's fresh interpreter is replaced here by a process forked from one that has imported torch
(eager_vs_compiled/forks.py), except for the snippets that need a fresh one; EVC_TEST_FORKS=0 turns that off.
"""
import json
import os
import signal
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

from eager_vs_compiled import isolate, snippets, store
from eager_vs_compiled.forks import Runner

FORKS = Runner() if os.environ.get("EVC_TEST_FORKS", "1") != "0" else None


def _one(out: Path, n: int, rel: str) -> None:
    try:
        result = asdict(snippets.run(rel, use_cache=False))
    except Exception as e:  # noqa: BLE001 -- reported by the snippet's test, naming the snippet
        result = {"error": f"{type(e).__name__}: {e}"}
    store.write_atomic(out / f"{n}.json", json.dumps(result))


def _stop(signum, frame) -> None:
    """Stopped (the session ended early, or Ctrl-C): the snippets running now go too.

    Each runs in a session of its own (isolate.run), so it is found as a child of this process."""
    if FORKS is not None:
        FORKS.stop()
    isolate.kill_children()
    os._exit(128 + signum)


def main(out: str, jobs: str, *chosen: str) -> None:
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    if FORKS is not None:
        snippets.isolate = FORKS
    with ThreadPoolExecutor(int(jobs), thread_name_prefix="snippet") as pool:
        for n, rel in enumerate(chosen):
            pool.submit(_one, Path(out), n, rel)


if __name__ == "__main__":
    main(*sys.argv[1:])
