"""Where the store, the snippets, the cache and the pages are: a variable where set, else under the
root a build anchored, else the current folder; a child process is told what its parent found."""
from pathlib import Path

from eager_vs_compiled import paths


def test_a_variable_wins_else_the_anchored_root_else_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "_anchored", {})
    monkeypatch.delenv("EVC_MEASUREMENTS", raising=False)
    monkeypatch.delenv("EVC_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    assert paths.measurements() == Path("measurements") and paths.docs() == Path("docs")
    assert paths.root() == tmp_path.resolve() and paths.child_env() == {}  # nothing anchored: nothing to pass on
    paths.anchor(tmp_path / "project", tmp_path / "project" / "docs")
    assert paths.measurements() == (tmp_path / "project" / "measurements").resolve()
    assert paths.cache() == (tmp_path / "project" / ".cache" / "eager-vs-compiled").resolve()
    assert paths.docs() == (tmp_path / "project" / "docs").resolve() and paths.root() == (tmp_path / "project").resolve()
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path / "elsewhere"))
    assert paths.measurements() == tmp_path / "elsewhere"
    env = paths.child_env()
    assert env["EVC_MEASUREMENTS"] == str((tmp_path / "elsewhere").resolve())
    assert env["EVC_CACHE"] == str((tmp_path / "project" / ".cache" / "eager-vs-compiled").resolve())
