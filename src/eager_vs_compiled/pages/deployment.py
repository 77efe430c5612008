"""A deployment's footprint: what a process that runs the model costs, eager and each engine with torch
and without it (the footprint records, footprint.py): import, load, first call, time per call, peak
memory, the files shipped. Each figure is the median of the record's fresh processes, with their range;
the words beside them follow the ranges."""

from __future__ import annotations

import statistics

from .. import experiments, store
from .context import current
from .lang import tr
from .methodology import _experiments
from .provenance import code, esc, fmt_bytes, fmt_time, label, machine_words, tab

WAYS = {"eager": "PyTorch eager", "onnxruntime": "ONNX Runtime", "openvino": "OpenVINO"}


def _spread(row: dict, key: str, unit) -> str:
    values = [p[key] for p in row["processes"]]
    if not values:
        return "—"
    mid, lo, hi = unit(statistics.median(values)), unit(min(values)), unit(max(values))
    return mid if lo == hi else f"{mid} ({lo}–{hi})"


def _line(row: dict) -> str:
    torch_words = tr("yes") if row["torch"] else tr("no")
    if row["status"] != "ok":
        return f"| {WAYS[row['mode']]} | {torch_words} | **{esc(row['status'])}**: {esc(row['message'])} | | | | | |"
    size = fmt_bytes(row.get("artifact_bytes")) if row.get("artifact_bytes") else tr("the model's code")
    return (f"| {WAYS[row['mode']]} | {torch_words} | {_spread(row, 'import_s', fmt_time)} | {_spread(row, 'load_s', fmt_time)} "
            f"| {_spread(row, 'first_call_s', fmt_time)} | {_spread(row, 'call_s', fmt_time)} "
            f"| {_spread(row, 'peak_rss_bytes', fmt_bytes)} | {size} |")


def _compare(without: dict, with_torch: dict, key: str, words: tuple = ("smaller", "larger")) -> str:
    """'smaller' or 'larger' (`words`) where the processes' ranges do not overlap, else 'about the same'."""
    a, b = [p[key] for p in without["processes"]], [p[key] for p in with_torch["processes"]]
    if not a or not b:
        return "—"
    return tr(words[0]) if max(a) < min(b) else tr(words[1]) if min(a) > max(b) else tr("about the same (the ranges overlap)")


def _verdicts(rows: list[dict]) -> str:
    out = []
    for engine in ("onnxruntime", "openvino"):
        pair = {r["torch"]: r for r in rows if r["mode"] == engine and r["status"] == "ok" and r["processes"]}
        if len(pair) < 2:
            continue
        out.append("- " + tr("{engine} without torch, against the same engine in a process with torch: peak memory "
                             "{memory}; import and load time {time}.", engine=WAYS[engine],
                             memory=_compare(pair[False], pair[True], "peak_rss_bytes"),
                             time=_compare_sum(pair[False], pair[True])))
    return "\n".join(out) + "\n" if out else ""


def _compare_sum(without: dict, with_torch: dict) -> str:
    starts = [{"start": p["import_s"] + p["load_s"]} for p in without["processes"]]
    starts_t = [{"start": p["import_s"] + p["load_s"]} for p in with_torch["processes"]]
    return _compare({"processes": starts}, {"processes": starts_t}, "start", ("shorter", "longer"))


def table(name: str) -> str:
    """One tab per machine with a footprint record of `name`."""
    out = []
    for slug, (_rel, folder) in _experiments(experiments.FOOTPRINT).items():
        path = folder / f"{name}.json"
        if not path.is_file():
            continue
        rec = experiments.load_footprint(path)
        lines = [tr("| Way | torch in the process | Import | Load | First call | Time per call, the next {calls} calls | "
                    "Peak memory (RSS) | What it ships |", calls=esc(rec.get("calls"))), "|---|---|---|---|---|---|---|---|"]
        lines += [_line(r) for r in rec["rows"]]
        k = max((len(r["processes"]) for r in rec["rows"]), default=0)
        v = rec["versions"]
        note = tr("Measured on {machine} · {date} · torch {torch}, ONNX Runtime {ort}, OpenVINO {ov} · {k} fresh "
                  "processes of each way, in turn, {threads} threads, {calls} calls each after the first; every "
                  "output checked against eager's; each figure the median of the processes (their range)",
                  machine=machine_words(rec["machine"]), date=esc(rec["date"][:10]), torch=esc(v.get("torch")),
                  ort=esc(v.get("onnxruntime") or "—"), ov=esc(v.get("openvino") or "—"), k=k,
                  threads=esc(rec.get("threads")), calls=esc(rec.get("calls")))
        body = "\n".join(lines) + "\n\n" + _verdicts(rec["rows"]) + "\n" + note + "\n{: .evc-provenance }\n"
        here = slug == current().slug and store.release(v.get("torch", "")) == current().release
        out.append(tab(tr("{label} (this build)" if here else "{label} (committed)", label=label(rec["machine"])), body))
    return "\n".join(out) or tr("No footprint record of {name} yet (`python -m eager_vs_compiled calibrate "
                                "--footprint -w {command_name}`).", name=code(name), command_name=esc(name)) + "\n"
