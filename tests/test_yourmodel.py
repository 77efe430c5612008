"""Your model: `measure --model FILE.py:FUNCTION` measures a reader's model like a workload, and
refuses a bad factory by name before measuring anything."""
import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from eager_vs_compiled import recipes, records, usermodel
from helpers import ROOT

FACTORY = ROOT / "snippets" / "how-to" / "my_model_factory.py"


def _cli(*args, cwd=ROOT, extra_path=""):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), extra_path]))}
    return subprocess.run([sys.executable, "-m", "eager_vs_compiled", "measure", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=1800)


@pytest.mark.slow
def test_the_example_factory_through_the_real_cli_gives_a_record_and_reports():
    # The very run the how-to page shows (same command, into the tests' cache): the site build of the
    # tests then finds its record fresh and reuses it instead of measuring the model a second time.
    reports = Path(os.environ["EVC_CACHE"]) / "model-reports"
    page = (ROOT / "docs" / "how-to" / "measure-your-model.md").read_text()
    [shown] = re.findall(r'\{\{ model_report\("how-to/my_model_factory.py:factory", (\[.*?\])\) \}\}', page)
    modes = ast.literal_eval(shown)  # the modes the page's report runs: the same command, the same record
    assert {"onnxruntime", "openvino", "aotinductor"} <= set(modes), modes  # every engine that runs on a CPU
    # Named as the page names it, relative to the checkout (cwd): the record a site build made or found
    # committed (<release>/model-reports/) is this one, fresh, and the command reuses it.
    out = _cli("--model", f"{FACTORY.relative_to(ROOT).as_posix()}:factory", "--out", str(reports),
               *[a for m in modes for a in ("--mode", m)], "--strict")
    assert out.returncode == 0, out.stderr[-2000:]
    assert re.search(r"\*\*Verdict:\*\* (compile with `[\w+-]+`: \d|convert to `[\w+-]+`: \d|do not compile: )", out.stdout)
    assert "graphs: 1, graph breaks: 0" in out.stdout and "recompiles when called with the second input shape" in out.stdout
    [folder] = {p.parent for p in reports.rglob("my_model_factory-factory.json")}
    rec = records.load(folder / "my_model_factory-factory.json")
    for mode in modes:  # each engine and compile mode ran, matched eager, and was timed beside it
        r, tolerance = rec.result(mode), recipes.tolerance(recipes.parse(mode), rec.spec["rtol"], "inference")
        assert r.status == "ok" and r.max_rel_err <= tolerance and r.speedup and r.samples_s, (mode, r)
        assert r.compile_cold_s is not None and r.compile_warm_s is not None, mode  # export; load in a new process
        if recipes.parse(mode).engine:
            assert r.artifact_bytes and r.artifact_bytes > 1000, (mode, r.artifact_bytes)  # the weights are in it
    ranked = out.stdout.split("### Every way measured, fastest correct first", 1)[1].split("###", 1)[0]
    assert all(f"`{m}`" in ranked for m in modes), ranked
    html = (folder / "my_model_factory-factory.html").read_text()
    assert "<table tabindex=\"0\">" in html and "Verdict:" in html  # a table that may scroll is focusable
    assert not re.search(r"""(src|href)=["']?https?:|url\(https?:|@import""", html)  # nothing fetched: offline


def test_a_module_path_names_a_factory_too(tmp_path, monkeypatch):
    (tmp_path / "readers_models.py").write_text(textwrap.dedent("""\
        import torch
        def tiny():
            return torch.nn.Linear(4, 2), (torch.randn(3, 4),)
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = usermodel.call_factory("readers_models:tiny")
    assert spec["step"] == "inference" and spec["inputs"][0].shape == (3, 4)
    assert usermodel.workload_for("readers_models:tiny", "cpu").name == "readers_models-tiny"


BAD = {
    "missing.py:factory": "no such file",
    "{dir}/broken.py:factory": "importing {dir}/broken.py failed: ZeroDivisionError",
    "{dir}/good.py:nope": "has no function 'nope'",
    "{dir}/good.py:raises": "the factory raised RuntimeError: out of cheese",
    "{dir}/good.py:wrong_shape": "the factory must return (model, inputs) or a dict",
    "{dir}/good.py:module_alone": "returned a model without example inputs: give their shape with --input-shape",
    "{dir}/good.py:not_tensors": "'inputs' must be a tensor or a tuple of tensors, got list",
    "{dir}/good.py:bad_output": "the model's output must be tensors",
    "{dir}/good.py": "expected FILE.py:FUNCTION or MODULE:FUNCTION",
}


@pytest.mark.parametrize("target, message", BAD.items())
def test_a_bad_factory_is_refused_by_name_and_nothing_is_written(tmp_path, target, message, capsys):
    (tmp_path / "broken.py").write_text("1 / 0\n")
    (tmp_path / "good.py").write_text(textwrap.dedent("""\
        import torch
        def raises():
            raise RuntimeError("out of cheese")
        def wrong_shape():
            return torch.nn.Linear(2, 2), (torch.ones(2),), "a third thing"
        def module_alone():
            return torch.nn.Linear(2, 2)
        def not_tensors():
            return torch.nn.Linear(2, 2), [[1.0, 2.0]]
        def bad_output():
            return (lambda x: "a string"), (torch.ones(2),)
        """))
    from eager_vs_compiled import cli

    target, message = target.format(dir=tmp_path), message.format(dir=tmp_path)
    code = cli.main(["measure", "--model", target, "--out", str(tmp_path / "out")])  # the CLI, in this process
    err = capsys.readouterr().err
    assert code == 2 and f"--model {target!r}" in err and message in err, err[-1500:]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.*"))


def test_model_needs_an_out_folder(capsys):
    from eager_vs_compiled import cli

    assert cli.main(["measure", "--model", f"{FACTORY}:factory"]) == 2
    assert "--model needs --out DIR" in capsys.readouterr().err


def test_a_torchvision_model_named_by_module_path_gets_an_input_of_the_shape_given(monkeypatch):
    spec = usermodel.call_factory("torchvision.models:resnet18", (2, 3, 32, 32))
    assert type(spec["model"]).__name__ == "ResNet" and spec["inputs"][0].shape == (2, 3, 32, 32)
    again = usermodel.call_factory("torchvision.models:resnet18", (2, 3, 32, 32))["inputs"][0]
    assert torch.equal(spec["inputs"][0], again)  # seeded: the child rebuilds the very same input
    w = usermodel.workload_for("torchvision.models:resnet18", "cpu", (2, 3, 32, 32))
    assert w.sizes["cpu"]["input_shape"] == [2, 3, 32, 32] and w.name == "torchvision-resnet18"


@pytest.mark.parametrize("text", ["", "4,x", "4,0,2", "-1,3"])
def test_a_bad_input_shape_is_refused_naming_it(text):
    with pytest.raises(usermodel.ModelError, match=f"--input-shape {text!r}: expected positive sizes"):
        usermodel.parse_shape(text)


@pytest.mark.parametrize("argv, message", [
    (["--input-shape", "4,3,8,8"], "--input-shape goes with --model"),
    (["--model", "torchvision.models:resnet18", "--family", "resnet"], "--family 'resnet' with --model: the mode sets"),
])
def test_model_options_are_refused_where_they_do_not_apply(tmp_path, argv, message, capsys):
    from eager_vs_compiled import cli

    assert cli.main(["measure", *argv, "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_family_engines_and_recipes_choose_the_modes_of_a_readers_model():
    from eager_vs_compiled import modelcmd, workloads

    engines_set, recipe_set = workloads.MODEL_MODE_SETS["engines"]["cpu"], workloads.MODEL_MODE_SETS["recipes"]["cpu"]
    got = modelcmd.modes_for(["engines"], ["max-autotune", "onnxruntime"], "cpu")
    assert got == [*engines_set, "max-autotune"]  # eager first, the set's order, a named mode once
    assert modelcmd.modes_for(["recipes"], [], "cpu") == list(recipe_set)
    both = modelcmd.modes_for(["recipes", "engines"], [], "cpu")
    assert set(both) == set(recipe_set) | set(engines_set) and len(both) == len(set(both))
    assert modelcmd.modes_for([], ["default"], "cpu") == ["eager", "default"]
    assert modelcmd.modes_for([], [], "cpu") is None  # the command's default modes
