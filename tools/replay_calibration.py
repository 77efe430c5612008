"""Replay the rerun check on the committed calibration sessions (standard library and the package).

    PYTHONPATH=src python tools/replay_calibration.py SLUG [--draws N] [--plain] [--prior RUNS] [--release 2.15.0]

The check (issue 41): four runs of tiny_op, mlp, pointwise_08 and transformer_block; a run passes when
another run's speedup lies inside its 95 % interval in at least 85 % of the ordered pairs, two runs'
intervals overlap in at least 95 % of the pairs, and no interval is padded (half-width above the larger
of 2 % and the four runs' spread, max/min - 1). Each committed session stands in for such four runs:
it is judged with the terms (and host fits) of the other sessions alone, and the stop rule is run again
on each run's processes in the order they ran, as `measure` would have stopped them under those terms;
a run that needs more processes than it has gets copies of its own, drawn at random (`--draws` times,
each a different draw). Prints each session's counts and, per draw, how many sessions pass. `--plain`:
without the host fits (each process's speedup as measured, the terms of the runs as measured); `--prior`:
another weight of the pool in each workload mode's own term (terms.PRIOR_RUNS)."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import random
from pathlib import Path

from eager_vs_compiled import hosts, intervals, rounds, store, terms

ROWS = (("mlp", "default"), ("pointwise_08", "default"), ("tiny_op", "default"), ("transformer_block", "default"))


def stopped(rec, mode: str, term: terms.Term, rng: random.Random, plain: bool):
    """The mode's result as the stop rule under `term` would have left it: its first k processes."""
    r = rec.result(mode)
    eager, mine = r.eager_process_samples(), r.process_samples()
    order = list(range(len(r.processes)))
    host = None if plain else hosts.as_field(term.host(rec.workload, mode))
    for k in range(rounds.ROUNDS_MIN, rounds.ROUNDS_MAX + 1):
        while len(order) < k:
            order.append(rng.randrange(len(r.processes)))
        first = order[:k]
        got = dataclasses.replace(r, processes=[r.processes[i] for i in first], host=host,
                                  samples_s=[s for i in first for s in mine[i]], run_sd=term.of(rec.workload, mode),
                                  eager_samples_s=[s for i in first for s in eager[i]]).finish(1, None)
        if k >= rounds.ROUNDS_NARROW and rounds.half_width(None, got) <= rounds.target(got.run_sd):
            break
    return got


def judge(runs: dict, term: terms.Term, rng: random.Random, plain: bool) -> tuple[int, int, int, list[str]]:
    """(runs inside, overlapping pairs, padded intervals, a line per row) of one session's four rows."""
    inside = overlap = padded = 0
    lines = []
    for name, mode in ROWS:
        got = [stopped(rec, mode, term, rng, plain) for rec in runs[name]]
        iv = [(g.speedup, *intervals.speedup_interval(g)) for g in got]
        spread = max(p for p, _, _ in iv) / min(p for p, _, _ in iv) - 1
        widths = [(hi - lo) / 2 / p for p, lo, hi in iv]
        ins = sum(iv[a][1] <= iv[b][0] <= iv[a][2] for a, b in itertools.permutations(range(len(iv)), 2))
        ov = sum(iv[a][1] <= iv[b][2] and iv[b][1] <= iv[a][2] for a, b in itertools.combinations(range(len(iv)), 2))
        pad = sum(w > max(rounds.TARGET_HALF_WIDTH, spread) for w in widths)
        inside, overlap, padded = inside + ins, overlap + ov, padded + pad
        lines.append(f"{name} {ins} inside, {pad} padded, widest ±{max(widths):.1%}, spread {spread:.1%}, "
                     f"processes {','.join(str(len(g.processes)) for g in got)}")
    return inside, overlap, padded, lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("slug")
    ap.add_argument("--release", default="2.15.0")
    ap.add_argument("--draws", type=int, default=10)
    ap.add_argument("--plain", action="store_true")
    ap.add_argument("--prior", type=float, help=f"another terms.PRIOR_RUNS (now {terms.PRIOR_RUNS})")
    args = ap.parse_args()
    if args.prior is not None:
        terms.PRIOR_RUNS = args.prior
    found = terms.sessions(store.release_dir(Path("measurements"), args.slug, args.release))
    if len(found) < 2:
        raise SystemExit(f"{args.slug} {args.release}: {len(found)} calibration session(s); the replay needs two")
    passing = []
    for draw in range(args.draws):
        rng, passed = random.Random(draw), 0
        for i, (folder, runs) in enumerate(found):
            others = terms.merged(found[:i] + found[i + 1:])
            term = terms.estimate(others, stat=terms.as_measured) if args.plain else terms.estimate(others)
            inside, overlap, padded, lines = judge(runs, term, rng, args.plain)
            pairs = sum(len(runs[n]) * (len(runs[n]) - 1) for n, _ in ROWS)
            ok = inside >= 0.85 * pairs and overlap >= 0.95 * pairs / 2 and padded == 0
            passed += ok
            if draw == 0:
                print(f"{folder.name}: {'pass' if ok else 'fail'}, {inside}/{pairs} inside, {overlap}/{pairs // 2} "
                      f"overlap, {padded} padded; " + "; ".join(lines))
        passing.append(passed)
    print(f"sessions passing of {len(found)}, per draw: {passing}; mean {sum(passing) / len(passing):.1f}")


if __name__ == "__main__":
    main()
