"""Does an engine in the process slow eager? The interference experiment (calibrate --interference):
eager timed in processes of its own, in each mode's processes with the mode loaded and idle, and
interleaved with it, back to back; each condition's eager against eager alone, with Welch's interval
over the processes (stats.ratio_interval), and the verdict computed from those intervals."""

from __future__ import annotations

from .. import experiments, records, stats
from ..records import ModeResult, Record
from .lang import tr, tr_known
from .ratios import with_interval
from .methodology import _experiments
from .provenance import code, esc, fmt_time, ok, stamp, tab, tab_label

BESIDE = ("idle", "interleaved")


def _eager_medians(r: ModeResult, beside: bool) -> list[float]:
    """Eager's median per process: from the mode's processes (beside), or eager's own."""
    procs = r.eager_process_samples() if beside else r.process_samples()
    return [stats.median(p) for p in procs if p]


def _moved(ratio: tuple[float, float, float]) -> str:
    point, low, high = ratio
    said = with_interval(point, low, high)
    if low > 1:
        return said + tr(": eager slower")
    if high < 1:
        return said + tr(": eager faster")
    return said + tr(": no measurable difference")


def _cell(medians: list[float]) -> str:
    return f"{fmt_time(stats.median(medians))} ({fmt_time(min(medians))}–{fmt_time(max(medians))})"


def rows(recs: dict[str, Record]) -> list[tuple[str, list[float], dict, dict]]:
    """(mode, eager alone's medians, {protocol: eager's medians beside it}, {protocol: ratio to alone})
    for every mode measured in all three conditions."""
    alone = recs["alone"].result("eager")
    if alone is None or not ok(alone):
        return []
    base, out = _eager_medians(alone, beside=False), []
    for r in recs["idle"].results:
        if r.mode == "eager" or not ok(r):
            continue
        got = {p: recs[p].result(r.mode) for p in BESIDE}
        if not all(g is not None and ok(g) for g in got.values()):
            continue
        medians = {p: _eager_medians(g, beside=True) for p, g in got.items()}
        if len(base) < 2 or any(len(m) < 2 for m in medians.values()):
            continue
        out.append((r.mode, base, medians, {p: stats.ratio_interval(m, base) for p, m in medians.items()}))
    return out


def _section(recs: dict[str, Record]) -> str:
    found = rows(recs)
    lines = [tr("| Mode in the process | Eager, alone | Eager beside it, idle | Eager interleaved with it | "
                "Idle: eager against alone | Interleaved: eager against alone |"), "|---|---|---|---|---|---|"]
    lines += [f"| {code(mode)} | {_cell(base)} | {_cell(med['idle'])} | {_cell(med['interleaved'])} | "
              f"{_moved(ratio['idle'])} | {_moved(ratio['interleaved'])} |" for mode, base, med, ratio in found]
    slowed = [mode for mode, _, _, ratio in found if any(r[1] > 1 for r in ratio.values())]
    verdict = (tr("Eager ran measurably slower beside {modes}.", modes=", ".join(code(m) for m in slowed))
               if slowed else tr("In none of these processes did the mode beside it measurably slow eager."))
    return (f"**{esc(tr_known(recs['alone'].title))}**\n\n" + "\n".join(lines) + "\n\n" + verdict + "\n\n"
            + stamp(list(recs.values()), tr("eager's median per process, the lowest and highest process in brackets; "
                                            "{k} rounds of fresh processes per condition, the conditions back to back",
                                            k=recs["alone"].processes_per_mode)))


def table() -> str:
    """One tab per machine, a table per workload: eager's time alone and beside each mode, and what moved."""
    out = []
    for slug, (_rel, folder) in _experiments(experiments.INTERFERENCE).items():
        sections, shown = [], []
        for path in sorted((folder / "alone").glob("*.json")):
            recs = {p: records.load(folder / p / path.name) for p in experiments.EXPERIMENTS[experiments.INTERFERENCE]
                    if (folder / p / path.name).is_file()}
            if len(recs) == 3 and rows(recs):
                sections.append(_section(recs))
                shown += list(recs.values())
        if sections:
            out.append(tab(tab_label(slug, shown), "\n".join(sections)))
    return "\n".join(out) or tr("No interference experiment is committed yet (`python -m eager_vs_compiled "
                                "calibrate --interference`).") + "\n"
