"""Latency and throughput side by side: each mode's time per call with one stream (the workload's
record) beside the items per second of the whole machine with every core busy (the throughput
record, throughput.py: the best split of the cores into worker processes, stated per mode)."""

from __future__ import annotations

from .. import experiments, records, stats
from ..records import Record
from .lang import tr
from .ratios import with_interval
from .methodology import experiment_files
from .provenance import code, esc, fmt_time, ok, stamp, tab, tab_label


def _rate(items_per_s: float) -> str:
    return f"{items_per_s:,.1f}/s"


def _row(r, rec: Record, latency: Record | None) -> str:
    items = records.items_per_call(rec.spec.get("sizes"))
    rounds = [items / s for s in r.samples_s]
    one = latency.result(r.mode) if latency is not None else None
    eager = rec.result("eager")
    vs = "—"
    if r.mode != "eager" and eager is not None and ok(eager) and len(r.samples_s) > 1 and len(eager.samples_s) > 1:
        point, lo, hi = stats.ratio_interval(eager.samples_s, r.samples_s)
        vs = with_interval(point, lo, hi)
    return (f"| {code(r.mode)} | {fmt_time(one.median_s) if one is not None and ok(one) else '—'} | "
            f"{_rate(r.throughput)} ({_rate(min(rounds))}–{_rate(max(rounds))}) | {_split(r)} | {vs} |")


def _split(r) -> str:
    """How the best split ran: its worker processes and threads (the processes' entries say it)."""
    first = r.processes[0] if r.processes else {}
    streams = str(first.get("protocol", "")).split(" ")[0]
    if not streams.isdigit():
        return esc(r.message) or "—"
    return tr("{streams} worker process(es) × {threads} thread(s), each pinned to its own cores", streams=streams,
              threads=first.get("threads"))


def table(name: str) -> str:
    """One tab per machine with a throughput record of `name`."""
    out = []
    for slug, path in experiment_files(experiments.THROUGHPUT, name):
        rec = records.load(path)
        main = path.parent.parent / f"{name}.json"
        latency = records.load(main) if main.is_file() else None
        lines = [tr("| Mode | Latency: time per call, one stream | Throughput, every core busy (rounds' range) | "
                    "How the cores were split | Throughput over eager's |"), "|---|---|---|---|---|"]
        lines += [_row(r, rec, latency) for r in rec.results if ok(r)]
        failed = [f"{code(r.mode)} ({esc(r.status)})" for r in rec.results if not ok(r)]
        body = "\n".join(lines) + "\n\n" + (tr("Not measured: {modes}.", modes=", ".join(failed)) + "\n\n" if failed else "")
        out.append(tab(tab_label(slug, [rec]), body + stamp([rec], tr(
            "{k} rounds of each split of the cores, every worker checked against eager before its window",
            k=rec.processes_per_mode))))
    return "\n".join(out) or tr("No throughput record of {name} yet (`python -m eager_vs_compiled calibrate "
                                "--throughput -w {name}`).", name=name) + "\n"
