"""Shared test helpers: the repository root, records built without torch runs, strict site builds
(the real site or a small one of a test's own)."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from eager_vs_compiled import machine, measure, store, workloads
from eager_vs_compiled.records import ModeResult, Record


ROOT = Path(__file__).resolve().parents[1]
RELEASE = store.release(machine.versions()["torch"])  # the installed torch's release: this build's


def make_record(name="mlp", machine_info=None, torch_version=None, eager=(0.010, 0.011, 0.012),
                compiled=(0.005, 0.006, 0.005), first_call_s=2.0) -> Record:
    w = workloads.get(name)
    profile = workloads.default_profile()
    results = [ModeResult("eager", "ok", samples_s=list(eager)).finish(w.items_per_call(profile))]
    for mode in w.modes[profile][1:]:
        results.append(ModeResult(mode, "ok", samples_s=list(compiled), eager_samples_s=list(eager),
                                  first_call_s=first_call_s, compile_warm_s=0.5,
                                  max_abs_err=1e-7, max_rel_err=1e-7).finish(w.items_per_call(profile)))
    versions = dict(machine.versions())
    if torch_version:
        versions["torch"] = torch_version
    return Record(workload=name, title=w.title, profile=profile, device="cpu", spec=w.spec(profile),
                  spec_hash=w.spec_hash(profile), harness_version=measure.HARNESS_VERSION,
                  machine=machine_info or machine.describe(), versions=versions,
                  date="2026-12-01T00:00:00+00:00", git_commit=None, results=results)


def cli(capsys, *args) -> tuple[int, str, str]:
    """`python -m eager_vs_compiled ARGS` run in this process: (exit code, stdout, stderr).

    For the tests of what the CLI says; each subprocess would import torch again (2 to 3 CPU s). The
    entry point itself is run as a real process by the tests that measure (test_cli, test_rebuilds)."""
    from eager_vs_compiled import cli as evc_cli

    capsys.readouterr()
    try:
        code = evc_cli.main(list(args))
    except SystemExit as e:  # argparse refusing an argument
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict"]
PREPARE = [sys.executable, "-m", "eager_vs_compiled", "prepare"]  # what `./evc.sh site` runs before MKDOCS


def build(site_dir: Path, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*MKDOCS, "-d", str(site_dir)], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=3600)


def last_report(cache: str | None = None) -> dict:
    """The report the last build wrote into its cache folder (default: the tests' own)."""
    return json.loads((Path(cache or os.environ["EVC_CACHE"]) / "last-build.json").read_text())


def seed_cache(built: Path, fresh: Path) -> None:
    """Start the cache `fresh` with what the build that used `built` kept (`built` is only read). Every
    entry is keyed by its inputs, so the next build reuses what is unchanged and runs what changed."""
    import shutil

    for part in ("snippets", "notebooks", "model-reports", "profiles"):
        if (built / part).is_dir():
            shutil.copytree(built / part, fresh / part, dirs_exist_ok=True)


def history_files() -> dict[str, tuple[bytes, int]]:
    """Every file of another torch release than the installed one (history): content and mtime."""
    mine = f"{store.RELEASE_PREFIX}{RELEASE}"
    root = Path(os.environ["EVC_MEASUREMENTS"])
    return {p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.glob(f"*/{store.RELEASE_PREFIX}*/**/*")) if p.is_file()
            and p.relative_to(root).parts[1] != mine}


def small_site(tmp_path: Path, page: str, snippets: dict[str, str] | None = None) -> dict:
    """A site of one page (`page`, Markdown) with our hook, its own snippets, cache and store:
    returns the environment that points the package at them."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(textwrap.dedent(page))
    (tmp_path / "snippets").mkdir()
    for rel, code in (snippets or {}).items():
        (tmp_path / "snippets" / rel).write_text(code)
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(f'''\
        site_name: t
        strict: true
        hooks: [{ROOT / "hooks" / "evc.py"}]
        plugins: [markdown-exec]
        markdown_extensions: [attr_list, admonition, tables, pymdownx.superfences, pymdownx.details,
                              {{pymdownx.tabbed: {{alternate_style: true}}}}]
        '''))
    return {"EVC_SNIPPETS": str(tmp_path / "snippets"), "EVC_CACHE": str(tmp_path / "cache"),
            "EVC_MEASUREMENTS": str(tmp_path / "m"), "EVC_REMEASURE": ""}


def skip_unless_required(reason: str):
    """Skip a check whose tool is missing here (the browser, axe-core, actionlint), visibly; where CI
    requires the checks (EVC_REQUIRE_BROWSER=1, set by .ci/run and the workflow), fail instead."""
    import pytest

    if os.environ.get("EVC_REQUIRE_BROWSER") == "1":
        pytest.fail(f"EVC_REQUIRE_BROWSER=1, but {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def pages_read(monkeypatch, lookup) -> None:
    """The page layer takes `lookup[name]` (a dict: None where absent) or `lookup(name)` as this machine's
    fresh record of a workload: a build context of this machine holding them, for this test only."""
    from eager_vs_compiled.pages import context

    get = lookup.get if isinstance(lookup, dict) else lookup

    class Held(dict):
        def __missing__(self, name):
            return get(name)

    ctx = context.BuildContext.of_this_machine()
    ctx.records = Held()
    monkeypatch.setattr(context, "_current", [ctx])


def as_steps(fn):
    """A fake measurement shaped as measure.workload_steps is: a generator that pauses once (one round),
    then returns what `fn` returns."""
    def steps(*args, **kwargs):
        yield
        return fn(*args, **kwargs)
    return steps
