import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The tests and the site share one snippet cache, so the build after the tests re-runs nothing.
os.environ.setdefault("EVC_SNIPPETS", str(ROOT / "snippets"))
os.environ.setdefault("EVC_CACHE", str(ROOT / ".cache" / "eager-vs-compiled"))
os.environ.setdefault("EVC_MEASUREMENTS", str(ROOT / "measurements"))
os.environ["NO_MKDOCS_2_WARNING"] = "1"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))
from helpers import build, last_report  # noqa: E402


@pytest.fixture
def root() -> Path:
    return ROOT


def pytest_collection_modifyitems(config, items):
    # Snippets first, the site build and the browser last: the build then reuses the snippet runs of the tests.
    items.sort(key=lambda item: {"test_snippets.py": 0, "test_site.py": 2, "test_browser.py": 3}.get(item.path.name, 1))


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """Build once (measuring whatever is missing here), then once more with nothing changed.

    EVC_TEST_SITE=DIR reuses a site already built into DIR (for working on the browser tests only).
    """
    if os.environ.get("EVC_TEST_SITE"):
        return {"dir": Path(os.environ["EVC_TEST_SITE"])}
    out = tmp_path_factory.mktemp("site")
    history = history_files()
    t0 = time.perf_counter()
    first = build(out / "first")
    first_s = time.perf_counter() - t0
    assert first.returncode == 0, first.stderr[-5000:]
    first_report = last_report()
    t0 = time.perf_counter()
    second = build(out / "second")
    second_s = time.perf_counter() - t0
    assert second.returncode == 0, second.stderr[-5000:]
    print(f"\nsite build: first {first_s:.0f} s {first_report}, second {second_s:.0f} s {last_report()}")
    return {"dir": out / "second", "second_report": last_report(), "second_log": second.stderr,
            "history_before": history, "history_after": history_files()}


def history_files() -> dict[str, tuple[bytes, int]]:
    """Every file of another torch release than the installed one (history): content and mtime."""
    from eager_vs_compiled import machine, store

    mine = f"{store.RELEASE_PREFIX}{store.release(machine.versions()['torch'])}"
    root = Path(os.environ["EVC_MEASUREMENTS"])
    return {p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.glob(f"*/{store.RELEASE_PREFIX}*/**/*")) if p.is_file()
            and p.relative_to(root).parts[1] != mine}
