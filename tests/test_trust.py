"""Numbers readers can trust: intervals beside every speedup, words that follow them, raw data and
a reproduce command under every table, claim verdicts computed from records."""
import csv
import io
import os
import re
import subprocess
import sys

import pytest

from eager_vs_compiled import store
from eager_vs_compiled.pages import claims, context, downloads, home, provenance, tables
from eager_vs_compiled.pages.ratios import ratio
from helpers import ROOT, make_record

SEPARATED = dict(eager=(0.010, 0.0101, 0.0099, 0.0100, 0.0102, 0.0098, 0.0100),
                 compiled=(0.005, 0.0051, 0.0049, 0.0050, 0.0052, 0.0048, 0.0050))
SLOWER = dict(eager=SEPARATED["compiled"], compiled=SEPARATED["eager"])
OVERLAPPING = dict(eager=(0.010, 0.012, 0.009, 0.011, 0.010, 0.013, 0.009),
                   compiled=(0.011, 0.009, 0.012, 0.010, 0.009, 0.011, 0.012))


@pytest.mark.parametrize("samples, words, breakeven", [
    (SEPARATED, "faster", "calls"),
    (SLOWER, "slower", "never (slower)"),
    (OVERLAPPING, "no measurable difference", "— (no measurable difference)"),
])
def test_the_words_follow_the_interval(samples, words, breakeven):
    rec = make_record("mlp", **samples)
    default = rec.result("default")
    lo, hi = provenance.interval(default)
    assert lo <= default.speedup <= hi
    assert provenance.verdict(default) == words
    row = next(ln for ln in tables.table(rec).splitlines() if ln.startswith("| <code>default</code>"))
    assert f"({ratio(lo)}–{ratio(hi)}): {words}" in row and breakeven in row
    if words != "faster":
        assert "never (not faster)" not in row and not re.search(r"\d calls", row)


def test_the_home_table_and_the_evidence_lines_carry_the_interval(tmp_path, monkeypatch):
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    context.use(context.BuildContext.of_this_machine())  # a build of its own
    store.save(make_record("mlp", **OVERLAPPING), tmp_path)
    monkeypatch.setattr(home, "siblings", lambda name: [])  # this record alone (engines_mlp would be measured)
    text = home.headline(["mlp"])
    assert "no measurable difference" in text and "— (no measurable difference)" in text
    assert re.search(r"\*\*\d\.\d\d×\*\* \(\d\.\d\d–\d\.\d\d\)", claims.evidence("mlp"))


def test_every_table_links_its_data_and_a_reproduce_command_the_cli_accepts():
    rec = make_record("mlp")
    text = tables.table(rec)
    assert f'href="evc-data:{downloads.relpath(rec, "json")}"' in text and f'href="evc-data:{downloads.relpath(rec, "csv")}"' in text
    command = re.search(r"`\./evc\.sh measure ([^`]+)`", text).group(1).split()
    out = subprocess.run([sys.executable, "-m", "eager_vs_compiled", "measure", *command, "--dry-run"],
                         capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert out.returncode == 0 and "nothing measured (--dry-run)" in out.stdout, out.stderr[-1000:]


def test_the_csv_has_one_row_per_mode_with_the_interval():
    rec = make_record("mlp", **SEPARATED)
    rows = list(csv.DictReader(io.StringIO(downloads.to_csv(rec))))
    assert [r["mode"] for r in rows] == [r.mode for r in rec.results]
    default = next(r for r in rows if r["mode"] == "default")
    lo, hi = provenance.interval(rec.result("default"))
    assert float(default["speedup_low"]) == pytest.approx(lo) and float(default["speedup_high"]) == pytest.approx(hi)


def test_a_record_backed_verdict_flips_with_the_records(tmp_path, monkeypatch):
    """The articles' "ViTs gain more than CNNs": the verdict is whatever this machine's records say."""
    monkeypatch.setenv("EVC_MEASUREMENTS", str(tmp_path))
    vit, cnn = "vit_b_16_infer_fp32", "resnet50_infer_fp32"
    three_times = dict(eager=SEPARATED["eager"], compiled=tuple(x / 1.5 for x in SEPARATED["compiled"]))
    for cnn_samples, expected in ((three_times, "false"), (SEPARATED, "not shown here"), (OVERLAPPING, "true")):
        context.use(context.BuildContext.of_this_machine())  # a build of its own
        store.save(make_record(vit, **SEPARATED), tmp_path)  # ViT: 2x
        store.save(make_record(cnn, **cnn_samples), tmp_path)
        assert claims.compare_verdict(vit, cnn) == expected + claims.COMPUTED, cnn_samples
