"""When a page calls two runs' figures different: the words of a change (data.change), and the rule of
the releases page with the machine's run-to-run terms (terms.py) it adds, per release and harness."""

from __future__ import annotations

from pathlib import Path

from .. import data, stats, terms
from .lang import colon, then, tr
from .provenance import stamp


def pct(ratio: float) -> str:
    """A ratio as a signed percentage, with a true minus sign: 0.7 -> '−30%'; a decimal more (up to two)
    where a whole percent would put a ratio off 1 onto 0 % (1.003 -> '+0.3%'), as ratios.ratio does."""
    value, digits = (ratio - 1) * 100, 0
    while digits < 2 and value != 0 and round(value, digits) == 0:
        digits += 1
    return f"{value:+.{digits}f}%".replace("-", "−")


def said(c: data.Change, words: tuple[str, str]) -> str:
    """The words of a change (data.change): its percentage with its 95 % interval (where it has one), and
    better or worse only beyond the noise."""
    text = pct(c.ratio)
    if c.low != c.high:
        text = tr("{pct} ({lo} to {hi})", pct=text, lo=pct(c.low), hi=pct(c.high))
    if not c.beyond_noise:
        return tr("{pct}, within the noise", pct=text)
    return f"**{text}{colon()}{tr(words[0] if c.verdict == words[0] else words[1])}**"


def terms_table(m) -> str:
    """Of `m` (a releases.Machine): what whole runs of one release differ by on this machine (terms.py),
    per release and harness: what each change adds, in quadrature, for the two runs it compares; "" where
    the machine has no calibration."""
    rows, calibrations = [], {}
    for rel in reversed(m.releases):
        recs = list(m.by_release[rel].values())
        for h in sorted({r.harness_version for r in recs}, reverse=True):
            sp = terms.spreads(next(r for r in recs if r.harness_version == h))
            if sp == terms.NO_SPREADS:
                continue
            cells = [f"±{t.sd:.1%}" if t.groups else "—" for t in (sp.time, sp.cold, sp.warm, sp.memory, sp.speedup)]
            source = Path(next(t for t in sp if t.groups).source)
            calibrations.update({str(f): runs for f, runs in terms.sessions(source.parent, h)})
            rows.append(f"| {rel} | v{h} | " + " | ".join(cells) + " | " + tr(
                "`{folder}` of torch {rel}, {n} session(s)", folder=source.name,
                rel=source.parent.name.removeprefix("torch-"), n=max(t.sessions for t in sp)) + " |")
    if not rows:
        return ""
    return (tr("Two releases are two runs, and whole runs of one release differ on this machine by more than the "
               "processes of one run show (a slower stretch of the host, another placement of its memory). So each "
               "change below adds, in quadrature, what the machine's calibration measured two runs to differ by, and "
               "each time per call below holds what its own run adds: each workload mode's own term where the "
               "calibration timed it, else the pooled one of this table (one standard deviation of a run's log; "
               "`src/eager_vs_compiled/terms.py`, and the methodology page). A compile time or the peak memory, "
               "measured once per run, has that spread as the whole interval of its change; a speedup whose record "
               "carries its term already (`run_sd`) is not given it twice.")
            + "\n\n" + tr("| torch release | harness | time per call | cold compile | warm compile | peak memory | "
                           "speedup | calibration |") + "\n|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n\n"
            + stamp([r for runs in calibrations.values() for v in runs.values() for r in v],
                    tr("the calibration runs whose spread each term is")))


def rule(m, floor: float) -> str:
    """When a difference between releases is called a change on this machine."""
    spread = terms_table(m)
    if spread:
        return (tr("A change between releases is called one only when its 95% interval lies wholly outside "
                   "±{floor:.0%}: the largest difference this machine showed between two processes measuring the "
                   "same eager call, or the harness's noisy threshold, whichever is larger.", floor=floor) if floor else
                tr("Every record of this machine timed each mode in several processes: a change between releases "
                   "is called one only when its 95% interval, drawn over those processes, leaves out parity.")) + then() + spread
    if floor:  # a record of one process per mode: the noise floor
        return tr("A change between releases is called one only when its 95% interval lies wholly outside "
                  "±{floor:.0%}: the largest difference this machine showed between two processes measuring the "
                  "same eager call, or the harness's noisy threshold, whichever is larger. Compile times and "
                  "memory are one measurement per release, so only that threshold applies to them.", floor=floor)
    return tr("Every record of this machine timed each mode in several processes: a change between releases "
              "is called one only when its 95% interval, drawn over those processes, leaves out parity. "
              "Compile times and memory are one measurement per release: a change of theirs counts only "
              "beyond ±{noisy:.0%}, the harness's noisy threshold.", noisy=stats.NOISY_IQR_FRACTION)
