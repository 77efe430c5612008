"""Run a snippet file in a fresh interpreter: the one code path for the tests and the pages.

Results are cached by (snippet text, torch version, machine fingerprint, Python version), so an
unchanged rebuild re-runs nothing; EVC_REMEASURE=1 bypasses the cache. Failed runs are never cached.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import re
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from . import machine
from . import captures, isolate, paths
from .store import remeasure_requested, write_atomic

log = logging.getLogger("eager_vs_compiled")
DEFAULT_TIMEOUT_S = 600
OUTPUT_LIMIT = 20_000  # characters of a snippet's output kept (cache and page); the rest is cut, and said so
_RAN_HERE: set[str] = set()  # cache entries written by this process
_SHOWN: dict[str, SnippetResult] = {}  # cache file -> its result, once read or run in this process
_PREFETCHED: dict[str, SnippetResult] = {}  # cache file -> a run of `prefetch` no page has shown yet (ok or not)


class SnippetError(Exception):
    """A snippet that exited non-zero or ran past its timeout."""


@dataclass
class SnippetResult:
    path: str
    code: str
    returncode: int | None  # None: skipped or timed out
    stdout: str
    stderr: str
    duration_s: float
    date: str
    machine: str
    torch: str
    skipped: str = ""  # why it did not run here, e.g. "requires cuda"
    cached: bool = False
    beside: bool = False  # ran while other snippets ran (a build runs the untimed ones side by side)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 or bool(self.skipped)


def root() -> Path:
    return paths.snippets()


def cache_dir() -> Path:
    return paths.cache() / "snippets"


HEADER_KEYS = ("requires", "expects", "message-in-source")


def headers(code: str) -> dict[str, str]:
    """Header comments a snippet declares, e.g. `# requires: cuda`, `# expects: ^RuntimeError: `.

    - requires: what it needs to run (`cuda`, `triton`); elsewhere it is skipped and shown as not run;
    - expects: a regular expression the first line of its output must match (troubleshooting
      symptoms: the error it reproduces);
    - message-in-source: text of that error as written in torch's (or Triton's) source, shown from the installed
      torch where the snippet cannot run and no capture from another machine exists.
    """
    found = {}
    for line in code.splitlines():
        for key in HEADER_KEYS:
            if line.startswith(f"# {key}:"):
                found[key] = line.split(":", 1)[1].strip()
    return found


# requirements a package meets, not hardware: a symptom needing only them is not captured. triton: torch's
# Linux CUDA wheels bring it, CPU wheels do not; the engines: the `engines` extra (./evc.sh installs it).
PACKAGES = {"triton", "onnxruntime", "openvino"}


def available(me: dict) -> set[str]:
    """What this machine offers of what snippets may require: a GPU (`cuda`), an importable package of PACKAGES."""
    have = {"cuda"} if me["gpus"] else set()
    return have | {p for p in PACKAGES if importlib.util.find_spec(p) is not None}


def requirements(code: str) -> set[str]:
    """`# requires: cuda` (any header line) declares what a snippet needs."""
    return {w.strip() for w in headers(code).get("requires", "").split(",") if w.strip()}


def relative_paths(text: str, cwd: str | None = None) -> str:
    """Paths as a reader can use them: the checkout's own relative to the repository root
    (`snippets/troubleshooting/x.py`), installed packages from `site-packages/`, the scratch
    folder a snippet ran in as `./`. Never the builder's absolute checkout path."""
    checkout = str(root().resolve().parent)
    if cwd:
        text = text.replace(cwd.rstrip("/") + "/", "./").replace(cwd, ".")
    text = re.sub(r"(?<![\w.])/[^\s'\"():]*?/site-packages/", ".../site-packages/", text)
    return text.replace(checkout + "/", "").replace(checkout, ".")


def cap(text: str, limit: int = OUTPUT_LIMIT) -> str:
    """At most `limit` characters: the beginning and the end, and a line that says how much is cut."""
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 3 // 4], text[-(limit // 4):]
    cut = text[len(head): len(text) - len(tail)]
    return (f"{head}\n[... {len(cut):,} characters ({cut.count(chr(10)):,} lines) of output cut here by the "
            f"snippet runner, which keeps {limit:,} ...]\n{tail}")


def _key(code: str) -> str:
    me, v = machine.describe(), machine.versions()
    blob = json.dumps([code, v["torch"], v["python"], me["fingerprint"]])
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def cached(rel_path: str) -> bool:
    """Whether a build here would reuse a cached run of snippets/<rel_path> (or skip it: this machine
    lacks what it requires) instead of running it: its text, torch, Python and the machine unchanged."""
    code = (root() / rel_path).read_text(encoding="utf-8")
    return bool(requirements(code) - available(machine.describe())) or _cache_path(code).is_file()


def _cache_path(code: str) -> Path:
    """Where a run of this snippet text is kept (its key: the text, torch, Python and the machine)."""
    return cache_dir() / f"{_key(code)}.json"


def run(rel_path: str, timeout: float = DEFAULT_TIMEOUT_S, use_cache: bool = True,
        beside: bool = False, runner=None) -> SnippetResult:
    """Run snippets/<rel_path>; raises FileNotFoundError if there is no such snippet. `beside`: other
    snippets run at the same time (the page then shows no duration); `runner`: what starts the
    interpreter (`isolate`, or a `forks.Runner` that forks it from one that has imported torch)."""
    path = root() / rel_path
    if not path.is_file():
        raise FileNotFoundError(f"no snippet {path} (snippets live under {root()}/)")
    code = path.read_text(encoding="utf-8")
    me, v = machine.describe(), machine.versions()
    stamp = {"date": time.strftime("%Y-%m-%d"), "machine": me["slug"], "torch": v["torch"]}
    missing = requirements(code) - available(me)
    if missing:
        return SnippetResult(_shown_path(path), code, None, "", "", 0.0,
                             skipped=f"requires {', '.join(sorted(missing))}", **stamp)
    cached = _cache_path(code)
    # EVC_REMEASURE=1 re-runs each snippet once per process (build), not once per page that shows it.
    fresh_enough = not remeasure_requested() or cached.name in _RAN_HERE
    if use_cache and str(cached) in _PREFETCHED:  # run by this build just before: the first page shows it as run
        return _PREFETCHED.pop(str(cached))
    if use_cache and str(cached) in _SHOWN and cached.exists() and fresh_enough:
        return _SHOWN[str(cached)]  # a second page (or the second edition) showing it: no second look
    if use_cache and cached.exists() and fresh_enough:
        try:
            result = SnippetResult(**{**json.loads(cached.read_text()), "cached": True})
            result.stdout, result.stderr = relative_paths(result.stdout), relative_paths(result.stderr)
            log.info("snippet %s: cached result reused (unchanged since %s)", path, result.date)
            _SHOWN[str(cached)] = result
            return result
        except (ValueError, TypeError):
            log.info("snippet %s: unreadable cache entry, re-running", path)
    log.info("snippet %s: running ...", path)
    result = _execute(path, code, timeout, stamp, beside, runner or isolate)
    if result.returncode == 0:
        _RAN_HERE.add(cached.name)
        _SHOWN[str(cached)] = replace(result, cached=True)  # what a second page shows, as a reread would
        write_atomic(cached, json.dumps({k: v for k, v in asdict(result).items() if k != "cached"}))
        if requirements(code) - PACKAGES and "expects" in headers(code) and expectation(result) is None:
            # A symptom that needs special hardware, reproduced here: keep it for every later build.
            captures.save(result, rel_path)
    return result


# A snippet that measures time prints numbers that another process beside it would change: such a
# snippet runs alone, and so does one whose behaviour hangs on time (a timeout it races), which says
# `# runs: alone`. Checked against what every snippet prints (tests/test_snippets.py).
TIMED = re.compile(r"perf_counter|time\.time\(|time\.monotonic|timeit|torch\.utils\.benchmark|torch\.utils import "
                   r"benchmark|\bTimer\(|process_time|torch\.profiler|elapsed|^# runs: alone", re.M)


def timed(code: str) -> bool:
    """Whether a snippet times something (and so must run alone, on an otherwise idle machine)."""
    return bool(TIMED.search(code))


def slow_first(rel: str) -> tuple[bool, str]:
    """A sort key: the snippets that start fresh processes or empty compile caches take the longest."""
    text = (root() / rel).read_text(encoding="utf-8")
    return (not any(mark in text for mark in ("subprocess", "TORCHINDUCTOR_CACHE_DIR")), rel)


def prefetch(rel_paths: list[str], jobs: int) -> dict[str, int]:
    """Run (or find cached) every snippet of `rel_paths` before the pages ask for them: the untimed
    ones `jobs` at a time, then the timed ones one at a time, alone. Pages then read the cache (a
    failed run is kept for its page to report). Returns how many ran side by side and alone."""
    from concurrent.futures import ThreadPoolExecutor

    _PREFETCHED.clear()  # a rebuild (mkdocs serve) runs a snippet that failed before again
    alone = [r for r in rel_paths if timed((root() / r).read_text(encoding="utf-8"))]
    beside = sorted((r for r in rel_paths if r not in alone), key=slow_first)  # the long ones first: no long tail

    def keep(rel: str, side_by_side: bool, runner=None) -> None:
        result = run(rel, beside=side_by_side, runner=runner)
        if not result.cached and not result.skipped:
            _PREFETCHED[str(cache_dir() / f"{_key(result.code)}.json")] = result

    from .forks import TIMED_PRELOAD, Runner

    # The untimed ones need not pay 3 CPU s each for importing torch: forked, side by side, and so shown
    # without a duration. On one core they run as a reader runs them, one at a time, duration shown.
    forks = Runner() if jobs > 1 else None
    try:
        with ThreadPoolExecutor(max(1, jobs), thread_name_prefix="snippet") as pool:
            list(pool.map(lambda rel: keep(rel, forks is not None, forks), beside))
    finally:
        if forks is not None:
            forks.stop()
    solo = Runner(TIMED_PRELOAD)  # torch imported, nothing else: each timed region as in a fresh interpreter
    try:
        for rel in alone:  # one at a time, on an otherwise idle machine
            keep(rel, False, solo)
    finally:
        solo.stop()
    return {"beside": len(beside), "alone": len(alone)}


def expectation(result: SnippetResult) -> str | None:
    """Why a snippet that ran did not print what its `# expects:` header says, or None."""
    head = headers(result.code)
    if "expects" not in head or result.skipped:
        return None
    text = result.stdout.strip()
    first = text.splitlines()[0] if text else ""
    if re.match(head["expects"], first):
        return None
    return (f"snippet {result.path} no longer reproduces its symptom: its first line {first!r} "
            f"does not match its '# expects: {head['expects']}' header")


def _shown_path(path: Path) -> str:
    """How a result names its snippet: `snippets/x.py`, never the builder's checkout path."""
    return relative_paths(str(path.resolve()))


def _execute(path: Path, code: str, timeout: float, stamp: dict, beside: bool, runner) -> SnippetResult:
    # A scratch working directory: snippets that save files leave nothing in the checkout.
    with tempfile.TemporaryDirectory(prefix="evc-snippet-") as cwd:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONWARNINGS": "ignore::FutureWarning"}
        if beside:  # OpenMP threads that spin between parallel regions would take the core the other run needs
            env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        t0 = time.perf_counter()
        code_, out, err = runner.run([sys.executable, str(path.resolve())], env, timeout, cwd=cwd)
        if code_ is None:
            err += f"\n[timed out after {timeout:g} s]"
        out, err = cap(relative_paths(out, cwd)), cap(relative_paths(err, cwd))
    return SnippetResult(_shown_path(path), code, code_, out, err, time.perf_counter() - t0, **stamp, beside=beside)


def check(result: SnippetResult) -> SnippetResult:
    """Raise SnippetError naming the snippet unless it ran cleanly (or was skipped)."""
    if result.ok:
        return result
    why = "timed out" if result.returncode is None else f"exited with code {result.returncode}"
    tail = "\n".join(result.stderr.strip().splitlines()[-15:])
    raise SnippetError(f"snippet {result.path} {why}:\n{tail}")
