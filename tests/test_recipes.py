"""Troubleshooting recipes: each still reproduces its symptom, each has a tested fix, all are indexed."""
import re

import pytest

from eager_vs_compiled import snippets
from eager_vs_compiled.pages import troubleshooting
from helpers import ROOT

TROUBLE = ROOT / "docs" / "troubleshooting"
SYMPTOMS = sorted({p.relative_to(ROOT / "snippets").as_posix()
                   for p in (ROOT / "snippets" / "troubleshooting").glob("*_symptom.py")} |
                  {rel for page in (ROOT / "docs" / "troubleshooting").glob("*.md")
                   for rel in troubleshooting.SYMPTOM_CALL.findall(page.read_text())})
RECIPE_PAGES = sorted(p for p in TROUBLE.glob("*.md") if troubleshooting.SYMPTOM_CALL.search(p.read_text()))


def test_there_are_at_least_twenty_five_recipes():
    """A recipe is a symptom a page reproduces (a row of the error index): 25 of the most reported problems."""
    english = [p for p in RECIPE_PAGES if not p.name.endswith(".zh.md")]
    assert len(english) >= 22, [p.stem for p in english]
    assert len(troubleshooting.recipes(ROOT / "docs")) >= 25, troubleshooting.recipes(ROOT / "docs")


@pytest.mark.parametrize("page", RECIPE_PAGES, ids=lambda p: p.stem)
def test_recipe_page_has_symptom_cause_fix_and_verification(page):
    text = page.read_text()
    headings = re.findall(r"^## (.+)$", text, re.M)
    expected = (["症状 {#symptom}", "原因 {#cause}", "修复 {#fix}", "如何验证 {#how-to-verify}"]  # the English anchors
                if page.name.endswith(".zh.md") else ["Symptom", "Cause", "Fix", "How to verify"])
    assert headings[:4] == expected, (page.name, headings)
    fixes = re.findall(r'snippet\("(troubleshooting/[^"]+)"\)', text)
    assert fixes, f"{page.name}: the Fix section shows no tested snippet"
    for rel in fixes:
        assert (ROOT / "snippets" / rel).is_file(), f"{page.name}: no snippets/{rel}"
    for rel in troubleshooting.SYMPTOM_CALL.findall(text):
        assert rel.startswith("troubleshooting/"), f"{page.name}: {rel} is not a troubleshooting snippet"


def test_every_symptom_snippet_is_on_a_recipe_page():
    shown = {rel for _, _, rel in troubleshooting.recipes(ROOT / "docs")}
    assert set(SYMPTOMS) <= shown, set(SYMPTOMS) - shown


@pytest.mark.slow
@pytest.mark.parametrize("rel", SYMPTOMS)
def test_symptom_snippet_still_produces_its_expected_error(rel, snippet_result):
    """The first printed line must match `# expects:`; a torch that stops raising it fails here."""
    head = snippets.headers((ROOT / "snippets" / rel).read_text())
    result = snippet_result(rel)  # the snippet tests' real run in this session
    if result.skipped and not snippets.requirements(result.code) - snippets.PACKAGES:
        pytest.skip(f"{rel}: {result.skipped}, a package this machine lacks (its message is that package's)")
    if result.skipped:
        literal = head.get("message-in-source")
        assert literal, f"{rel} cannot run here ({result.skipped}) and names no message-in-source"
        assert troubleshooting.message_in_source(literal), f"{rel}: {literal!r} is not in the installed torch's source"
        pytest.skip(f"{rel}: {result.skipped}; its message was found in torch's source")
    snippets.check(result)
    assert "expects" in head, f"{rel} has no '# expects:' header"
    first = result.stdout.strip().splitlines()[0]
    assert re.match(head["expects"], first), f"{rel} printed {first!r}, expected /{head['expects']}/"


def _recipe_snippet(tmp_path, monkeypatch, name: str, code: str, **env) -> None:
    """snippets/troubleshooting/<name> in a scratch snippet folder with its own cache (and `env`)."""
    (tmp_path / "troubleshooting").mkdir()
    (tmp_path / "troubleshooting" / name).write_text(code)
    for key, value in {"EVC_SNIPPETS": tmp_path, "EVC_CACHE": tmp_path / "cache", **env}.items():
        monkeypatch.setenv(key, str(value))


def test_a_symptom_that_changed_fails_the_page_naming_the_snippet(tmp_path, monkeypatch):
    _recipe_snippet(tmp_path, monkeypatch, "gone_symptom.py",
                    '"""Symptom that no longer happens."""\n# expects: ^RuntimeError: \nprint("all fine")\n')
    with pytest.raises(snippets.SnippetError, match=r"gone_symptom\.py no longer reproduces its symptom"):
        troubleshooting.symptom("troubleshooting/gone_symptom.py")


def test_a_gpu_symptom_shows_a_committed_capture_else_torch_source(tmp_path, monkeypatch):
    import json

    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: the snippet would really run")
    code = ('"""GPU-only symptom."""\n# requires: cuda\n# expects: ^RuntimeError: \n'
            '# message-in-source: Torch not compiled with CUDA enabled\nraise SystemExit(1)\n')
    _recipe_snippet(tmp_path, monkeypatch, "gpu_symptom.py", code, EVC_MEASUREMENTS=tmp_path / "measurements")
    shown = troubleshooting.symptom("troubleshooting/gpu_symptom.py")
    assert "Not reproduced here" in shown and "torch/" in shown and "not compiled with CUDA" in shown
    capture = tmp_path / "measurements" / "gpu-box" / "torch-2.11.0" / "captures" / "troubleshooting__gpu_symptom.json"
    capture.parent.mkdir(parents=True)
    capture.write_text(json.dumps({"snippet": "troubleshooting/gpu_symptom.py", "code": code,
                                   "stdout": "RuntimeError: the real text\n", "date": "2026-12-01",
                                   "machine": "gpu-box", "torch": "2.11.0", "duration_s": 1.0}))
    shown = troubleshooting.symptom("troubleshooting/gpu_symptom.py")
    assert "RuntimeError: the real text" in shown and "Captured on <code>gpu-box</code>" in shown
    assert "Not reproduced here" not in shown


def test_a_symptom_that_needs_a_gpu_is_captured_by_the_runner_when_it_runs(tmp_path, monkeypatch):
    """The capture path writes; the pages only read: a GPU-only symptom that runs is kept by snippets.run."""
    from eager_vs_compiled import captures

    _recipe_snippet(tmp_path, monkeypatch, "gpu_symptom.py",
                    '"""Needs a GPU."""\n# requires: cuda\n# expects: ^RuntimeError: \nprint("RuntimeError: real")\n',
                    EVC_MEASUREMENTS=tmp_path / "m")
    from eager_vs_compiled import machine

    real = machine.describe()
    monkeypatch.setattr(machine, "describe", lambda: {**real, "gpus": [{"name": "Test GPU"}]})  # as on a GPU box
    result = snippets.run("troubleshooting/gpu_symptom.py")
    assert not result.skipped and result.returncode == 0
    found = captures.find("troubleshooting/gpu_symptom.py", tmp_path / "m")
    assert found is not None and found["stdout"] == "RuntimeError: real\n"
