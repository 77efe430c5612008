"""Measure, then publish: what `./evc.sh site` runs before the build, which only reads.

`python -m eager_vs_compiled prepare` measures what the site shows of this machine and this machine
lacks or has stale, with the CLI's progress bar and budget: its peaks, every workload of its profile
that a site build shows as this machine's (not those measured only on demand), the model report of the
how-to page, and the profile of the best recipe's winner where the page breaks it down. What is fresh
is reused: on a machine whose records are committed and fresh it measures nothing. The page layer
(pages/) never measures: a record missing there is shown as missing, with the command.

What it did is kept in the build's cache (`prepare.json`), for the build report.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from . import isolate, measure, paths, peaks, records, schedule, store, workloads
from .progress import ProgressBar

LAST = "prepare.json"  # in the build's cache: when this step ran, and what it measured
_DIRECTIVE = re.compile(r"^[ \t]*\{\{\s*(?P<name>\w+)\((?P<args>.*)\)\s*\}\}[ \t]*$", re.M)


def seconds(text: str) -> float:
    value = float(text)
    if not value > 0:  # also refuses nan
        raise ValueError(text)
    return value


def add_parser(sub) -> None:
    p = sub.add_parser("prepare", help="measure what the site shows of this machine and it lacks or has stale "
                                       "(what `./evc.sh site` runs before it builds)")
    p.add_argument("--budget", type=seconds, metavar="SECONDS",
                   help="stop starting new measurements when they would not fit in this many seconds "
                        "(default: $EVC_BUDGET_S, else none); what does not fit is measured by a later run")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="measurements folder (default: ./measurements, or $EVC_MEASUREMENTS)")
    p.set_defaults(run=command)


def asked_by_pages(name: str, docs: Path) -> list[tuple[list, dict]]:
    """The arguments of every `{{ name(...) }}` line in the pages under `docs`, each set once."""
    seen: list[tuple[list, dict]] = []
    for page in sorted(docs.rglob("*.md")):
        for m in _DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            if m["name"] != name:
                continue
            call = ast.parse(f"f({m['args']})", mode="eval").body
            args = ([ast.literal_eval(a) for a in call.args], {k.arg: ast.literal_eval(k.value) for k in call.keywords})
            if args not in seen:
                seen.append(args)
    return seen


def command(args) -> int:
    """The whole step; 1 when something the site shows could not be measured (the build then says so)."""
    from .pages import context

    ctx = context.use(context.BuildContext.of_this_machine())
    t0, started = time.monotonic(), datetime.now(timezone.utc).isoformat(timespec="seconds")
    deadline = measure.budget_deadline() if args.budget is None else time.monotonic() + args.budget
    schedule.aim_seconds(0.0)  # EVC_AIM_S refused by name before anything is measured
    plan = workloads.in_profile(ctx.profile)
    docs = paths.docs()
    print(f"prepare: {ctx.slug}, torch {ctx.torch}, profile {ctx.profile}: {len(plan)} workloads, the peaks, "
          f"{len(asked_by_pages('model_report', docs))} model report(s), the recipe profile", file=sys.stderr)
    failed, measured = 0, []
    try:
        peaks.ensure(args.out, workloads.device_type(ctx.profile))
    except (RuntimeError, records.RecordError) as e:
        print(f"error: the machine's peaks: {e}", file=sys.stderr)
        failed += 1
    bar = ProgressBar(sum(measure.planned_steps(w, w.modes[ctx.profile]) for w in plan))
    try:
        for name, rec, error in measure.ensure_records([w.name for w in plan], args.out, profile=ctx.profile,
                                                       progress=bar.step, deadline=deadline):
            if error is not None:
                print(f"\nerror: {error}", file=sys.stderr)
                failed += 1
                continue
            if rec.date >= started:
                measured.append(name)
    finally:
        bar.close()
    failed += _reports(docs, args.out) + _profiles(docs)
    _keep(started, measured)
    print(f"prepare: measured {len(measured)} workload(s) ({', '.join(measured) or 'none'}), reused "
          f"{len(plan) - len(measured)}, in {time.monotonic() - t0:.0f} s", file=sys.stderr)
    return 1 if failed else 0


def _keep(started: str, measured: list[str]) -> None:
    path = paths.cache() / LAST
    path.parent.mkdir(parents=True, exist_ok=True)
    store.write_atomic(path, json.dumps({"started": started, "measured": measured,
                                         "finished": datetime.now(timezone.utc).isoformat(timespec="seconds")}))


def last(since: float) -> dict | None:
    """What the last prepare step did, if it finished at most a minute before `since` (a time.time():
    the build that follows it), else None."""
    path = paths.cache() / LAST
    try:
        done = json.loads(path.read_text())
        finished = datetime.fromisoformat(done["finished"]).timestamp()
    except (OSError, ValueError, KeyError):
        return None
    return done if since - 60 <= finished <= since + 1 else None


def _reports(docs: Path, out: Path | None) -> int:
    """The model reports the pages show, measured where missing or stale; the count that failed."""
    from .pages.report import report_target

    failed = 0
    for args, kwargs in asked_by_pages("model_report", docs):
        rel_target, modes = args[0], (args[1] if len(args) > 1 else kwargs.get("modes")) or []
        try:
            report(report_target(rel_target), tuple(modes), out)
        except RuntimeError as e:
            print(f"error: {e}", file=sys.stderr)
            failed += 1
    return failed


def report(target: str, modes: tuple, out: Path | None = None) -> None:
    """Measure a reader's-model report with the real CLI, unless the kept one is fresh; keep it beside
    this machine's records (<release>/model-reports/)."""
    from . import machine
    from .pages.report import REPORT_FILES, REPORTS

    slug, rel = machine.describe()["slug"], store.release(machine.versions()["torch"])
    cache = paths.cache() / REPORTS
    folder = store.release_dir(cache, slug, rel)
    kept = store.release_dir(Path(out or store.default_root()), slug, rel) / REPORTS
    name = store.model_name(target)
    if _fresh(target, kept, name, modes, REPORT_FILES):  # a committed fresh report wins over an older cached one
        _copy(kept, folder, name, REPORT_FILES)
    if not _fresh(target, folder, name, modes, REPORT_FILES):
        print(f"prepare: measuring the model report {target} ...", file=sys.stderr)
        args = ["measure", "--model", target, "--out", str(cache), *[a for m in modes for a in ("--mode", m)]]
        code, _, err = isolate.module("eager_vs_compiled", args, None, 1800, cwd=str(paths.root()))
        if code != 0:
            raise RuntimeError(f"measure --model {target} exited with {code}: {err.strip()[-1500:]}")
    _copy(folder, kept, name, REPORT_FILES)


def _fresh(target: str, folder: Path, name: str, modes: tuple, files: tuple) -> bool:
    """Whether `folder` holds a fresh record of the target with every mode asked for, and its report."""
    from . import freshness, machine, rounds, usermodel

    if not all((folder / f"{name}.{ext}").exists() for ext in files):
        return False
    profile = workloads.default_profile()
    w = usermodel.workload_for(target, profile)
    want = usermodel.modes_for([], list(modes), profile) or list(w.modes[profile])
    return freshness.staleness(records.load(folder / f"{name}.json"), machine.describe(), machine.versions()["torch"],
                               rounds.HARNESS_VERSION, w.spec_hash(profile), want) is None


def _copy(src: Path, dst: Path, name: str, files: tuple) -> None:
    """A report's record, Markdown and HTML from folder `src` to `dst`, each file only where it is
    missing or different: an unchanged run leaves the store (and the checkout) alone."""
    if not (src / f"{name}.json").exists():
        return
    for ext in files:
        a, b = src / f"{name}.{ext}", dst / f"{name}.{ext}"
        if a.exists() and not (b.exists() and a.read_bytes() == b.read_bytes()):
            b.parent.mkdir(parents=True, exist_ok=True)
            store.write_atomic(b, a.read_text(encoding="utf-8"))


def _profiles(docs: Path) -> int:
    """The breakdown of each recipe page's winner where it stays under its share of the peak."""
    from .pages import recipe

    failed = 0
    for args, kwargs in asked_by_pages("recipe_profile", docs):
        found = recipe.profile_target(*args, **kwargs)
        if found is None or (found[2] is not None and found[2] >= recipe.TARGET_SHARE):
            continue
        winner, rec, _ = found
        path = recipe.profile_path(rec, winner.mode)
        if path.exists():
            continue
        print(f"prepare: profiling {rec.workload} {winner.mode} ...", file=sys.stderr)
        path.parent.mkdir(parents=True, exist_ok=True)
        code, _, err = isolate.module("eager_vs_compiled.profile", [rec.workload, rec.profile, winner.mode, str(path)],
                                      None, 1200)
        if code != 0 or not path.exists():
            print(f"error: profiling {rec.workload} {winner.mode} failed (exit {code}): {err.strip()[-800:]}",
                  file=sys.stderr)
            failed += 1
    return failed
