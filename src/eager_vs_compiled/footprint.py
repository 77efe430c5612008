"""A deployment's footprint: what a process that runs the model costs, with torch and without it.

A converted model (ONNX Runtime's `.onnx`, OpenVINO's `.xml`/`.bin`) is run by its engine alone: a
deployment need not install or import torch. For each way, fresh processes (round-robin, `processes`
of each) start from nothing and record: the import time (torch, the engine, or both), the load time
(building the model from code for eager; the engine's session or compiled model from the saved
files), the first call, the time per call after it, and the process's peak resident memory. The
engine rows run the same files the parent converted, with the settings of the engine modes
(engines.settings, the thread count of torch beside them), on the inputs eager ran; every process's
output is checked against eager's. Records go to <release>/footprint/<workload>.json (their own
small schema; experiments.load_footprint validates it on load like every record). `calibrate --footprint` measures them.
"""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from . import engines, isolate, machine, store, workloads
from .experiments import FOOTPRINT, FOOTPRINT_MODES, FOOTPRINT_SCHEMA as SCHEMA

ROWS = (("eager", True), *((engine, torch) for engine in FOOTPRINT_MODES[1:] for torch in (False, True)))
CALLS = 20


def _engine(args: dict, np):
    """The engine's runner over the saved files, built as the engine modes build it (engines.py)."""
    folder, threads = Path(args["folder"]), args["threads"]
    if args["mode"] == "onnxruntime":
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads
        for key, value in engines.settings("onnxruntime").items():
            if key.startswith("session."):
                options.add_session_config_entry(key, value)
        session = ort.InferenceSession(str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"])
        names = [i.name for i in session.get_inputs()]
        return lambda xs: session.run(None, dict(zip(names, xs)))[0]
    import openvino as ov

    core = ov.Core()
    config = {k: v for k, v in engines.settings("openvino").items() if k.isupper()}
    compiled = core.compile_model(core.read_model(str(folder / "model.xml")), "CPU",
                                  {**config, "INFERENCE_NUM_THREADS": threads})
    request = compiled.create_infer_request()

    def run(xs):
        request.infer(xs)
        return np.array(request.get_output_tensor(0).data)
    return run


def _child(args: dict) -> dict:
    """One fresh process of one way: import, load, first call, CALLS calls, its peak memory."""
    t0 = time.perf_counter()
    if args["torch"]:
        import torch

        torch.set_num_threads(args["threads"])
    if args["mode"] != "eager":
        importlib.import_module(args["mode"])
    import numpy as np

    t1 = time.perf_counter()
    if args["mode"] == "eager":
        built = workloads.get(args["workload"]).build("cpu", torch.device("cpu"))
        run = lambda xs: built.call(*built.inputs)  # noqa: E731
        xs = None
    else:
        run, xs = _engine(args, np), [np.load(p) for p in args["inputs"]]
    t2 = time.perf_counter()
    out = run(xs)
    t3 = time.perf_counter()
    samples = []
    for _ in range(CALLS):
        s = time.perf_counter()
        run(xs)
        samples.append(time.perf_counter() - s)
    first = out[0] if isinstance(out, (tuple, list)) else out
    np.save(args["out"], first.detach().numpy() if hasattr(first, "detach") else np.asarray(first))
    samples.sort()
    return {"import_s": t1 - t0, "load_s": t2 - t1, "first_call_s": t3 - t2, "call_s": samples[len(samples) // 2],
            "peak_rss_bytes": isolate.peak_rss()[0], "torch_imported": "torch" in sys.modules}


def _convert(name: str, folder: Path, say) -> tuple[list[str], object, dict[str, int]]:
    """Eager's inputs saved as .npy, eager's output, and each engine's files (converted here, with torch)."""
    import numpy as np
    import torch

    built = workloads.get(name).build("cpu", torch.device("cpu"))
    out = built.call(*built.inputs)
    ref = (out[0] if isinstance(out, (tuple, list)) else out).detach().numpy()
    inputs = []
    for i, x in enumerate(built.inputs):
        inputs.append(str(folder / f"input{i}.npy"))
        np.save(inputs[-1], x.detach().numpy())
    sizes = {}
    for engine in FOOTPRINT_MODES[1:]:
        say(f"{name}: converting for {engine}")
        try:
            with torch.no_grad():  # as the harness converts: inside the inference step's first call (models.py)
                engines.convert(engine, frozenset(), built.model if built.model is not None else built.fn,
                                built.inputs, folder / engine, name)
        except engines.ExportFailed as e:  # that engine's rows say why; the others are measured
            sizes[engine] = str(e)
            continue
        sizes[engine] = engines.artifact_bytes(folder / engine)
    return inputs, ref, sizes


def _check(got_path: Path, ref, rtol: float) -> tuple[str, float | None]:
    import numpy as np

    got = np.load(got_path)
    if got.shape != ref.shape:
        return "mismatch", None
    err = float(np.max(np.abs(got.astype("float64") - ref)) / max(float(np.max(np.abs(ref))), 1e-30))
    return ("ok" if err <= rtol else "mismatch"), err


def measure(name: str, root: Path, say, processes: int = 3) -> Path:
    """The footprint record of one workload (cpu profile): every way of ROWS in `processes` fresh processes each."""
    import torch

    w, threads = workloads.get(name), torch.get_num_threads()
    rows = {(m, t): {"mode": m, "torch": t, "status": "ok", "message": "", "processes": [], "max_rel_err": 0.0}
            for m, t in ROWS}
    with tempfile.TemporaryDirectory(prefix="evc-footprint-") as tmp:
        inputs, ref, sizes = _convert(name, Path(tmp), say)
        unexported = {mode: why for mode, why in sizes.items() if isinstance(why, str)}
        for (mode, _), row in rows.items():
            if mode in unexported:
                row["status"], row["message"], sizes[mode] = "error", unexported[mode][:300], None
        for k in range(processes):
            for (mode, with_torch), row in rows.items():
                if mode in unexported:
                    continue
                say(f"{name}: {mode} {'with' if with_torch else 'without'} torch, process {k + 1} of {processes}")
                args = {"workload": name, "mode": mode, "torch": with_torch, "threads": threads, "inputs": inputs,
                        "folder": str(Path(tmp) / mode), "out": str(Path(tmp) / "out.npy")}
                _one(args, Path(tmp) / "result.json", row, ref, w.tolerance)
    rec = {"schema": SCHEMA, "workload": name, "title": w.title, "threads": threads, "calls": CALLS,
           "machine": machine.describe(), "versions": machine.versions(),
           "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "rows": [dict(r, artifact_bytes=sizes.get(r["mode"])) for r in rows.values()]}
    path = store.release_dir(Path(root), rec["machine"]["slug"], store.release(rec["versions"]["torch"])) / FOOTPRINT
    store.write_atomic(path / f"{name}.json", json.dumps(rec, indent=1) + "\n")
    return path / f"{name}.json"


def _one(args: dict, result: Path, row: dict, ref, rtol: float) -> None:
    """Run one process of a way and add what it measured (or why it failed) to its row."""
    result.unlink(missing_ok=True)
    code, _, err = isolate.module("eager_vs_compiled.footprint", [json.dumps(args), str(result)], None, 900)
    if code != 0 or not result.is_file():
        row["status"], row["message"] = "error", (err.strip().splitlines() or [f"exit {code}"])[-1][:300]
        return
    got = json.loads(result.read_text())
    if got.pop("torch_imported") != args["torch"]:
        row["status"], row["message"] = "error", "torch was imported where it should not be (or the other way)"
        return
    status, rel_err = _check(Path(args["out"]), ref, rtol)
    if rel_err is not None:
        row["max_rel_err"] = max(row["max_rel_err"], rel_err)
    if status != "ok":
        row["status"], row["message"] = status, f"output differs from eager's (relative {rel_err})"
    row["processes"].append(got)


if __name__ == "__main__":
    Path(sys.argv[2]).write_text(json.dumps(_child(json.loads(sys.argv[1]))))
