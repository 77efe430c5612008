"""Do the intervals hold on a rerun? Reruns of chosen workloads, and what one run's interval says of another.

`calibrate` measures each workload K times, one full measurement (every round) after another, and keeps
every run's record under <release>/calibration/run-<i>/. For each workload and mode it then reports:
how often a run's speedup lies inside another run's 95% interval (ordered pairs), how often two runs'
intervals overlap (unordered pairs), the median half-width, and the runs' own spread (max/min - 1).
`protocols` measures workloads with each mode timed alone and interleaved with eager, in one window,
into <release>/protocols/<protocol>/; `interference` adds the `idle` protocol (eager timed in the mode's
process with the mode loaded and idle), into <release>/interference/<protocol>/: does an engine in the
process slow eager? The methodology and compile-or-convert pages render them from those records.
Standard library + this package.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Callable

from . import machine, measure, records, reruns, schedule, store, terms, workloads
# what the experiments wrote, read back (the pages read it there, without the measuring code)
from .experiments import (CALIBRATION, EXPERIMENTS, INTERFERENCE, PAD_FLOOR, PROTOCOLS, Row,  # noqa: F401
                          load_runs, rows, totals)

DEFAULT_WORKLOADS = ("tiny_op", "mlp", "pointwise_08", "transformer_block")
Progress = Callable[[str], None]


def _write(path: Path, record: records.Record) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(record.to_json())
    os.replace(tmp, path)


def folder(root: Path, kind: str, slug: str | None = None, rel: str | None = None) -> Path:
    slug = slug or machine.describe()["slug"]
    rel = rel or store.release(machine.versions()["torch"])
    return store.release_dir(Path(root), slug, rel) / kind


def run(names, runs: int, root: Path, progress: Progress, profile: str | None = None,
        protocol: str | None = None) -> Path:
    """Measure every workload `runs` times, each run as `measure` does (the workloads' rounds
    interleaved); each run's records go to calibration/run-<i>/. An earlier session there is kept beside
    it first, as calibration-<date> (reruns.keep_session): the run-to-run term pools every session."""
    out = folder(root, CALIBRATION)
    if out.is_dir() and (kept := reruns.keep_session(out)) is not None:
        progress(f"the earlier calibration session kept as {kept}")
    for i in range(1, runs + 1):
        progress(f"calibration run {i} of {runs}: {', '.join(names)}")
        aim = measure.run_aim(profile)  # each run its own, as each `measure` has
        steps = {n: measure.workload_steps(n, profile, progress=progress, protocol=protocol, aim=aim) for n in names}
        for name, rec, _ in schedule.interleave(steps):
            _write(out / f"run-{i}" / f"{name}.json", rec)
    return out


def protocols(names, root: Path, progress: Progress, rounds: int, profile: str | None = None,
              modes: list[str] | None = None, kind: str = PROTOCOLS) -> Path:
    """Each workload measured with the experiment's protocols back to back (same window, same rounds);
    `modes`: only these (eager is always measured); `kind`: PROTOCOLS or INTERFERENCE."""
    out = folder(root, kind)
    for name in names:
        for protocol in EXPERIMENTS[kind]:
            progress(f"protocol {protocol}: {name}")
            rec = measure.measure_workload(name, profile, modes=modes, progress=progress, protocol=protocol,
                                           rounds=rounds)
            _write(out / protocol / f"{name}.json", rec)
    return out


def report(table: list[Row]) -> str:
    """The calibration table in Markdown (English; the page renders its own)."""
    lines = ["| workload / mode | speedups of the runs | half-width (median) | spread | another run inside | "
             "intervals overlap | padded |", "|---|---|---|---|---|---|---|"]
    for r in table:
        lines.append(f"| {r.workload} / {r.mode} | {', '.join(f'{s:.2f}' for s in r.speedups)} | ±{r.half_width:.1%} | "
                     f"{r.spread:.1%} | {r.inside} of {r.pairs} | {r.overlap} of {r.unordered} | {r.padded} |")
    t = totals(table)
    if t.pairs:
        lines.append(f"| all | | | | {t.inside} of {t.pairs} ({t.inside / t.pairs:.0%}) | {t.overlap} of {t.unordered} "
                     f"({t.overlap / t.unordered:.0%}) | {t.padded} |")
    return "\n".join(lines)


def _experiment(args, names: list[str], profile: str) -> str | None:
    """Which experiment the arguments ask for (None: a calibration), after checking them. ValueError
    names the bad input."""
    outside = [n for n in names if not workloads.get(n).in_profile(profile)]
    if outside:
        raise ValueError(f"{', '.join(outside)} not in profile {profile!r}")
    if not 2 <= args.runs <= 20:
        raise ValueError(f"--runs must be between 2 and 20, not {args.runs}")
    if sum(map(bool, (args.protocols, args.interference, args.throughput, args.footprint))) > 1:
        raise ValueError("one of --protocols, --interference, --throughput, --footprint at a time")
    experiment = PROTOCOLS if args.protocols else INTERFERENCE if args.interference else \
        "throughput" if args.throughput else "footprint" if args.footprint else None
    if args.protocol and experiment:
        raise ValueError(f"--protocol goes without --{experiment} (which measures each workload every way)")
    if args.mode and not experiment:
        raise ValueError("--mode goes with --protocols, --interference or --throughput (a calibration reruns "
                         "every mode of a workload)")
    if (args.throughput or args.footprint) and profile != "cpu":
        raise ValueError(f"--{experiment} measures the cpu profile (the cores of this machine)")
    if args.footprint and args.mode:
        raise ValueError("--footprint measures eager, ONNX Runtime and OpenVINO, with torch and without: no --mode")
    for mode in args.mode or []:
        missing = [n for n in names if mode not in workloads.get(n).modes[profile]]
        if missing:
            raise ValueError(f"mode {mode!r} is not one of {', '.join(missing)}'s modes in profile {profile!r}")
    if not 1 <= args.rounds <= 20:
        raise ValueError(f"--rounds must be between 1 and 20, not {args.rounds}")
    return experiment


def command(args, bar) -> int:
    """`calibrate`: measure (or with --report, only read) and print the table. ValueError: a bad input."""
    names = args.workload or list(DEFAULT_WORKLOADS)
    profile = args.profile or workloads.default_profile()
    experiment = _experiment(args, names, profile)
    root = Path(args.out or store.default_root())

    def say(msg: str) -> None:
        bar.step(msg)

    if experiment == "throughput":
        from . import throughput

        for name in names:
            where = throughput.measure(name, args.mode or list(workloads.get(name).modes[profile]), root, say,
                                       args.rounds).parent
    elif experiment == "footprint":
        from . import footprint

        for name in names:
            where = footprint.measure(name, root, say, args.rounds).parent
    elif experiment:
        where = protocols(names, root, say, args.rounds, profile, args.mode, experiment)
    if experiment:
        bar.close()
        print(f"records in {where}/", file=sys.stderr)
        return 0
    where = folder(root, CALIBRATION)
    if not args.report:
        store.check_writable(root)
        where = run(names, args.runs, root, say, profile, args.protocol)
        bar.close()
    found = load_runs(where)
    if not found:
        print(f"no calibration records in {where}/", file=sys.stderr)
        return 1
    chosen = {n: found[n] for n in names if n in found} if args.workload else found
    print(report(rows(chosen)))
    term = reruns.estimate(chosen)
    pooled, _ = reruns.pooled(where.parent)
    print(f"run-to-run term of these runs (reruns.py): ±{term.sd:.2%}, pooled over {term.groups} workload modes; "
          f"of every session of this machine's harness ({pooled.sessions}): ±{pooled.sd:.2%}; each workload mode's "
          "own, which `measure` adds: " + ", ".join(f"{w} · {m} ±{sd:.2%}" for w, m, sd in pooled.own))
    if pooled.hosts:
        print("each process's speedup set to the machine's usual speed (hosts.py), by the slope of its log ratio on "
              "its log eager time: " + ", ".join(f"{w} · {m} {h.slope:+.2f} ±{h.se:.2f}" for w, m, h in pooled.hosts))
    print(_other_terms(chosen))
    print(f"records in {where}/", file=sys.stderr)
    return 0


def _other_terms(chosen: dict) -> str:
    """What these runs differ by in the figures two records are compared on (terms.py; the releases page)."""
    said = []
    for field, what in (("time", "time per call"), ("cold", "cold compile"), ("warm", "warm compile"),
                        ("memory", "peak memory")):
        t = terms.estimate(chosen, stat=terms.STATS[field])
        said.append(f"{what} ±{t.sd:.1%}" if t.groups else f"{what}: not measured")
    return ("these runs differ from one another, beyond their processes, by (one sd a run, pooled; added where "
            "two records are compared): " + ", ".join(said))


def add_parser(sub, workload_names: list[str]) -> None:
    """The `calibrate` subcommand's arguments."""
    c = sub.add_parser("calibrate", help="rerun workloads several times and report how often a rerun's speedup "
                                         "lies inside another run's 95%% interval (the intervals' own check)")
    c.add_argument("--workload", "-w", action="append", choices=workload_names, metavar="NAME",
                   help="workload to rerun (repeatable; default: tiny_op, mlp, pointwise_08, transformer_block)")
    c.add_argument("--runs", type=int, default=4, metavar="K", help="full measurements of each workload (default 4)")
    c.add_argument("--protocols", action="store_true",
                   help="instead: measure each workload with every mode timed alone and interleaved with eager, "
                        "back to back (the methodology page's comparison)")
    c.add_argument("--interference", action="store_true",
                   help="instead: measure eager alone, in each mode's processes with the mode loaded and idle, and "
                        "interleaved with it, back to back (does an engine in the process slow eager?)")
    c.add_argument("--throughput", action="store_true",
                   help="instead: each mode's items per second with every core busy, the best split of the cores "
                        "into worker processes (the latency tables' companion)")
    c.add_argument("--footprint", action="store_true",
                   help="instead: what a process running the model costs (import, load, first call, time per "
                        "call, peak memory) for eager and for ONNX Runtime and OpenVINO with torch and without it")
    c.add_argument("--protocol", choices=measure.PROTOCOLS,
                   help="how each run times the modes: beside eager in each process (interleaved) or each in "
                        "processes of its own (alone); default: as `measure` does (interleaved; engines alone)")
    c.add_argument("--mode", action="append", metavar="MODE",
                   help="with --protocols or --interference: only these modes of each workload (repeatable; eager always)")
    c.add_argument("--rounds", type=int, default=3, metavar="N",
                   help="with --protocols, --interference, --throughput or --footprint: rounds of each (default 3)")
    c.add_argument("--profile", choices=("cpu", "gpu"), help="sizes to use (default: gpu if CUDA is available)")
    c.add_argument("--report", action="store_true", help="measure nothing: report the calibration records of --out")
    c.add_argument("--out", type=Path, metavar="DIR",
                   help="measurements folder (default: ./measurements, or $EVC_MEASUREMENTS); the runs go to "
                        "<machine>/torch-<release>/calibration/run-<i>/")

