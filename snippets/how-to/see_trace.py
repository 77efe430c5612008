"""Record a compile with TORCH_TRACE and read it: with tlparse when installed, else with json."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import torch
def f(x):
    y = torch.relu(x) * 2
    if y.sum() > 0:  # a graph break
        return y.cos()
    return y.sin()
compiled = torch.compile(f)
compiled(torch.randn(8))
compiled(torch.randn(16))  # a new size: both frames compile again
"""
KEY_FILES = {"recompile_reasons": "recompile reasons", "graph_break_reason": "graph break",
             "dynamo_output_graph": "FX graph", "cpp_guards": "guards", "inductor_output_code": "output code",
             "fx_graph_cache_hit": "FX-graph cache hit", "fx_graph_cache_miss": "FX-graph cache miss"}


def trace_records(log):
    """(metadata, payload) per record: a JSON line after the glog prefix, then tab-indented lines."""
    records = []
    for line in log.read_text().splitlines():
        if line.startswith("\t"):
            records[-1][1].append(line[1:])
        else:
            records.append((json.loads(line.split("] ", 1)[1]), []))
    return [(meta, "\n".join(payload)) for meta, payload in records]


work = Path(tempfile.mkdtemp(dir="."))  # TORCH_TRACE writes one log file per process into this folder
subprocess.run([sys.executable, "-c", CHILD], env={**os.environ, "TORCH_TRACE": str(work / "trace")},
               check=True, stderr=subprocess.DEVNULL)
log = next((work / "trace").glob("*.log"))
records = trace_records(log)
print(f"{log.name}: {len(records)} records, {log.stat().st_size / 1e6:.1f} MB")

print(f"{'compile id':<11}{'frame':<31}{'ops':>4}{'guards':>7}{'compile s':>10}")
metrics = [meta["compilation_metrics"] for meta, _ in records if "compilation_metrics" in meta]
for m in metrics:
    print(f"{m['compile_id']:<11}{m['co_name']:<31}{m['graph_op_count']:>4}{m['guard_count']:>7}"
          f"{m['entire_frame_compile_time_s']:>10.2f}")
for meta, payload in records:
    if meta.get("artifact", {}).get("name") == "recompile_reasons":
        print(f"recompile {meta['frame_id']}/{meta['frame_compile_id']} because {payload.strip()}")

tlparse = shutil.which("tlparse") or shutil.which("tlparse", path=os.path.dirname(sys.executable))
if tlparse is None:
    print("tlparse is not installed: `pip install tlparse`, then `tlparse <log> -o <dir> --no-browser`")
else:
    out = work / "tl_out"
    run = subprocess.run([tlparse, str(log), "-o", str(out), "--no-browser"], capture_output=True, text=True)
    version = subprocess.run([tlparse, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"\n$ tlparse {log.name} -o tl_out --no-browser  ({version}, exit code {run.returncode})")
    print("tl_out/:", sorted(p.name for p in out.iterdir() if p.is_file()))
    directory = json.loads((out / "compile_directory.json").read_text())
    print("compile_directory.json, the files tlparse wrote for each compile id (a few of them named):")
    for compile_id, entry in directory.items():
        if compile_id == "[-/-]":  # outside any compile: the torch version
            continue
        names = " ".join(a["name"] for a in entry["artifacts"])
        found = [label for key, label in KEY_FILES.items() if key in names]
        print(f"  {compile_id:<6} {len(entry['artifacts']):>2} files: {', '.join(found)}")
    assert run.returncode == 0 and (out / "index.html").is_file()
    assert {f"[{m['compile_id']}]" for m in metrics} <= directory.keys(), "tlparse lists every compile id"

shutil.rmtree(work)
assert [m["compile_id"] for m in metrics] == ["0/0", "1/0", "0/1", "1/1"], "frame/compile count"
assert metrics[0]["co_name"] == "f" and metrics[1]["co_name"].startswith("torch_dynamo_resume_in_f")
artifacts = {meta["artifact"]["name"] for meta, _ in records if "artifact" in meta}
assert {"dynamo_graph_break_reason", "recompile_reasons"} <= artifacts, "the trace keeps why"
