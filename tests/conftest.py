import os
import shutil
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
os.environ.setdefault("EVC_SNIPPETS", str(ROOT / "snippets"))
os.environ.setdefault("EVC_CACHE", str(_CACHE))
os.environ["NO_MKDOCS_2_WARNING"] = "1"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
from helpers import build, history_files, last_report  # noqa: E402


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_STORE.parent, ignore_errors=True)
    shutil.rmtree(_CACHE, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    # Snippets first, the site build and the browser last: the build then reuses the snippet runs of the tests.
    items.sort(key=lambda item: {"test_snippets.py": 0, "test_site.py": 2, "test_browser.py": 3}.get(item.path.name, 1))


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The real site, built once per test run (measuring into the store copy whatever is missing).

    EVC_TEST_SITE=DIR reuses a site already built into DIR (for working on the browser tests only).
    """
    if os.environ.get("EVC_TEST_SITE"):
        return {"dir": Path(os.environ["EVC_TEST_SITE"])}
    out = tmp_path_factory.mktemp("site")
    history = history_files()
    t0 = time.perf_counter()
    done = build(out / "site")
    assert done.returncode == 0, done.stderr[-5000:]
    print(f"\nsite build: {time.perf_counter() - t0:.0f} s {last_report()}")
    return {"dir": out / "site", "report": last_report(), "log": done.stderr,
            "history_before": history, "history_after": history_files()}
