"""`python -m eager_vs_compiled measure|list|show` (standard library + torch only)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from .progress import ProgressBar


def _recipe(text: str) -> str:
    """argparse type: a mode or a recipe, refused with the valid names."""
    from . import recipes

    try:
        return recipes.parse(text).name
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _parser(workload_names: list[str], modes: tuple[str, ...]) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m eager_vs_compiled",
                                description="Measure PyTorch eager vs torch.compile on this machine.")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure", help="measure workloads missing or stale for this machine")
    m.add_argument("--workload", "-w", action="append", choices=workload_names, metavar="NAME",
                   help=f"workload to measure (repeatable, measured in the order given; default: all). One of: "
                        f"{', '.join(workload_names)}")
    m.add_argument("--mode", action="append", type=_recipe, metavar="MODE",
                   help=f"only these modes (repeatable): {', '.join(modes)}, an inference engine (onnxruntime, "
                        "openvino, aotinductor, tensorrt), or a recipe, a mode with knobs joined by '+' (e.g. "
                        "default+freezing+cl, openvino+bf16; knobs: freezing, cl, bf16, physical-cores, "
                        "compiled-optimizer, dynamic, transformers)")
    m.add_argument("--profile", choices=("cpu", "gpu"), help="sizes to use (default: gpu if CUDA is available)")
    m.add_argument("--family", action="append", metavar="NAME",
                   help="only the workloads of this benchmark family (repeatable): "
                        "overhead, pointwise, mlp-transformer, resnet, vit, engines; with --model, the "
                        "modes to measure your model with: recipes (every compile recipe), engines "
                        "(the best compile recipe, ONNX Runtime, OpenVINO f32 and bf16, AOTInductor)")
    m.add_argument("--input-shape", metavar="N,C,H,W",
                   help="with --model whose function returns a model alone (e.g. torchvision.models:resnet50): "
                        "the shape of its one random input")
    m.add_argument("--budget", type=float, metavar="SECONDS",
                   help="stop starting new measurements when they would not fit in this many seconds; "
                        "what does not fit is recorded as skipped (default: none for cpu, 450 for gpu)")
    m.add_argument("--device", choices=("cpu", "cuda"),
                   help="run the profile's plan on this device (default: the profile's); "
                        "`--profile gpu --device cpu` rehearses the GPU plan on a CPU")
    m.add_argument("--force", action="store_true", help="re-measure even fresh records (as EVC_REMEASURE=1)")
    m.add_argument("--model", metavar="FILE.py:FUNCTION",
                   help="measure your own model: FUNCTION() returns (model, example_inputs) or a dict "
                        "(see the 'Measure your own model' page); needs --out, writes a report beside the record")
    m.add_argument("--dry-run", action="store_true",
                   help="print what would be measured (workloads, modes, estimated seconds) and measure nothing")
    m.add_argument("--strict", action="store_true",
                   help="exit 1 when a mode failed (error, mismatch, timeout, oom, crashed); by default such "
                        "modes are recorded and reported, and the exit code is 0 unless the harness itself failed")
    m.add_argument("--out", type=Path, metavar="DIR",
                   help="measurements folder (default: ./measurements, or $EVC_MEASUREMENTS)")
    calibrate_parser(sub, workload_names)
    sub.add_parser("list", help="list the workloads and their modes")
    g = sub.add_parser("migrate", help="move records of the old flat layout (<machine>/<workload>.json) into "
                                       "<machine>/torch-<release>/ folders, unchanged")
    g.add_argument("--out", type=Path, metavar="DIR", help="measurements folder")
    s = sub.add_parser("show", help="print the recorded tables of a workload, every machine")
    s.add_argument("name", choices=workload_names, metavar="NAME", help=", ".join(workload_names))
    s.add_argument("--out", type=Path, metavar="DIR", help="measurements folder")
    p.subcommands = sub.choices  # name -> its parser (for help_markdown), kept here rather than read from argparse's privates
    return p


def calibrate_parser(sub, workload_names: list[str]) -> None:
    from .calibrate import add_parser
    from .prepare import add_parser as add_prepare

    add_parser(sub, workload_names)
    add_prepare(sub)  # `prepare`: its handler set on the parser (args.run)


def help_markdown() -> str:
    """The help of the command and of each subcommand, as one fenced block (the CLI reference page)."""
    from . import workloads

    parser = _parser(list(workloads.WORKLOADS), workloads.ALL_MODES)
    out = [parser.format_help().strip()]
    for name, sub in parser.subcommands.items():
        out.append(f"\n$ python -m eager_vs_compiled {name} --help\n{sub.format_help().strip()}")
    return "````text\n" + "\n".join(out) + "\n````\n"


class UsageError(Exception):
    """A command line that names something that does not exist: exit code 2, with the valid names."""


def _list(args) -> int:
    from . import workloads

    for w in workloads.WORKLOADS.values():
        print(f"{w.name:26} [{w.family}] {w.title}")
        for prof in workloads.PROFILES:
            if w.in_profile(prof):
                when = "" if w.scheduled(prof) else " (on demand: measure --family/--workload)"
                print(f"{'':26}   {prof}: modes {', '.join(w.modes[prof])}; sizes {w.sizes[prof]}{when}")
            else:
                print(f"{'':26}   {prof}: not in this profile")
    return 0


def _migrate(args) -> int:
    from . import store

    moved = store.migrate(args.out)
    for old, new in moved:
        print(f"{old} -> {new}")
    print(f"{len(moved)} file(s) moved; nothing was re-measured", file=sys.stderr)
    return 0


def _show(args) -> int:
    from . import store
    from .pages.tables import table

    recs = store.records_for(args.name, args.out)
    if not recs:
        print(f"no records of {args.name} yet; run: python -m eager_vs_compiled measure -w {args.name}")
        return 1
    for rec in recs:
        print(f"## {rec.title} — {rec.machine.get('slug')}\n\n{table(rec, page=False)}")
    return 0


def _plan(args) -> tuple[str, list]:
    """(profile, workloads to measure) from the command line; UsageError names a bad input."""
    from . import schedule, workloads

    profile = args.profile or workloads.default_profile()
    if profile == "gpu" and profile != workloads.default_profile() and args.device != "cpu":
        raise UsageError("--profile gpu needs a CUDA device; this machine has none "
                         "(add --device cpu to rehearse the GPU plan on the CPU)")
    for fam in args.family or []:
        if fam not in workloads.FAMILIES:
            raise UsageError(f"unknown family {fam!r}; valid names: {', '.join(workloads.FAMILIES)}")
    # Workloads measured only on demand join the plan when asked for by family or by name.
    asked = bool(args.family or args.workload)
    plan = [w for w in workloads.in_profile(profile, on_demand=asked) if not args.family or w.family in args.family]
    if args.workload:
        outside = [n for n in args.workload if not workloads.get(n).in_profile(profile)]
        if outside:
            raise UsageError(f"{', '.join(outside)} not in profile {profile!r}; its workloads: "
                             f"{', '.join(w.name for w in workloads.in_profile(profile))}")
        plan = sorted((w for w in plan if w.name in args.workload), key=lambda w: args.workload.index(w.name))
    if args.budget is not None and not args.budget > 0:  # also refuses nan
        raise UsageError(f"--budget must be a positive number of seconds, not {args.budget:g}")
    schedule.aim_seconds(0.0)  # EVC_AIM_S refused by name before anything is measured
    return profile, plan


def _roof(args, after: list[str] | None = None) -> bool:
    """Measure (or reuse) the machine's peaks; `after`: again, after workloads shown against them
    (the share of peak), so that the roof and the records come from one window. False if it failed."""
    from . import peaks, records

    try:
        roof = peaks.ensure(args.out, args.device, force=args.force or bool(after))
    except (RuntimeError, records.RecordError) as e:
        print(f"error: {e}", file=sys.stderr)
        return False
    window = " (the same run as " + ", ".join(after) + ")" if after else ""
    print(f"machine peaks{window}: matmul {roof['matmul_tflops']} TFLOP/s, copy {roof['copy_gb_s']:.0f} GB/s",
          file=sys.stderr)
    return True


def _calibrate(args) -> int:
    from . import calibrate

    try:
        return calibrate.command(args, ProgressBar(None))  # adaptive rounds: the count of processes is unknown
    except ValueError as e:
        raise UsageError(str(e)) from None


def _dry_run(plan: list, profile: str, args) -> int:
    from . import measure

    total = 0.0
    for w in plan:
        modes = args.mode or w.modes[profile]
        total += sum(measure.estimate_s(w, m) for m in modes)
        print(f"{w.name}: {', '.join(modes)} (about {sum(measure.estimate_s(w, m) for m in modes):.0f} s)")
    print(f"{len(plan)} workloads, about {total:.0f} s; profile {profile}; nothing measured (--dry-run)")
    return 0


def _measure(args) -> int:
    from . import machine, measure, records, store
    from .pages.tables import table

    if args.model:
        from .modelcmd import ModelError, measure_command

        try:
            return measure_command(args)
        except ModelError as e:
            raise UsageError(str(e)) from None
    if args.input_shape:
        raise UsageError("--input-shape goes with --model (the shape of your model's input)")
    profile, plan = _plan(args)
    if args.dry_run:
        return _dry_run(plan, profile, args)
    budget = args.budget if args.budget is not None else (450.0 if profile == "gpu" else None)
    deadline = None if budget is None else time.monotonic() + budget
    planned = sum(measure.estimate_s(w, m) for w in plan for m in (args.mode or w.modes[profile]))
    if budget is not None and budget < planned / 2:
        print(f"warning: the budget ({budget:.0f} s) is far below the estimate for this plan (about "
              f"{planned:.0f} s): what does not fit is recorded as skipped and measured by a later run",
              file=sys.stderr)
    bar = ProgressBar(sum(measure.planned_steps(w, args.mode or w.modes[profile]) for w in plan))
    log = logging.getLogger("eager_vs_compiled")
    log.addHandler(logging.StreamHandler(sys.stderr))
    log.setLevel(logging.INFO)
    failed = skipped = 0
    harness_failed = False  # the harness itself (peaks, a record it cannot write), not a mode
    t0, started = time.monotonic(), datetime.now(timezone.utc).isoformat(timespec="seconds")
    whole, on_the_roof = not args.workload and not args.family and not args.mode, []
    try:
        if whole and not _roof(args):  # the whole profile: the roofline first
            failed, harness_failed = failed + 1, True
        by_name = {w.name: w for w in plan}
        for name, rec, error in measure.ensure_records(list(by_name), args.out, force=args.force, profile=profile,
                                                       modes=args.mode, progress=bar.step, deadline=deadline,
                                                       device=args.device):
            w = by_name[name]
            if error is not None:
                print(f"\nerror: {error}", file=sys.stderr)
                failed, harness_failed = failed + 1, True
                continue
            bar.close()
            if w.traffic and rec.date >= started:  # measured now, and shown against the machine's roof
                on_the_roof.append(w.name)
            print(f"\n## {rec.title}\n\n{table(rec, page=False)}")
            failed += sum(r.status not in ("ok", "skipped") for r in rec.results)
            skipped += sum(r.status == "skipped" for r in rec.results)
        if on_the_roof and not whole and not _roof(args, after=on_the_roof):
            failed, harness_failed = failed + 1, True
    finally:
        bar.close()
    print(f"{len(plan)} workloads in {time.monotonic() - t0:.0f} s; {failed} mode(s) failed, "
          f"{skipped} skipped (time budget or missing package)", file=sys.stderr)
    folder = store.release_dir(args.out or store.default_root(), machine.describe()["slug"],
                               store.release(machine.versions()["torch"]))
    print(f"records in {folder}/", file=sys.stderr)
    return 1 if failed and (args.strict or harness_failed) else 0


class Interrupted(Exception):
    """SIGTERM: stop as Ctrl-C does (the child's process group is killed on the way out)."""


def _on_term(signum, frame):
    raise Interrupted()


def main(argv: list[str] | None = None) -> int:
    import signal

    from . import isolate, machine, records, schedule, workloads

    args = _parser(list(workloads.WORKLOADS), workloads.ALL_MODES).parse_args(argv)
    store_before = os.environ.get("EVC_MEASUREMENTS")
    if getattr(args, "out", None):  # the machine's folder is chosen against this store
        os.environ["EVC_MEASUREMENTS"] = str(args.out)
    command = {"list": _list, "migrate": _migrate, "show": _show, "measure": _measure,
               "calibrate": _calibrate}.get(args.command) or args.run
    previous = signal.signal(signal.SIGTERM, _on_term)
    try:
        return command(args)
    except (UsageError, machine.MachineNameError, schedule.SettingError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except records.RecordError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, Interrupted) as e:
        isolate.kill_children()  # one being started as the signal came is not yet in isolate.run's hands
        code = 143 if isinstance(e, Interrupted) else 130
        print("\ninterrupted: the records already written are kept; the measurement in progress was "
              "stopped and not saved", file=sys.stderr)
        return code
    finally:
        signal.signal(signal.SIGTERM, previous)
        if store_before is None:
            os.environ.pop("EVC_MEASUREMENTS", None)
        else:
            os.environ["EVC_MEASUREMENTS"] = store_before
