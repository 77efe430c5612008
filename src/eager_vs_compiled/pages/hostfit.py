"""The methodology page's host fit (hosts.py): per machine, each calibrated workload mode's slope of its
processes' log speedup on their log eager time, and how much its runs differ as measured and once each
process is set to the machine's usual speed."""

from __future__ import annotations

from .. import experiments, reruns, terms
from .lang import tr
from .methodology import _experiments
from .provenance import code, esc, fmt_time, stamp, tab, tab_label

SLOWER = 0.10  # the sentence's example: a process whose eager call takes this much longer


def signed(value: float, spec: str) -> str:
    """A signed number as the pages print it, with a true minus sign, and no sign of its own on a zero."""
    text = format(value, spec)
    return (format(0.0, spec) if not any(c in "123456789" for c in text) else text).replace("-", "\u2212")


def table(kind: str = experiments.CALIBRATION) -> str:
    """One tab per machine with a calibration: the fit of each workload mode, and its runs' spread
    (B, the variance of their mean log speedups) before and after."""
    out = []
    for slug, (_rel, folder) in _experiments(kind).items():
        term, runs = reruns.pooled(folder.parent)
        if not term.hosts:
            continue
        plain = {(w, m): b for w, m, _, b, _ in terms.components(runs)}
        set_back = {(w, m): b for w, m, _, b, _ in terms.components(runs, terms.adjusted(term.hosts))}
        lines = [tr("| Workload / mode | Slope on the eager time | Usual eager time | The runs differ, as measured "
                    "(sd) | Set to the usual speed (sd) |"), "|---|---|---|---|---|"]
        for name, mode, fit in term.hosts:
            lines.append(f"| {esc(name)} / {code(mode)} | {signed(fit.slope, '+.2f')} ± {fit.se:.2f} | {fmt_time(fit.ref_s)} | "
                         f"±{plain[name, mode] ** 0.5:.2%} | ±{set_back[name, mode] ** 0.5:.2%} |")
        steep = max(term.hosts, key=lambda h: abs(h[2].slope))
        said = tr("Every process of the {sessions} calibration sessions, its log speedup against its log eager time: "
                  "the slope says by how much a process's speedup moves when its host runs slower or faster (± its "
                  "standard error). The steepest here is {name}'s ({slope}): a process whose eager call takes "
                  "{slower:.0%} longer shows a speedup {moved} different.", sessions=term.sessions,
                  name=code(steep[0]), slope=signed(steep[2].slope, "+.2f"), slower=SLOWER,
                  moved=signed((1 + SLOWER) ** steep[2].slope - 1, "+.1%"))
        recs = [rec for v in runs.values() for rec in v]
        out.append(tab(tab_label(slug, recs), said + "\n\n" + "\n".join(lines) + "\n\n"
                       + stamp(recs, tr("every calibration session of this harness, each run's processes"))))
    return "\n".join(out) or tr("No calibration run is committed yet (`python -m eager_vs_compiled calibrate`).") + "\n"
