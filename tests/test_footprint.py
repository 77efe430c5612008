"""A deployment's footprint: each engine's process with torch and without it (footprint.py), its record
validated on load, and the page's words following the processes' ranges."""
import copy
import importlib.util
import json

import pytest
from helpers import cli

from eager_vs_compiled import experiments, machine, records, store
from eager_vs_compiled.pages import deployment


def _process(import_s=0.1, load_s=0.05, peak=400 * 2**20):
    return {"import_s": import_s, "load_s": load_s, "first_call_s": 0.01, "call_s": 0.002, "peak_rss_bytes": peak}


def footprint_record(without_peaks=(100, 110, 105), with_peaks=(500, 520, 510)) -> dict:
    def row(mode, torch, peaks, import_s):
        return {"mode": mode, "torch": torch, "status": "ok", "message": "", "max_rel_err": 1e-7, "artifact_bytes": 8 * 2**20,
                "processes": [_process(import_s, 0.05, p * 2**20) for p in peaks]}
    return {"schema": experiments.FOOTPRINT_SCHEMA, "workload": "engines_mlp", "title": "MLP inference", "threads": 2,
            "calls": 20, "machine": machine.describe(), "versions": machine.versions(), "date": "2026-12-06T16:00:00+00:00",
            "rows": [row("eager", True, with_peaks, 1.5), row("onnxruntime", False, without_peaks, 0.06),
                     row("onnxruntime", True, with_peaks, 1.0), row("openvino", False, with_peaks, 1.2),
                     row("openvino", True, with_peaks, 1.1)]}


def _save(root, rec: dict):
    path = store.release_dir(root, rec["machine"]["slug"], store.release(rec["versions"]["torch"])) / "footprint"
    path.mkdir(parents=True, exist_ok=True)
    (path / f"{rec['workload']}.json").write_text(json.dumps(rec))
    return path / f"{rec['workload']}.json"


@pytest.mark.parametrize("edit, why", [
    (lambda r: r.update(schema=2), "unknown schema"),
    (lambda r: r["rows"][0].update(mode="tensorrt"), "mode"),
    (lambda r: r["rows"][1]["processes"][0].update(peak_rss_bytes=-1), "a process's numbers"),
    (lambda r: r["rows"][1]["processes"][0].update(import_s=float("nan")), "a process's numbers"),
    (lambda r: r["rows"][2].update(status="fine"), "status"),
    (lambda r: r.update(date="yesterday"), "ValueError"),
    (lambda r: r["machine"].update(slug="../../etc"), "slug"),
])
def test_a_broken_footprint_record_is_refused_by_name(tmp_path, edit, why):
    rec = copy.deepcopy(footprint_record())
    edit(rec)
    path = _save(tmp_path, rec)
    with pytest.raises(records.RecordError, match=why):
        experiments.load_footprint(path)


def test_the_words_follow_the_processes_ranges_on_both_sides(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    _save(tmp_path, footprint_record(without_peaks=(100, 110, 105), with_peaks=(500, 520, 510)))
    text = deployment.table("engines_mlp")
    assert "ONNX Runtime without torch, against the same engine in a process with torch: peak memory smaller; " \
           "import and load time shorter." in text
    assert "OpenVINO without torch, against the same engine in a process with torch: peak memory about the same" in text
    assert "105 MiB (100 MiB–110 MiB)" in text and "(this build)" in text
    # the ranges touch: no word of direction
    _save(tmp_path, footprint_record(without_peaks=(500, 600, 700), with_peaks=(650, 700, 750)))
    assert "ONNX Runtime without torch, against the same engine in a process with torch: peak memory about the same" \
        in deployment.table("engines_mlp")
    assert "No footprint record of <code>engines_vit_b_16</code> yet" in deployment.table("engines_vit_b_16")


def test_footprint_takes_no_mode_and_only_the_cpu_profile(capsys):
    code, _, err = cli(capsys, "calibrate", "--footprint", "-w", "engines_mlp", "--mode", "onnxruntime")
    assert code == 2 and "--footprint measures eager, ONNX Runtime and OpenVINO" in err
    code, _, err = cli(capsys, "calibrate", "--footprint", "--throughput", "-w", "engines_mlp")
    assert code == 2 and "one of --protocols, --interference, --throughput, --footprint at a time" in err


@pytest.mark.slow
@pytest.mark.skipif(not all(importlib.util.find_spec(m) for m in ("onnxruntime", "openvino")),
                    reason="needs onnxruntime and openvino (./evc.sh installs them)")
def test_an_engine_runs_without_torch_and_matches_eager(tmp_path, capsys):
    code, _, err = cli(capsys, "calibrate", "--footprint", "-w", "engines_tiny_op", "--rounds", "1", "--out", str(tmp_path))
    assert code == 0, err[-2000:]
    rec = experiments.load_footprint(next(tmp_path.rglob("footprint/engines_tiny_op.json")))
    rows = {(r["mode"], r["torch"]): r for r in rec["rows"]}
    assert set(rows) == {("eager", True), ("onnxruntime", False), ("onnxruntime", True), ("openvino", False),
                         ("openvino", True)}
    # ok: each process's output matched eager's, and torch was in the process exactly where the row says
    # (a process without torch that imported it is an error row, footprint._one)
    assert all(r["status"] == "ok" and len(r["processes"]) == 1 for r in rows.values()), rows
