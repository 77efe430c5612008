"""The methodology page: the harness's own settings, and its agreement with torch.utils.benchmark."""

from __future__ import annotations

from .. import measure, stats, timing, workloads
from .benchmarks import records_by_machine
from .lang import tr, tr_known
from .provenance import code, esc, fmt_time, ok, stamp, tab, tab_label

TIMER_AGREEMENT = 0.05  # harness median vs Timer.blocked_autorange median, CPU


def timer_agreement() -> str:
    """Our harness's median vs torch.utils.benchmark's blocked_autorange, same process and inputs."""
    names = [w.name for w in workloads.WORKLOADS.values() if w.timer_check]
    out = []
    for slug, recs in records_by_machine(names).items():
        lines = [tr("| Workload | Mode | Harness | `Timer.blocked_autorange` | Difference | "
                    "Harness, main run (for reference) |"), "|---|---|---|---|---|---|"]
        worst = 0.0
        for r in recs:
            for m in r.results:
                if ok(m) and m.timer_median_s and m.timer_harness_s:
                    diff = (m.timer_harness_s - m.timer_median_s) / m.timer_median_s
                    worst = max(worst, abs(diff))
                    lines.append(f"| {esc(tr_known(r.title))} | {code(m.mode)} | {fmt_time(m.timer_harness_s)} | "
                                 f"{fmt_time(m.timer_median_s)} | {diff:+.1%} | {fmt_time(m.median_s)} |")
        verdict = (tr("Largest difference: **{worst:.1%}**; tolerance {tolerance:.0%} — ", worst=worst,
                      tolerance=TIMER_AGREEMENT)
                   + (tr("the harness agrees with `Timer`.") if worst <= TIMER_AGREEMENT else
                      tr("**outside** the tolerance: read the noisy flags in the tables before trusting "
                         "small differences on this machine.")))
        out.append(tab(tab_label(slug, recs), "\n".join(lines) + "\n\n" + verdict + "\n\n" + stamp(recs)))
    return "\n".join(out)


def harness_settings() -> str:
    """The harness's sampling thresholds per profile, read from the code that uses them."""
    lines = [tr("| Profile | Min. sample length | Samples (min–max) | Time budget per mode | Stops at median precision "
                "| Flagged noisy above IQR/median | Timeout per process |"),
             "|---|---|---|---|---|---|---|"]
    for profile, cfg in timing.TIMING.items():
        lines.append(f"| `{profile}` | {fmt_time(cfg['min_sample_s'])} | {cfg['n_min']}–{cfg['n_max']} | "
                     f"{fmt_time(cfg['budget_s'])} | ±{timing.MEDIAN_PRECISION:.0%} | "
                     f"{stats.NOISY_IQR_FRACTION:.0%} | {fmt_time(cfg['timeout_s'])} |")
    return ("\n".join(lines) + "\n\n" + tr("Speedup intervals: {confidence:.0%} percentile bootstrap of the "
                                              "interleaved pairs, {resamples:,} resamples. Harness version {version}, "
                                              "from `src/eager_vs_compiled/timing.py`.", confidence=stats.CONFIDENCE,
                                              resamples=stats.BOOTSTRAP_RESAMPLES, version=measure.HARNESS_VERSION)
            + "\n{: .evc-provenance }\n")
