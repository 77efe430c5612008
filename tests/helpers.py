"""Shared test helpers: records built without torch runs, and strict site builds."""
import json
import os
import subprocess
import sys
from pathlib import Path

from eager_vs_compiled import machine, measure, store, workloads
from eager_vs_compiled.records import ModeResult, Record


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


ROOT = Path(__file__).resolve().parents[1]
MKDOCS = [sys.executable, "-m", "mkdocs", "build", "--strict"]


def build(site_dir: Path, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*MKDOCS, "-d", str(site_dir)], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=3600)


def last_report() -> dict:
    return json.loads((Path(os.environ["EVC_CACHE"]) / "last-build.json").read_text())
