"""Compile or convert? Every way to run a model measured here: eager, the best torch.compile recipes,
AOTInductor and the inference engines (ONNX Runtime, OpenVINO, TensorRT), fastest first among the
correct ones (provenance.ranked), with what each costs beyond speed (conversion, start-up, artifact, memory), and a
verdict computed from the record: compile or convert, per precision."""

from __future__ import annotations

from .. import data, engines, recipes, stats
from ..recipes import kind
from ..records import ModeResult, Record
from . import charts, provenance
from .benchmarks import records_by_machine
from .downloads import links
from .lang import is_zh, then, tr, tr_known
from .ratios import ratio, with_interval
from .provenance import (breakeven, code, esc, fmt_bytes, fmt_time, interval, machine_label, machine_words, noise_floor,
                         ok, record_line, speedup, stamp, tab, tab_label, this_machine, verdict)
from .recipe import level, not_ahead_of, versus

KNOB_WORDS = {"freezing": "freezing", "cl": "channels_last", "bf16": "bfloat16", "physical-cores": "physical cores",
              "compiled-optimizer": "compiled optimizer", "dynamic": "dynamic shapes",
              "transformers": "transformer optimizer"}


def _recipe(mode: str) -> recipes.Recipe | None:
    """The recipe a mode names, or None for a name this version does not know (a fork's record)."""
    try:
        return recipes.parse(mode)
    except ValueError:
        return None


def precision(mode: str, rec: Record) -> str:
    """'bf16' or 'fp32': what the mode computes in (a bf16 knob, or a bf16 workload)."""
    r = _recipe(mode)
    return "bf16" if (r and "bf16" in r.knobs) or rec.spec.get("dtype") == "bfloat16" else "fp32"


# What engine records measured before their spec named each mode's settings (harness 2 to 5, until
# 2026-12-06) ran with: engines.py of that time, kept so that an older record says how it ran.
EARLIER = {"onnxruntime": "torch.onnx.export (dynamo=True), ONNX Runtime session, all graph optimisations, "
                          "worker threads not spinning (allow_spinning=0)",
           "openvino": "openvino.convert_model (input shapes left dynamic), compiled for the CPU with "
                       "INFERENCE_PRECISION_HINT={p}, latency hint, CPU pinning at its default (on)",
           "aotinductor": "torch.export + AOTInductor package, loaded with aoti_load_package"}


def _engine_how(r: recipes.Recipe, mode: str, rec: Record | None) -> str:
    """The engine's settings as its record states them (spec `mode_settings`), as an older record ran
    them (EARLIER), or, without a record, as this version builds them; linked to the vendor's page."""
    said = (rec.spec.get("mode_settings") or {}).get(mode) if rec is not None else None
    if said is None and rec is not None and r.engine in EARLIER:
        said = EARLIER[r.engine].format(p="bf16" if "bf16" in r.knobs else "f32")
    said = said or engines.describe(r.engine, r.knobs)
    link = f"[{tr('settings')}]({engines.DOCS[r.engine]})"
    return f"{esc(tr_known(said))}" + (f"（{link}）" if is_zh() else f" ({link})")


def how(mode: str, rec: Record | None = None) -> str:
    """How a mode runs, in one cell: the engine's settings, or the compile mode and its knobs."""
    r = _recipe(mode)
    if r is None:
        return "—"
    knobs = ", ".join(KNOB_WORDS.get(k, k) for k in sorted(r.knobs))
    then_knobs = (("；" if is_zh() else "; ") + esc(knobs)) if knobs else ""
    if r.engine:
        return _engine_how(r, mode, rec) + (then_knobs if r.engine == "aotinductor" else "")
    if not r.compiled:
        return tr("PyTorch eager, the baseline") + then_knobs
    return f"<code>torch.compile(mode=\"{esc(r.base)}\")</code>" + then_knobs


def ranked(rec: Record) -> list[ModeResult]:
    """The record's correct modes (finished, checked against fp32 eager), eager among them, fastest first."""
    return provenance.ranked(rec, with_eager=True)


def _time(r: ModeResult, rec: Record) -> str:
    """The median time per call and the 95% interval of that median, with what a whole rerun adds."""
    lo, hi = stats.percentile_interval(data.rerun_distribution(rec, r.mode, "median_s", (rec.workload, r.mode, "median")))
    return f"{fmt_time(r.median_s)} ({fmt_time(lo)}–{fmt_time(hi)})"


def _error(r: ModeResult, rec: Record) -> str:
    """The largest relative error against fp32 eager, with the tolerance of the mode's precision."""
    if r.mode == "eager" or r.max_rel_err is None:
        return "—"
    said = f"{r.max_rel_err:.1e}"
    recipe, rtol, step = _recipe(r.mode), rec.spec.get("rtol"), rec.spec.get("step", "inference")
    if recipe is not None and isinstance(rtol, (int, float)):
        said += f" ≤ {recipes.tolerance(recipe, rtol, step):.0e}"
    return said + f" ({precision(r.mode, rec)})"


def size(b: int | None) -> str:
    """An artifact's size: fmt_bytes, and KiB below a MiB (a tiny model's files)."""
    return fmt_bytes(b) if b is None or b >= 2**20 else f"{b / 2**10:.1f} KiB"


def _row(i: int, r: ModeResult, rec: Record) -> str:
    eager = r.mode == "eager"
    vs = tr("1× (fp32 eager)") if eager else f"{speedup(r, bold=False)}: {verdict(r)}"
    return (f"| {i} | {code(r.mode)} | {how(r.mode, rec)} | {_time(r, rec)} | {vs} | "
            f"{'—' if eager else fmt_time(r.compile_cold_s)} | {'—' if eager else fmt_time(r.compile_warm_s)} | "
            f"{size(r.artifact_bytes)} | {fmt_bytes(r.peak_memory_bytes)} | {'—' if eager else breakeven(r)} | "
            f"{_error(r, rec)} |")


def _not_run(rec: Record) -> str:
    rows = [f"- {code(r.mode)}: {esc(r.status)} — {esc(r.message) or tr('no message')}" for r in rec.results if not ok(r)]
    return (tr("Not in the ranking (did not run here, or failed):") + "\n\n" + "\n".join(rows) + "\n") if rows else ""


def _versions(rec: Record) -> str:
    """The engines' versions the record holds (the measuring machine's), if it holds them."""
    found = [f"{name} {esc(rec.versions[name])}" for name in ("onnxruntime", "openvino", "torch_tensorrt", "tensorrt")
             if rec.versions.get(name)]
    return (tr("Engine versions: {versions}.", versions=", ".join(found)) + "\n{: .evc-provenance }\n") if found else ""


def _not_measured(names: list[str]) -> str:
    listed = ", ".join(f"`{n}`" for n in names)
    return (f'!!! note "{tr("Not measured yet")}"\n    '
            + tr("No machine has a record of {names} yet: they are measured on demand, not by every site build. "
                 "`./evc.sh measure --workload NAME` measures one, `./evc.sh measure --family engines` all of them "
                 "(see [add your machine](add-your-machine.md)); the engines come with `./evc.sh`'s install.",
                 names=listed) + "\n")


def table(name: str) -> str:
    """Every way to run one workload, ranked, one tab per machine; the modes that did not run listed."""
    out = []
    for slug, recs in records_by_machine([name]).items():
        rec = recs[0]
        lines = [tr("| # | Mode | How | Latency: time per call, one stream (95% interval) | vs fp32 eager | Conversion (cold) | "
                    "Start from the artifact (warm) | Artifact | Peak memory | Break-even | "
                    "Max rel. error vs fp32 eager ≤ tolerance |"), "|" + "---|" * 11]
        lines += [_row(i, r, rec) for i, r in enumerate(ranked(rec), 1)]
        note = tr("Conversion: the export and the engine's optimisation plus the first call, minus a steady call "
                  "(torch.compile: its cold compile). Warm: a fresh process loading the saved artifact (the compile "
                  "cache for torch.compile) and calling it once, minus a steady call. Artifact: the files a "
                  "deployment ships. Peak memory: the peak resident memory of the measuring process. Latency's interval: "
                  "its processes, with what whole runs of the machine differ by where it has a calibration.")
        body = ("\n".join(lines) + "\n\n" + note + "\n\n" + _not_run(rec) + "\n"
                + record_line(rec) + _versions(rec) + "\n" + links(rec))
        out.append(tab(tab_label(slug, recs), body))
    return "\n".join(out) or _not_measured([name])


def _best(rows: list[ModeResult], rec: Record, group: str, prec: str) -> ModeResult | None:
    return next((r for r in rows if kind(r.mode) == group and precision(r.mode, rec) == prec), None)


def _duel(rec: Record, prec: str, floor: float) -> tuple[ModeResult, ModeResult, tuple] | None:
    """The best torch.compile recipe and the best engine of one precision, with the recipe's throughput
    over the engine's (ratio, low, high, words), or None where either is missing."""
    rows = ranked(rec)
    recipe, engine = _best(rows, rec, "compile", prec), _best(rows, rec, "engine", prec)
    if recipe is None or engine is None:
        return None
    return recipe, engine, versus(recipe, rec, engine, rec, floor)


def _level(rows: list[ModeResult], rec: Record, floor: float) -> str:
    """The qualifier of the first of `rows` (recipe.level): the modes after it it is not ahead of."""
    return level(rows[0], rec, not_ahead_of(rows[0], rec, [(r, rec) for r in rows[1:]], floor))


def verdict_text(rec: Record) -> str:
    """One paragraph computed from the record: the fastest correct way, then, per precision, the best
    torch.compile recipe against the best engine, in words that follow the intervals."""
    rows = ranked(rec)
    if not rows:
        return tr("No mode of this record finished with a correct output: there is nothing to rank.")
    first, floor = rows[0], noise_floor([rec])
    said = [tr("On {machine}, for {model}: the fastest correct way is {mode}, in {precision}",
               machine=machine_words(rec.machine), model=esc(tr_known(rec.title)), mode=code(first.mode),
               precision=precision(first.mode, rec))
            + (tr(", at {x} the speed of fp32 eager ({words})", x=speedup(first), words=verdict(first))
               if first.mode != "eager" else "") + _level(rows, rec, floor) + tr(".")]
    for prec in ("fp32", "bf16"):
        duel = _duel(rec, prec, floor)
        if duel is None:
            continue
        recipe, engine, (point, lo, hi, words) = duel
        said.append(tr("In {precision}, the best torch.compile recipe {recipe} runs at {ratio}× ({lo}–{hi}) the "
                       "speed of the best engine {engine}, latency against latency (one stream): {words}.", precision=prec, recipe=code(recipe.mode),
                       ratio=ratio(point), lo=ratio(lo), hi=ratio(hi), engine=code(engine.mode), words=tr(words)))
    said.append(tr("Modes of one record run in separate processes: a ratio inside ±{floor:.0%} (the largest difference "
                   "between the eager times of its processes) is called within the noise.", floor=floor) if floor else
                tr("Each mode was timed in several fresh processes of its own: a ratio is called a difference only when "
                   "its 95% interval, drawn over those processes, leaves out parity."))
    return said[0] + "".join(then() + s for s in said[1:])


def conclusion(name: str) -> str:
    """The verdict paragraph of one workload, one tab per machine with a record (nothing without one)."""
    found = records_by_machine([name])
    if not found:
        return ""  # the workload's table, below it, says that it is not measured and how to measure it
    return "\n".join(tab(tab_label(slug, recs), verdict_text(recs[0]) + "\n\n" + stamp(recs, tr("workload {name}", name=code(name))))
                     for slug, recs in found.items())


def _by_machine(names: list[str]) -> dict[str, list[Record]]:
    """slug -> the records of `names` that machine has, in the order of `names` (this machine first)."""
    found: dict[str, list[Record]] = {}
    for name in names:
        for slug, recs in records_by_machine([name]).items():
            found.setdefault(slug, []).extend(recs)
    return dict(sorted(found.items(), key=lambda kv: kv[0] != this_machine()))


def summary(names: list[str]) -> str:
    """Across workloads, per machine: the fastest correct way, and per precision the best torch.compile
    recipe against the best engine."""
    by_machine, out = _by_machine(names), []
    for slug, recs in by_machine.items():
        lines = [tr("| Workload | Precision | Fastest correct way in this precision | Best torch.compile recipe | "
                    "Best engine | Recipe's speed over the engine's, in latency |"), "|---|---|---|---|---|---|"]
        for rec in recs:
            rows, floor = ranked(rec), noise_floor([rec])
            for prec in ("fp32", "bf16"):
                recipe, engine = _best(rows, rec, "compile", prec), _best(rows, rec, "engine", prec)
                if recipe is None and engine is None:
                    continue
                mine = [r for r in rows if precision(r.mode, rec) == prec]
                fastest = (f"{code(mine[0].mode)} " + (speedup(mine[0], bold=False) if mine[0].mode != "eager" else "1×")
                           + _level(mine, rec, floor) if mine else tr("no mode finished"))
                duel = _duel(rec, prec, floor)
                ratio = (f"{with_interval(*duel[2][:3])}: {tr(duel[2][3])}" if duel else "—")
                lines.append(f"| {esc(tr_known(rec.title))} | {prec} | {fastest} | "
                             + (f"{code(recipe.mode)} {speedup(recipe, bold=False)}" if recipe else "—") + " | "
                             + (f"{code(engine.mode)} {speedup(engine, bold=False)}" if engine else "—") + f" | {ratio} |")
        out.append(tab(tab_label(slug, recs), "\n".join(lines) + "\n\n"
                       + tr("Speedups are over fp32 eager, with their 95% intervals (how each record timed eager: its line "
                            "under its table); the last column compares two modes measured in separate processes.") + "\n\n"
                       + stamp(recs, tr("sizes and sample counts in each workload's table below"))))
    missing = [n for n in names if not any(r.workload == n for recs in by_machine.values() for r in recs)]
    return "\n".join(out) + ("\n" + _not_measured(missing) if missing else "")


def chart(names: list[str]) -> str:
    """Bars: the speedup over eager of every mode of every workload, whiskers the 95% interval, per machine."""
    out = []
    for slug, recs in _by_machine(names).items():
        rows = [(f"{rec.workload.removeprefix('engines_')} · {r.mode}", r.speedup if ok(r) else None,
                 interval(r) if ok(r) else None) for rec in recs for r in rec.results if r.mode != "eager"]
        title = tr("Speedup over fp32 eager of each way to run the model on {machine}; whiskers: 95% interval; "
                   "no bar: did not run or failed", machine=machine_label(recs[0].machine))
        out.append(tab(tab_label(slug, recs), charts.bars(rows, title, tr("speedup vs eager (×)"),
                                                          f"engines-{slug}-" + "-".join(names)) + "\n" + stamp(recs)))
    return "\n".join(out) or _not_measured(names)
