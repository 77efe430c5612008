"""The methodology page: the harness's own settings, and its agreement with torch.utils.benchmark."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

from .. import data, experiments, records, reruns, rounds, stats, store, terms, timing, workloads
from .benchmarks import records_by_machine
from .lang import tr, tr_known
from .ratios import ratio
from .provenance import this_machine
from .provenance import code, esc, fmt_time, interval as speedup_interval, median_distribution, ok, stamp, tab, tab_label

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
    lines = [tr("| Profile | Min. sample length | Samples per process (min–max) | Time budget per process | Stops at median precision "
                "| Flagged noisy above IQR/median | Timeout per process |"),
             "|---|---|---|---|---|---|---|"]
    for profile, cfg in timing.TIMING.items():
        lines.append(f"| `{profile}` | {fmt_time(cfg['min_sample_s'])} | {cfg['n_min']}–{cfg['n_max']} | "
                     f"{fmt_time(cfg['budget_s'])} | ±{timing.MEDIAN_PRECISION:.0%} | "
                     f"{stats.NOISY_IQR_FRACTION:.0%} | {fmt_time(cfg['timeout_s'])} |")
    return ("\n".join(lines) + "\n\n" + tr("Rounds of fresh processes: at least {min}, at most {max}; after {min}, "
                                              "another while fewer than {narrow} ran or a speedup's interval is wider "
                                              "than ±{target:.0%}, or than {slack}× the normal 95% width of its run-to-run term alone where "
                                              "that is wider (from then on, of those modes only), as long as that mode's own extra rounds fit in "
                                              "{cpu:.0f} s (cpu) or {gpu:.0f} s (gpu). A run of several workloads takes "
                                              "round r of each before round r + 1 (without a time budget) and starts "
                                              "rounds beyond {min} only while they end within {aim_cpu:.0f} min (cpu) or "
                                              "{aim_gpu:.0f} min (gpu) of its start (`EVC_AIM_S` sets another). "
                                              "Intervals at {confidence:.0%}: a speedup timed beside eager in several "
                                              "processes, Student's t over the processes' log ratios (from {trim_from} processes on "
                                              "their mean trimmed by {trim:.0%} at each end); any other figure, "
                                              "a percentile bootstrap of processes then their samples, {resamples:,} "
                                              "resamples; a speedup's interval adds the run-to-run term of its "
                                              "workload mode where its record carries one (its own where the machine's calibration timed it, "
                                              "else the machine's pooled one: `reruns.py`). Every timing process "
                                              "starts with "
                                              "`GLIBC_TUNABLES={tunables}` and `{thp}`. Harness version {version}, from "
                                              "`src/eager_vs_compiled/timing.py` and `rounds.py`.",
                                              tunables=rounds.allocator_env(own=True)["GLIBC_TUNABLES"],
                                              thp=f"{rounds.THP_ENV}={rounds.allocator_env(own=True)[rounds.THP_ENV]}",
                                              min=rounds.ROUNDS_MIN, max=rounds.ROUNDS_MAX, target=rounds.TARGET_HALF_WIDTH, slack=rounds.TERM_SLACK,
                                              narrow=rounds.ROUNDS_NARROW,
                                              cpu=rounds.EXTRA_BUDGET_S["cpu"], gpu=rounds.EXTRA_BUDGET_S["gpu"],
                                              aim_cpu=rounds.RUN_AIM_S["cpu"] / 60, aim_gpu=rounds.RUN_AIM_S["gpu"] / 60,
                                              trim=stats.TRIM, trim_from=round(1 / stats.TRIM),
                                              confidence=stats.CONFIDENCE, resamples=stats.BOOTSTRAP_RESAMPLES,
                                              version=rounds.HARNESS_VERSION)
            + "\n{: .evc-provenance }\n")


# --- the protocol, and whether the intervals hold: from the records of calibrate ------------------------
def _experiments(kind: str) -> dict[str, tuple[str, Path]]:
    """slug -> (release, folder) of the newest release of each machine with records of `kind`."""
    root, found = store.default_root(), {}
    for slug in store.machines(root):
        for rel in reversed(store.releases(root, slug)):
            folder = store.release_dir(root, slug, rel) / kind
            if folder.is_dir():
                found[slug] = (rel, folder)
                break
    return dict(sorted(found.items(), key=lambda kv: kv[0] != this_machine()))


def experiment_files(kind: str, name: str) -> list[tuple[str, Path]]:
    """(slug, file) of workload `name`'s record of experiment `kind`, for each machine that has one."""
    return [(slug, folder / f"{name}.json") for slug, (_rel, folder) in _experiments(kind).items()
            if (folder / f"{name}.json").is_file()]


def _with_ci(point: float, dist, unit) -> str:
    lo, hi = stats.percentile_interval(list(dist))
    return f"{unit(point)} ({unit(lo)}–{unit(hi)})"


def _x(v: float) -> str:
    return f"{ratio(v)}×"


def protocols() -> str:
    """Each mode timed alone against interleaved with eager, the same rounds in one window."""
    out = []
    for slug, (rel, folder) in _experiments(experiments.PROTOCOLS).items():
        recs = {p: {f.stem: records.load(f) for f in sorted((folder / p).glob("*.json"))} for p in rounds.PROTOCOLS}
        lines = [tr("| Workload | Mode | Eager, alone | Eager, interleaved | Mode, alone | Mode, interleaved | "
                    "Speedup, alone | Speedup, interleaved | Moved? |"), "|---|---|---|---|---|---|---|---|---|"]
        shown_recs = []
        for name, alone in recs["alone"].items():
            inter = recs["interleaved"].get(name)
            if inter is None:
                continue
            shown_recs += [alone, inter]
            for a in alone.results:
                b = inter.result(a.mode)
                if a.mode == "eager" or not (ok(a) and b is not None and ok(b)):
                    continue
                key = (slug, rel, name, a.mode)
                sa, sb = speedup_interval(a), speedup_interval(b)
                moved = tr("yes") if sa[1] < sb[0] or sb[1] < sa[0] else tr("no: the intervals overlap")
                lines.append(
                    f"| {esc(tr_known(alone.title))} | {code(a.mode)} | "
                    f"{_with_ci(a.eager_median_s, median_distribution(alone.result('eager'), key + ('ea',)), fmt_time)} | "
                    f"{fmt_time(b.eager_median_s)} | "
                    f"{_with_ci(a.median_s, median_distribution(a, key + ('a',)), fmt_time)} | "
                    f"{_with_ci(b.median_s, median_distribution(b, key + ('b',)), fmt_time)} | "
                    f"{_x(a.speedup)} ({_x(sa[0])}–{_x(sa[1])}) | {_x(b.speedup)} ({_x(sb[0])}–{_x(sb[1])}) | {moved} |")
        if shown_recs:
            out.append(tab(tab_label(slug, shown_recs), "\n".join(lines) + "\n\n" + stamp(
                shown_recs, tr("{k} rounds of fresh processes per protocol, the protocols back to back",
                               k=shown_recs[0].processes_per_mode))))
    return "\n".join(out) or tr("No protocol comparison is committed yet (`python -m eager_vs_compiled calibrate "
                                "--protocols`).") + "\n"


def calibration(kind: str = experiments.CALIBRATION, interval: str = "site") -> str:
    """How often one run's interval holds another run's speedup, from the committed calibration runs
    (`kind`: the folder of a release they are in; an earlier harness's runs are kept beside). `interval`:
    "site" (the intervals every page shows) or "first" (the bootstrap harness 5 drew first, on the same runs)."""
    if interval not in ("site", "first"):
        raise ValueError(f"calibration(interval={interval!r}): 'site' or 'first'")
    speedup = data.speedup if interval == "site" else data.first_bootstrap_speedup
    out = []
    for slug, (rel, folder) in _experiments(kind).items():
        runs = experiments.load_runs(folder)
        table = experiments.rows(runs, speedup)
        if not table:
            continue
        lines = [tr("| Workload / mode | Speedups of the runs | Half-width (median) | Runs' spread | Another run inside "
                    "| Intervals overlap |"), "|---|---|---|---|---|---|"]
        for r in table:
            lines.append(f"| {esc(r.workload)} / {code(r.mode)} | {', '.join(_x(s) for s in r.speedups)} | "
                         f"±{r.half_width:.1%} | {r.spread:.1%} | {r.inside}/{r.pairs} | {r.overlap}/{r.unordered} |")
        t = experiments.totals(table)
        said = tr("Over {n} runs: a run's speedup lies inside another run's 95% interval in **{inside} of {pairs}** "
                  "ordered pairs ({share:.0%}); two runs' intervals overlap in **{overlap} of {unordered}** pairs "
                  "({oshare:.0%}); {wider} of {count} intervals are wider than the larger of ±{floor:.0%} and the "
                  "runs' own spread.", n=max(len(v) for v in runs.values()), inside=t.inside, pairs=t.pairs,
                  share=t.inside / t.pairs, overlap=t.overlap, unordered=t.unordered, oshare=t.overlap / t.unordered,
                  wider=t.padded, count=t.intervals, floor=experiments.PAD_FLOOR)
        recs = [rec for v in runs.values() for rec in v]
        out.append(tab(tab_label(slug, recs), said + "\n\n" + "\n".join(lines) + "\n\n"
                       + stamp(recs, tr("`calibrate`: each workload measured again and again, one whole run after "
                                        "another"))))
    return "\n".join(out) or tr("No calibration run is committed yet (`python -m eager_vs_compiled calibrate`).") + "\n"


def run_term(kind: str = experiments.CALIBRATION) -> str:
    """What only reruns show, per machine: each workload and mode's spread between the runs of every
    calibration session (reruns.pooled) against what their processes predict, and the term pooled from them."""
    out = []
    for slug, (rel, folder) in _experiments(kind).items():
        term, runs = reruns.pooled(folder.parent)
        if not term.groups:
            continue
        lines = [tr("| Workload / mode | Runs | The runs differ, set to the usual speed (sd) | Their processes predict "
                    "(sd) | Left to the runs (sd) | Its term (sd) |"), "|---|---|---|---|---|---|"]
        for name, mode, k, between, within in reruns.components(runs, terms.adjusted(term.hosts)):
            left = f"±{(between - within) ** 0.5:.2%}" if between > within else tr("none")
            lines.append(f"| {esc(name)} / {code(mode)} | {k} | ±{between ** 0.5:.2%} | ±{within ** 0.5:.2%} | {left} | "
                         f"±{term.of(name, mode):.2%} |")
        said = tr("Pooled over {groups} workload modes, up to {runs} runs each from {sessions} calibration sessions, "
                  "each weighted by its runs − 1: the machine's run-to-run term, **±{sd:.2%}**. Each workload mode "
                  "the calibration timed gets a term of its own (the last column): the variance left to its runs, "
                  "weighted by its runs − 1, averaged with the machine's, weighted as {prior} runs, so that a few "
                  "runs move it little from the machine's and many make it theirs. `measure` adds each to the "
                  "intervals of its workload mode (the machine's to a workload the calibration did not time) "
                  "and writes it into the record.", groups=term.groups, sessions=term.sessions, runs=term.runs, sd=term.sd,
                  prior=reruns.PRIOR_RUNS)
        recs = [rec for v in runs.values() for rec in v]
        out.append(tab(tab_label(slug, recs), said + "\n\n" + "\n".join(lines) + "\n\n"
                       + stamp(recs, tr("every calibration session of this harness, its runs' mean log speedups"))))
    return "\n".join(out) or tr("No calibration run is committed yet (`python -m eager_vs_compiled calibrate`).") + "\n"


def term_choice() -> str:
    """Each calibration session judged with the terms of its other sessions: the pooled and each one's own."""
    out = []
    for slug, (rel, folder) in _experiments(experiments.CALIBRATION).items():
        judged = {tr("the machine's"): reruns.judged(folder.parent, False), tr("each one's own"): reruns.judged(folder.parent)}
        if not all(judged.values()):
            continue
        lines = [tr("| Session | Term | Another run inside | Intervals overlap | Intervals padded |"), "|---|---|---|---|---|"]
        for pair in zip(*judged.values()):  # a session with each term, side by side
            for label, (f, got) in zip(judged, pair):
                c = experiments.totals(got)
                lines.append(f"| {code(f.name)} | {label} | {c.inside}/{c.pairs} | {c.overlap}/{c.unordered} | {c.padded}/{c.intervals} |")
        for label, found in judged.items():
            c = experiments.totals([r for _, got in found for r in got])
            lines.append(f"| {tr('all')} | {label} | {c.inside}/{c.pairs} ({c.inside / c.pairs:.0%}) | {c.overlap}/{c.unordered} "
                         f"({c.overlap / c.unordered:.0%}) | {c.padded}/{c.intervals} |")
        recs = [rec for _, runs in reruns.sessions(folder.parent) for v in runs.values() for rec in v]
        out.append(tab(tab_label(slug, recs), "\n".join(lines) + "\n\n" + stamp(recs, tr(
            "every calibration session of this harness, each drawn again with the terms of the others"))))
    return "\n".join(out)


def _first_runs(kind: str, name: str) -> dict[str, list[records.Record]]:
    """slug -> [the record of `name` from the first calibration run in folder `kind`]."""
    found = {}
    for slug, (rel, folder) in _experiments(kind).items():
        runs = experiments.load_runs(folder).get(name)
        if runs:
            found[slug] = runs[:1]
    return found


def slow_processes(name: str = "pointwise_08", mode: str = "eager", kind: str | None = None) -> str:
    """Each process of one mode of this machine's record (or of the first calibration run in folder
    `kind`), slowest first, with what can explain it."""
    out = []
    for slug, recs in (_first_runs(kind, name) if kind else records_by_machine([name])).items():
        rec = recs[0]
        r = rec.result(mode)
        if r is None or not r.processes or len(r.process_samples()) < 2:
            continue
        rows = sorted(zip(r.process_samples(), r.processes), key=lambda sp: -stats.median(sp[0]))
        lines = [tr("| Process | Time per call (median) | Samples | Minor page faults per sample | Involuntary "
                    "context switches | Steal | Threads (OS) | On huge pages |"), "|---|---|---|---|---|---|---|---|"]
        for samples, p in rows:
            huge = "—" if p.get("huge_bytes") is None else f"{p['huge_bytes'] / 2 ** 20:,.0f} MiB"
            lines.append(f"| {r.processes.index(p) + 1} ({esc(p.get('phase', ''))}) | {fmt_time(stats.median(samples))} | "
                         f"{len(samples)} | {p.get('minflt', 0) / max(p['n'], 1):,.0f} | {p.get('nivcsw', '—')} | "
                         f"{(p.get('steal') or 0):.1%} | {p.get('os_threads', '—')} | {huge} |")
        half = len(rows) // 2
        faults = [[p.get("minflt", 0) / max(p["n"], 1) for _, p in part] for part in (rows[:half], rows[-half:])]
        said = tr("The {k} slowest of these processes took {slow:,.0f} minor page faults per sample on average, the "
                  "{k} fastest {fast:,.0f}.", k=half, slow=sum(faults[0]) / half, fast=sum(faults[1]) / half)
        out.append(tab(tab_label(slug, recs), "\n".join(lines) + "\n\n" + said + "\n\n"
                       + stamp(recs, tr("workload {name}, mode {mode}", name=code(name), mode=code(mode)))))
    return "\n".join(out)


def run_speed(name: str = "tiny_op", mode: str = "default") -> str:
    """What moves a whole run: each calibration run of one workload mode (every session of the harness),
    its eager and compiled time per call (the medians of its processes' medians) and its speedup,
    slowest eager first, with the correlation across the runs of log eager time and log speedup."""
    out = []
    for slug, (rel, folder) in _experiments(experiments.CALIBRATION).items():
        _, runs = reruns.pooled(folder.parent)
        rows = []
        for rec in runs.get(name, []):
            r, s = rec.result(mode), data.speedup(rec, mode)
            if r is None or s is None or not r.paired_processes():
                continue
            eager, mine = ([stats.median(p) for p in side] for side in r.paired_processes())
            rows.append((stats.median(eager), stats.median(mine), s.point, rec))
        if len(rows) < 3:
            continue
        rows.sort(key=lambda row: -row[0])
        r_corr = statistics.correlation([math.log(e) for e, *_ in rows], [math.log(p) for _, _, p, _ in rows])
        lines = [tr("| Run (recorded) | Eager per call | {mode} per call | Speedup |", mode=code(mode)), "|---|---|---|---|"]
        x3 = "{:.3f}×".format  # these runs differ in the third digit
        lines += [f"| {esc(rec.date[:16].replace('T', ' '))} | {fmt_time(e)} | {fmt_time(c)} | {x3(p)} |"
                  for e, c, p, rec in rows]
        n = len(rows)
        t = abs(r_corr) * math.sqrt((n - 2) / max(1e-12, 1 - r_corr ** 2))
        how = (tr("no relation these runs can tell from chance (at 95%)") if t <= stats.t_quantile(0.975, n - 2) else
               tr("the slower its eager calls, the lower its speedup: the compiled call slowed more than eager's")
               if r_corr < 0 else tr("the slower its eager calls, the higher its speedup: eager's call slowed more"))
        said = tr("Over {n} runs of {name}, the correlation of a run's eager time per call and its speedup (their "
                  "logarithms) is **{r:+.2f}**: {how}. The speedups range from {lo} to {hi}.", n=n, name=code(name),
                  r=r_corr, how=how, lo=x3(min(p for _, _, p, _ in rows)), hi=x3(max(p for _, _, p, _ in rows)))
        recs = [rec for *_, rec in rows]
        out.append(tab(tab_label(slug, recs), said + "\n\n" + "\n".join(lines) + "\n\n"
                       + stamp(recs, tr("every calibration session of this harness, each run's processes"))))
    return "\n".join(out) or tr("No calibration run is committed yet (`python -m eager_vs_compiled calibrate`).") + "\n"
