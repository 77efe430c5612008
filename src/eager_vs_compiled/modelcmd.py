"""The command `measure --model FILE.py:FUNCTION`: the readiness check, every mode asked for, a record
and a report (Markdown and standalone HTML) of a reader's model. Standard library + torch."""

from __future__ import annotations

import sys
from pathlib import Path

from . import workloads
from .usermodel import ModelError, modes_for, parse_shape, workload_for


def measure_command(args) -> int:
    """`measure --model`: readiness check, every mode, a record and a report (Markdown and HTML)."""
    import json
    import tempfile

    from . import isolate, machine, measure, store
    from .pages import report
    from .progress import ProgressBar

    if not args.out:
        raise ModelError("--model needs --out DIR: the folder your model's record and report go to")
    if args.workload:
        raise ModelError("--model measures your model alone: leave out --workload")
    unknown = [f for f in args.family or [] if f not in workloads.MODEL_MODE_SETS]
    if unknown:
        raise ModelError(f"--family {unknown[0]!r} with --model: the mode sets for your model are "
                         f"{', '.join(workloads.MODEL_MODE_SETS)}")
    profile = args.profile or workloads.default_profile()
    shape = parse_shape(args.input_shape) if args.input_shape else None
    w = workload_for(args.model, profile, shape)
    args.mode = modes_for(args.family or [], args.mode or [], profile)
    with tempfile.TemporaryDirectory(prefix="evc-ready-") as tmp:
        print(f"checking {args.model}: graphs, graph breaks, recompiles (torch._dynamo.explain) ...", file=sys.stderr)
        code, _, err = isolate.module("eager_vs_compiled.usermodel", [args.model, f"{tmp}/ready.json",
                                      json.dumps(list(shape) if shape else None)], None, 600)
        ready = (json.loads(Path(f"{tmp}/ready.json").read_text()) if code == 0 and Path(f"{tmp}/ready.json").exists()
                 else {"error": f"exit code {code}: {err.strip().splitlines()[-1] if err.strip() else ''}"})
    bar = ProgressBar(measure.planned_steps(w, args.mode or w.modes[profile]))
    try:
        rec = measure.ensure_record(w.name, args.out, force=args.force, profile=profile, modes=args.mode,
                                    progress=bar.step, device=args.device)
    finally:
        bar.close()
    text = report.markdown(rec, ready)
    folder = store.release_dir(args.out, machine.describe()["slug"], store.release(machine.versions()["torch"]))
    store.write_atomic(folder / f"{w.name}.md", text)
    store.write_atomic(folder / f"{w.name}.html", report.standalone_html(rec, ready))
    print(f"\n{text}", end="")
    print(f"report: {folder / (w.name + '.html')} (and .md); record: {folder / (w.name + '.json')}", file=sys.stderr)
    failed = [r.mode for r in rec.results if r.status not in ("ok", "skipped")]
    return 1 if failed and args.strict else 0
