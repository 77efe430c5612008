"""The "torch releases compared" page: each machine's records of several torch releases, side by side.

Every release a machine has a folder for becomes a column (a third release adds one, no code
change). The build's own release is this build's record (measured now if missing or stale); other
releases are history, read as committed. A change between the two newest releases is called a
change only when its interval lies wholly outside the machine's measured noise (see `noise_floor`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import data, stats, store, workloads
from .context import current, fresh_record
from .lang import colon, tr
from ..records import ModeResult, Record
from . import charts
from .rule import pct, rule, said
from .provenance import code, eager_processes, speedup_distribution, esc, fmt_bytes, fmt_time, label, machine_label, noise_floor, shown, stamp


@dataclass
class Machine:
    slug: str
    releases: list[str]  # oldest first
    by_release: dict[str, dict[str, Record]]  # release -> workload -> record
    mine: str | None  # this build's release, if this is the build's machine

    def all(self) -> list[Record]:
        return [r for recs in self.by_release.values() for r in recs.values()]


def collect(root=None) -> list[Machine]:
    """Every machine with its records per release; this machine's build release: its fresh records."""
    root = root or store.default_root()
    ctx = current()
    me, mine, profile = ctx.slug, ctx.release, ctx.profile
    out = []
    for slug in sorted(set(store.machines(root)) | {me}, key=lambda s: (s != me, s)):
        by_release: dict[str, dict[str, Record]] = {}
        for rel in store.releases(root, slug):
            names = store.workload_names(root, slug, rel)
            loaded = {n: store.read(store.path_for(root, slug, n, rel), root, me) for n in names}
            by_release[rel] = {n: r for n, r in loaded.items() if r is not None}
        if slug == me:
            ensured = {w.name: fresh_record(w.name) for w in workloads.in_profile(profile, on_demand=True)}
            by_release[mine] = {n: r for n, r in ensured.items() if r is not None}
        by_release = {rel: recs for rel, recs in by_release.items() if recs}
        if not by_release:
            continue
        rels = sorted(by_release, key=store.release_key)
        out.append(Machine(slug, rels, by_release, mine if slug == me else None))
    return out


def _ok(r: ModeResult | None) -> bool:
    return r is not None and r.status == "ok" and r.median_s is not None


def _rows(m: Machine) -> list[tuple[str, str]]:
    """(workload, mode) pairs measured in any release, in the suite's order (unknown names last)."""
    order = {name: i for i, name in enumerate(workloads.WORKLOADS)}
    pairs = {(rec.workload, r.mode) for rec in m.all() for r in rec.results}
    return sorted(pairs, key=lambda p: (order.get(p[0], len(order)), p[0], p[1] != "eager", p[1]))


@dataclass
class Metric:
    title: str
    about: str
    modes: str  # "eager" | "compiled" | "all"
    value: callable  # (record, result) -> float | None
    show: callable  # (record, result, key) -> str
    key: str  # the figure's name in data.METRICS, whose `data.change` judges the change
    words: tuple[str, str]  # (better, worse)


def _speedup_dist(rec, r, key):
    """A speedup's cell and whisker: its record's own interval, as every page shows it (a change between
    two records adds, where a record predates its machine's term, that term: data.change)."""
    return speedup_distribution(r, key)


def _median_dist(rec, r, key):
    return data.rerun_distribution(rec, r.mode, "median_s", key)


def _with_interval(point: float, dist: list[float], unit) -> str:
    """'366 ms (358–372)': the interval (holding the point) in the point's own unit, written once."""
    lo, hi = stats.interval_holding(point, dist)
    text = unit(point)
    number, _, suffix = text.partition(" ") if " " in text else (text.rstrip("×"), "", "×")
    scale = point / float(number) if float(number) else 1.0
    def same(v):
        v /= scale
        return f"{v:.3g}" if v < 100 else f"{v:.0f}"
    return f"{text} ({same(lo)}–{same(hi)})"


METRICS = [
    Metric("Eager time per call", "Median of the processes' medians (95% bootstrap interval: processes, then their samples, "
           "with what whole runs differ by where the machine has a calibration)",
           "eager", lambda rec, r: r.median_s if _ok(r) else None,
           lambda rec, r, key: _with_interval(r.median_s, _median_dist(rec, r, key), fmt_time),
           "median_s", ("faster", "slower")),
    Metric("Speedup over eager", "Eager's time per call / the compiled mode's (95% interval: Student's t "
           "over the paired processes, else a bootstrap of processes, then their samples)", "compiled",
           lambda rec, r: r.speedup if _ok(r) and eager_processes(r) else None,
           lambda rec, r, key: _with_interval(r.speedup, _speedup_dist(rec, r, key), lambda v: f"{v:.2f}×"),
           "speedup", ("bigger speedup", "smaller speedup")),
    Metric("Cold compile", "First call minus a steady call, empty compiler cache (one measurement per release)",
           "compiled", lambda rec, r: r.compile_cold_s if _ok(r) else None,
           lambda rec, r, key: fmt_time(r.compile_cold_s), "compile_cold_s", ("faster compile", "slower compile")),
    Metric("Warm compile", "The same in a new process with the cache the cold run left (one measurement)",
           "compiled", lambda rec, r: r.compile_warm_s if _ok(r) else None,
           lambda rec, r, key: fmt_time(r.compile_warm_s), "compile_warm_s", ("faster compile", "slower compile")),
    Metric("Peak memory", "Of the process (CPU: peak RSS) or of CUDA allocations (one measurement)",
           "all", lambda rec, r: float(r.peak_memory_bytes) if _ok(r) and r.peak_memory_bytes else None,
           lambda rec, r, key: fmt_bytes(r.peak_memory_bytes), "peak_memory_bytes", ("less memory", "more memory")),
]


def _title(workload: str, rows: list[tuple[str, str]]) -> str:
    """A workload's title, with its name where another workload of the rows has the same title (the tiny
    op timed with the engines, `engines_tiny_op`, beside the suite's `tiny_op`)."""
    def title(w):
        return tr(workloads.WORKLOADS[w].title) if w in workloads.WORKLOADS else esc(w)
    twins = {w for w, _ in rows if w != workload and title(w) == title(workload)}
    return f"{title(workload)} ({code(workload)})" if twins else title(workload)


def _cell(m: Machine, rel: str, workload: str, mode: str, metric: Metric):
    rec = m.by_release[rel].get(workload)
    r = rec.result(mode) if rec else None
    if r is None or metric.value(rec, r) is None:
        return None, None, (r.status if r is not None and r.status != "ok" else "—")
    return rec, r, metric.show(rec, r, (m.slug, rel, workload, mode))


def metric_table(m: Machine, metric: Metric, floor: float) -> tuple[str, list[tuple[str, str, float, bool]]]:
    """One table: a row per (workload, mode), a column per release, then the newest change."""
    rows = [p for p in _rows(m) if metric.modes == "all" or (p[1] == "eager") == (metric.modes == "eager")]
    newest, prev = m.releases[-1], (m.releases[-2] if len(m.releases) > 1 else None)
    head = [tr("Workload"), tr("Mode")] + [f"torch {rel}" for rel in m.releases]
    head += [tr("{new} vs {old}", new=newest, old=prev)] if prev else []
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    changes = []
    for workload, mode in rows:
        cells, values = [], {}
        for rel in m.releases:
            rec, r, text = _cell(m, rel, workload, mode, metric)
            cells.append(text)
            if rec is not None:
                values[rel] = metric.value(rec, r)
        if not any(rel in values for rel in m.releases):
            continue
        if prev:
            have = [rel for rel in m.releases if rel in values]
            if len(have) >= 2:
                old_rel, new_rel = have[-2], have[-1]
                c = data.change(m.by_release[old_rel][workload], m.by_release[new_rel][workload], mode, metric.key, floor)
                text = said(c, metric.words)
                if (old_rel, new_rel) != (prev, newest):
                    text += " (" + tr("{new} vs {old}", new=new_rel, old=old_rel) + ")"
                changes.append((workload, mode, c.ratio, c.beyond_noise))
            else:
                text = tr("one release only")
            cells.append(text)
        lines.append(f"| {_title(workload, rows)} | {esc(mode)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n", changes


def provenance(m: Machine) -> str:
    """Which torch build, harness version, Python and dates measured each release."""
    lines = [tr("| torch release | torch build | harness | Python | measured | records | role |"),
             "|---|---|---|---|---|---|---|"]
    for rel in m.releases:
        recs = list(m.by_release[rel].values())
        builds = ", ".join(sorted({esc(r.versions.get("torch", "?")) for r in recs}))
        harness = ", ".join(f"v{h}" for h in sorted({r.harness_version for r in recs}))
        pythons = ", ".join(sorted({esc(r.versions.get("python", "?")) for r in recs}))
        dates = sorted({r.date[:10] for r in recs})
        when = dates[0] if len(dates) == 1 else tr("{first} to {last}", first=dates[0], last=dates[-1])
        role = tr("this build") if rel == m.mine else tr("history")
        lines.append(f"| {rel} | {builds} | {harness} | {pythons} | {when} | {len(recs)} | {role} |")
    return "\n".join(lines) + "\n"


def _method_changed(m: Machine) -> str:
    """A warning when the two newest releases were measured by different harness versions."""
    if len(m.releases) < 2:
        return ""
    old, new = m.releases[-2:]
    versions = [sorted({r.harness_version for r in m.by_release[rel].values()}) for rel in (old, new)]
    if versions[0] == versions[1]:
        return ""
    return tr("torch {old} was measured with harness {a} and torch {new} with harness {b}: a change between "
              "them may come from the method (how many processes, alone or beside eager, the allocators' settings: "
              "the methodology page shows how much that moves a number), not from torch.", old=old, new=new,
              a="/".join(f"v{v}" for v in versions[0]), b="/".join(f"v{v}" for v in versions[1])) + "\n\n"


def speedup_chart(m: Machine) -> str:
    rows = [p for p in _rows(m) if p[1] != "eager"]
    series = {}
    for rel in m.releases:
        vals = []
        for workload, mode in rows:
            rec = m.by_release[rel].get(workload)
            r = rec.result(mode) if rec else None
            if _ok(r) and eager_processes(r):
                dist = _speedup_dist(rec, r, (m.slug, rel, workload, mode))
                vals.append((r.speedup, *stats.interval_holding(r.speedup, dist)))
            else:
                vals.append(None)
        series[f"torch {rel}"] = vals
    name = machine_label(next(iter(m.all())).machine)  # the chart escapes its own text
    return charts.grouped_bars([f"{w} · {mode}" for w, mode in rows], series,
                               tr("Speedup of torch.compile over eager per torch release on {machine}; whiskers: "
                                  "95% interval; dashed line: as fast as eager", machine=name),
                               tr("speedup vs eager (×)"), f"releases-{m.slug}")


def compare(root=None) -> str:
    """The whole comparison: per machine with two or more releases, provenance, chart and tables."""
    machines = collect(root)
    several = [m for m in machines if len(m.releases) >= 2]
    if not several:
        listed = ", ".join(f"`{m.slug}` ({', '.join(m.releases)})" for m in machines) or tr("none")
        return (f'!!! note "{tr("Nothing to compare yet")}"\n    '
                + tr("No machine has records of two torch releases. Machines and their releases: {listed}.",
                     listed=listed) + "\n")
    out = []
    for m in several:
        name = label(next(iter(m.all())).machine)
        floor = noise_floor(m.all())
        out.append(f"## {name} (`{m.slug}`)\n\n" + tr("Who measured each release (*this build*: measured or "
                                                      "checked fresh by this build; *history*: shown as committed):")
                   + f"\n\n{provenance(m)}\n" + _method_changed(m) + stamp(m.all(), tr("every record of this machine, all releases")))
        out.append(speedup_chart(m))
        out.append(rule(m, floor) + "\n")
        for metric in METRICS:
            table, _ = metric_table(m, metric, floor)
            if table.count("\n") > 2:  # a header and a rule only: no record has this figure
                out.append(f"### {tr(metric.title)}\n\n{tr(metric.about)}.\n\n{table}\n"
                           + stamp(m.all(), tr("one column per release, each from that release's records")))
    return "\n".join(out)


def summary(root=None) -> str:
    """The largest differences beyond the noise between each machine's two newest releases."""
    out = []
    for m in (m for m in collect(root) if len(m.releases) >= 2):
        floor = noise_floor(m.all())
        lines = []
        for metric in METRICS:
            _, changes = metric_table(m, metric, floor)
            real = sorted((c for c in changes if c[3]), key=lambda c: -abs(c[2] - 1))
            if not changes:
                continue
            if not real:
                lines.append(f"- **{tr(metric.title)}**{colon()}" + tr("no difference beyond the noise in {n} comparisons.",
                                                                  n=len(changes)))
                continue
            top = tr("; ").join(f"{_title(w, _rows(m))} "
                                f"{esc(mode)} {pct(ratio)}" for w, mode, ratio, _ in real[:3])
            lines.append(f"- **{tr(metric.title)}**{colon()}" + tr("{n} of {total} comparisons changed beyond the noise; the "
                                                          "largest: {top}.", n=len(real), total=len(changes), top=top))
        out.append(tr("On **{machine}** (`{slug}`), torch {new} against {old}:", machine=label(next(iter(m.all())).machine),
                      slug=m.slug, new=m.releases[-1], old=m.releases[-2]) + "\n\n" + "\n".join(lines) + "\n"
                   + "".join(shown(r) for r in m.all()))
    return "\n".join(out) or tr("No machine has records of two torch releases yet.") + "\n"
