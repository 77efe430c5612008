import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The tests and the site share one snippet cache, so the build after the tests re-runs nothing.
os.environ.setdefault("EVC_SNIPPETS", str(ROOT / "snippets"))
os.environ.setdefault("EVC_CACHE", str(ROOT / ".cache" / "eager-vs-compiled"))
os.environ.setdefault("EVC_MEASUREMENTS", str(ROOT / "measurements"))
os.environ["NO_MKDOCS_2_WARNING"] = "1"
sys.path.insert(0, str(ROOT / "src"))


@pytest.fixture
def root() -> Path:
    return ROOT


def pytest_collection_modifyitems(config, items):
    # Snippets first, the site build last: the build then reuses the snippet runs of the tests.
    items.sort(key=lambda item: {"test_snippets.py": 0, "test_site.py": 2}.get(item.path.name, 1))
