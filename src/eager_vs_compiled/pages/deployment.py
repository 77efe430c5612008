"""A deployment's footprint: what a process that runs the model costs, eager and each engine with torch
and without it (the footprint records, footprint.py): import, load, first call, time per call, peak
memory, the files shipped. Each figure is the median of the record's fresh processes, with their range;
the words beside them follow the ranges."""

from __future__ import annotations

import statistics

from .. import experiments, store
from .context import current
from .lang import tr
from .methodology import experiment_files
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


def _compare(without: list[float], with_torch: list[float], words: tuple = ("smaller", "larger")) -> str:
    """'smaller' or 'larger' (`words`) where the processes' ranges do not overlap, else 'about the same'."""
    if not without or not with_torch:
        return "—"
    if max(without) < min(with_torch):
        return tr(words[0])
    return tr(words[1]) if min(without) > max(with_torch) else tr("about the same (the ranges overlap)")


def _values(row: dict, *keys: str) -> list[float]:
    """Each process's figure (the sum of `keys`: import and load make its start)."""
    return [sum(p[k] for k in keys) for p in row["processes"]]


def _verdicts(rows: list[dict]) -> str:
    out = []
    for engine in experiments.FOOTPRINT_MODES[1:]:
        pair = {r["torch"]: r for r in rows if r["mode"] == engine and r["status"] == "ok" and r["processes"]}
        if len(pair) < 2:
            continue
        out.append("- " + tr("{engine} without torch, against the same engine in a process with torch: peak memory "
                             "{memory}; import and load time {time}.", engine=WAYS[engine],
                             memory=_compare(_values(pair[False], "peak_rss_bytes"), _values(pair[True], "peak_rss_bytes")),
                             time=_compare(_values(pair[False], "import_s", "load_s"),
                                           _values(pair[True], "import_s", "load_s"), ("shorter", "longer"))))
    return "\n".join(out) + "\n" if out else ""


def table(name: str) -> str:
    """One tab per machine with a footprint record of `name`."""
    out = []
    for slug, path in experiment_files(experiments.FOOTPRINT, name):
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
