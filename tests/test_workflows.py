"""The GitHub Actions workflows are valid (actionlint) and do what the README says."""
import shutil
import subprocess

import pytest
from helpers import ROOT, skip_unless_required

LINT = ROOT / "tools" / "actionlint.cjs"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def actionlint(*files) -> subprocess.CompletedProcess:
    if shutil.which("node") is None or not (ROOT / "tools" / "node_modules" / "@tktco").is_dir():
        skip_unless_required("actionlint needs node and `npm ci` in tools/ (./evc.sh test installs them when npm exists)")
    return subprocess.run(["node", str(LINT), *map(str, files)], capture_output=True, text=True, timeout=120)


def test_workflows_pass_actionlint():
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "gpu.yml"}
    out = actionlint(*WORKFLOWS)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{len(WORKFLOWS)} file(s), 0 problem(s)" in out.stdout


def test_actionlint_catches_a_broken_workflow(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - uses: actions/checkout@v4\n        with: {fetch-depht: 1}\n")
    out = actionlint(bad)
    assert out.returncode == 1 and "fetch-depht" in out.stdout


def test_cpu_workflow_runs_the_readme_test_command_which_builds_the_site_once():
    text = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    assert "./evc.sh test" in text and "./evc.sh site" not in text  # the tests build the site, once
    assert "EVC_CHROMIUM" in text  # the runner's own browser: Ubuntu's chromium package is a snap wrapper


def test_gpu_workflow_builds_with_measurement_uploads_records_and_deploys_pages():
    text = (ROOT / ".github" / "workflows" / "gpu.yml").read_text()
    for needed in ("self-hosted", "./evc.sh site", "EVC_REMEASURE", "path: measurements/",
                   "actions/upload-pages-artifact", "actions/deploy-pages", "pages: write"):
        assert needed in text, needed
