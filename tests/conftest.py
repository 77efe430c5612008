import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The tests read and write a copy of the measurement store, never the committed one: on a machine
# whose records are not committed, a build measures them, and that must not touch the working tree.
_STORE = Path(tempfile.mkdtemp(prefix="evc-test-store-")) / "measurements"
shutil.copytree(ROOT / "measurements", _STORE)
os.environ["EVC_MEASUREMENTS"] = str(_STORE)
# The tests keep a cache of their own for this run: the site build of the tests reuses the snippet
# runs of the snippet tests, but those ran side by side, so `./evc.sh site` must not show them.
_CACHE = Path(tempfile.mkdtemp(prefix="evc-test-cache-"))
# It starts as a copy of what the last `./evc.sh site` kept (read, never written): every cache entry is
# keyed by its inputs (a snippet's text, torch, Python and the machine; a notebook's text, the machine and
# torch; a model report's factory; a profile's record), so what is unchanged since that build is reused
# by the tests' build, and what changed runs again. The snippet tests still run every snippet themselves.
SITE_CACHE = Path(os.environ.get("EVC_CACHE") or ROOT / ".cache" / "eager-vs-compiled")
# Set, not defaulted: a cache a developer exported for `./evc.sh site` must not receive the tests' runs.
os.environ["EVC_SNIPPETS"] = str(ROOT / "snippets")
os.environ["EVC_CACHE"] = str(_CACHE)
os.environ["NO_MKDOCS_2_WARNING"] = "1"
# Every fresh compile cache (most cold-start snippets and measurements make one, tens per run) would
# first build and load a probe program per vector instruction set Inductor knows (cpu_vec_isa.py):
# about 6 CPU s each on the 2-core machines, some 130 CPU s a run. The tests trust the CPU's flags
# instead (Inductor's own switch; it picks the same instruction set, so the same kernels); only the
# AVX-512 extension probes still run. `./evc.sh site` runs every snippet as a reader does, probes and all.
os.environ.setdefault("TORCHINDUCTOR_VEC_ISA_OK", "1")
# The snippets run side by side with the other tests, more threads than cores: OpenMP's threads,
# spin-waiting between parallel regions (libgomp's default), would burn the cores the other runs need
# (about a fifth of the snippets' CPU time on 2 cores). Here they sleep instead. Timings are not
# asserted; `./evc.sh site` runs one snippet at a time with OpenMP's defaults, as a reader does.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
from helpers import MKDOCS, PREPARE, history_files, last_report, seed_cache  # noqa: E402

seed_cache(SITE_CACHE, _CACHE)


# --- The tests leave the checkout as they found it ------------------------------------------------------
# `git status --porcelain --ignored` (ignored files too: .gitignore would hide a stray write) and a hash
# of the committed measurements, at the start and at the end of the session. Python's own caches
# (__pycache__, .pytest_cache) come and go and are not the tests' writes.
def _tree_state() -> tuple[list[str], str]:
    import hashlib

    out = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=ROOT,
                         capture_output=True, text=True).stdout.splitlines()
    lines = sorted(ln for ln in out if "__pycache__" not in ln and ".pytest_cache" not in ln)
    digest = hashlib.sha256()
    for path in sorted((ROOT / "measurements").rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return lines, digest.hexdigest()


_TREE_BEFORE = _tree_state() if (ROOT / ".git").exists() else None


def pytest_sessionfinish(session, exitstatus):
    build = session.config.stash.get(SITE_BUILD, {}).get("proc")
    for proc in (session.config.stash.get(SNIPPET_POOL, None), build):  # stopped early (-x, Ctrl-C): stop them too
        if proc is not None and proc.poll() is None:
            proc.terminate()
            proc.wait()
    shutil.rmtree(_STORE.parent, ignore_errors=True)
    shutil.rmtree(_CACHE, ignore_errors=True)
    if _TREE_BEFORE is not None and exitstatus != pytest.ExitCode.INTERRUPTED:
        after = _tree_state()
        if after != _TREE_BEFORE:
            new = sorted(set(after[0]) - set(_TREE_BEFORE[0]))
            gone = sorted(set(_TREE_BEFORE[0]) - set(after[0]))
            measured = "; measurements/ changed" if after[1] != _TREE_BEFORE[1] else ""
            session.config.get_terminal_writer().line(
                f"\nTHE TESTS CHANGED THE CHECKOUT: new {new[:10]}, gone {gone[:10]}{measured}", red=True, bold=True)
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _phase(item, warm: bool = False) -> int:
    """The tests that wait for the snippet runs after the others (which run meanwhile); then the tests
    marked beside_build, while the site builds (it reuses the snippet runs of the tests); the tests of
    the built site and the browser last. Any other test that reads the built site goes with test_site:
    asked for early, the build would start beside the snippet runs and run every snippet itself.

    `warm`: the last `./evc.sh site` left a cached run of every snippet as it is now (the README's
    order: site, then test). The tests' build then runs no snippet, so it starts with the session,
    beside the snippet runs, and the tests of the built site and the browser go before the tests
    that wait for the snippet runs: the long snippet runs and the browser visits overlap."""
    if item.get_closest_marker("beside_build"):
        return 3
    phase = {"test_snippets.py": 1, "test_recipes.py": 2, "test_site.py": 4, "test_browser.py": 5}.get(item.path.name, 0)
    phase = 4 if phase == 0 and "site" in getattr(item, "fixturenames", ()) else phase
    return {1: 6, 2: 7}.get(phase, phase) if warm else phase


SITE_CACHE_WARM = pytest.StashKey[bool]()


def _site_cache_warm() -> bool:
    """Every snippet has a cached run in the tests' cache (seeded from the last site build's)."""
    from eager_vs_compiled import snippets

    return all(snippets.cached(p.relative_to(snippets.root()).as_posix()) for p in snippets.root().rglob("*.py"))


# --- No test moves the process's clock ------------------------------------------------------------------
# A test that patches time.monotonic (or time.sleep ...) for the whole process moves every thread's
# clock with it: the snippet pool's waits, other modules' deadlines. A test patches the `time` name of
# the module it tests (`monkeypatch.setattr(measure, "time", ...)`), or injects a clock.
_REAL_CLOCKS = {name: getattr(time, name) for name in ("monotonic", "perf_counter", "time", "sleep")}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    moved = [name for name, real in _REAL_CLOCKS.items() if getattr(time, name) is not real]
    if moved:
        raise AssertionError(f"{item.nodeid} replaced time.{', time.'.join(moved)} for the whole process: "
                             "patch the `time` name of the module under test instead")
    return result


def pytest_collection_modifyitems(config, items):
    warm = (not os.environ.get("EVC_TEST_SITE") and any("site" in getattr(i, "fixturenames", ()) for i in items)
            and _site_cache_warm())
    config.stash[SITE_CACHE_WARM] = warm
    items.sort(key=lambda item: _phase(item, warm))


# --- Every snippet really runs, side by side, from the start of the session ---------------------------
# The runs start as soon as the tests are collected, in a process of their own (tests/snippet_pool.py),
# and go on while the other tests run; each snippet test then waits for its own result. They run side
# by side, so their timings are not the site's: the tests have a cache of their own.
SNIPPET_JOBS = int(os.environ.get("EVC_TEST_JOBS") or min(4, os.cpu_count() or 1))
SNIPPET_POOL = pytest.StashKey[subprocess.Popen]()
SNIPPET_RESULTS = pytest.StashKey[dict]()


def pytest_collection_finish(session):
    from eager_vs_compiled import snippets

    chosen = sorted((item.callspec.params["rel"] for item in session.items
                     if getattr(item, "originalname", "") == "test_snippet_runs_and_passes_its_asserts"),
                    key=snippets.slow_first)  # the long ones first
    if chosen:
        out = Path(tempfile.mkdtemp(prefix="runs-", dir=_CACHE))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests")])}
        session.config.stash[SNIPPET_POOL] = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "snippet_pool.py"), str(out), str(SNIPPET_JOBS), *chosen], env=env)
        session.config.stash[SNIPPET_RESULTS] = {rel: out / f"{n}.json" for n, rel in enumerate(chosen)}
    if session.config.stash.get(SITE_CACHE_WARM, False):
        _start_site_build(session.config)  # it runs no snippet: see _phase


@pytest.fixture(scope="session")
def snippet_result(request):
    """snippet -> the result of its real run in this session: the pool's (waiting for it), or for a
    snippet the pool was not asked to run (a test file run alone), the runner's, cache and all."""
    from eager_vs_compiled import snippets

    pool, files = request.config.stash.get(SNIPPET_POOL, None), request.config.stash.get(SNIPPET_RESULTS, {})

    def wait(rel: str) -> snippets.SnippetResult:
        if rel not in files:
            return snippets.run(rel)
        while not files[rel].exists():
            if pool.poll() is not None and not files[rel].exists():
                raise RuntimeError(f"the snippet runs stopped (exit {pool.returncode}) before {rel} had a result")
            time.sleep(0.2)
        found = json.loads(files[rel].read_text())
        if "error" in found:
            raise RuntimeError(f"running {rel}: {found['error']}")
        return snippets.SnippetResult(**found)
    return wait


# --- The real site, built once per run, beside the tests marked beside_build ---------------------------
# The build is one process that keeps one core busy for most of a minute: it starts when the first test
# marked beside_build starts (or when a test first asks for the site), and those tests use the other core.
SITE_BUILD = pytest.StashKey[dict]()  # the build's process ("proc"), folder, log and the history before it


def _start_site_build(config) -> dict:
    if SITE_BUILD not in config.stash:
        out = config._tmp_path_factory.mktemp("site")  # what the tmp_path_factory fixture hands out
        started = {"dir": out / "site", "log": out / "build.log", "history_before": history_files(),
                   "t0": time.perf_counter()}
        with open(started["log"], "w") as log:
            # as `./evc.sh site` does: measure what the store copy lacks, then build from it
            steps = f"{shlex.join(PREPARE)} && exec {shlex.join([*MKDOCS, '-d', str(started['dir'])])}"
            started["proc"] = subprocess.Popen(["bash", "-c", steps], cwd=ROOT,
                                               stdout=subprocess.DEVNULL, stderr=log, text=True)
        config.stash[SITE_BUILD] = started
    return config.stash[SITE_BUILD]


def pytest_runtest_setup(item):
    if (item.get_closest_marker("beside_build") and not os.environ.get("EVC_TEST_SITE")
            and any("site" in i.fixturenames for i in item.session.items)):
        _start_site_build(item.config)


@pytest.fixture(scope="session")
def site(request):
    """The real site, built once per test run (measuring into the store copy whatever is missing).

    EVC_TEST_SITE=DIR reuses a site already built into DIR (for working on the browser tests only).
    """
    if os.environ.get("EVC_TEST_SITE"):
        return {"dir": Path(os.environ["EVC_TEST_SITE"])}
    started = _start_site_build(request.config)
    code = started["proc"].wait(timeout=3600)
    log = started["log"].read_text()
    assert code == 0, log[-5000:]
    print(f"\nsite build: {time.perf_counter() - started['t0']:.0f} s {last_report()}")
    return {"dir": started["dir"], "report": last_report(), "log": log,
            "history_before": started["history_before"], "history_after": history_files()}


@pytest.fixture(autouse=True)
def _a_build_context_per_test(monkeypatch):
    """Each test renders pages as a build of its own: the page layer's context (this machine, and the
    records it has read) starts empty, as the hook makes it once per build."""
    from eager_vs_compiled.pages import context

    monkeypatch.setattr(context, "_current", [])


@pytest.fixture(autouse=True)
def _no_run_to_run_term_unless_a_test_gives_one(monkeypatch):
    """A test's measurement looks for a calibration nowhere (the committed one of the machine the tests run
    on would widen the intervals and add rounds to the stop rule's tests, and its terms would widen every
    comparison of two records: terms.spreads); tests/test_reruns.py and tests/test_terms.py give their own."""
    from eager_vs_compiled import reruns, terms

    monkeypatch.setattr(reruns, "roots", lambda: [])
    monkeypatch.setattr(terms, "roots", lambda: [])
    reruns._for_machine.cache_clear()
    terms._spreads.cache_clear()
