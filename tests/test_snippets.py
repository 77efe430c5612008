"""Every snippet runs through the same runner the pages use, in a process of its own (forked from one
that has imported torch, or fresh where the snippet needs it: eager_vs_compiled/forks.py)."""
import re

import pytest

from eager_vs_compiled import snippets
from helpers import ROOT

SNIPPETS = sorted(p.relative_to(ROOT / "snippets").as_posix() for p in (ROOT / "snippets").rglob("*.py"))


@pytest.mark.slow
@pytest.mark.parametrize("rel", SNIPPETS)
def test_snippet_runs_and_passes_its_asserts(rel, snippet_result):
    result = snippet_result(rel)  # really run (never the cache); a success refreshes the tests' page cache
    if result.skipped:
        pytest.skip(f"{rel}: {result.skipped} (shown on its page as not run on this machine)")
    snippets.check(result)
    assert result.stdout.strip(), f"{rel} printed nothing for its page to show"
    # A build runs the snippets that time nothing side by side: one that prints a duration must be seen
    # as timed by the runner, or its page would show a number another process slowed down.
    shown = DURATION.findall(result.stdout)
    assert not shown or snippets.timed(result.code), f"{rel} prints durations {shown[:3]} but runs side by side"


# A printed duration: a number and a unit of time ("12.3 ms", "1.5 s", "40 µs", "0.8s"), not a version or a count.
DURATION = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|seconds)\b")


@pytest.mark.parametrize("line, found", [("first compiled call: 12.3 s", True), ("eager 0.48 ms/call", True),
                                         ("40 µs per call", True), ("took 2s", True), ("torch 2.15.0", False),
                                         ("graphs: 1, graph breaks: 0", False), ("sm_80 has 108 SMs", False)])
def test_a_printed_duration_is_recognised(line, found):
    assert bool(DURATION.search(line)) is found


@pytest.mark.parametrize("code, timed", [("t0 = time.perf_counter()", True), ("benchmark.Timer(stmt='f()')", True),
                                         ("from torch.utils import benchmark", True), ("print(time.time() - t)", True),
                                         ('"""x"""\n# runs: alone\n', True), ("torch.compile(f)(x)", False),
                                         ("import time  # for sleep", False), ("# as PyTorch's benchmark suite does", False)])
def test_the_runner_sees_which_snippets_time_something(code, timed):
    assert snippets.timed(code) is timed


def test_a_build_runs_untimed_snippets_side_by_side_and_timed_ones_alone(tmp_path, monkeypatch):
    """prefetch: the untimed ones overlap in time, each timed one runs while nothing else runs, the page
    says which ran beside others, and a failure is kept for its page (not run a second time)."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(f'"""Untimed."""\nimport time\nprint("{name}", time.time_ns())\n'
                                             f'time.sleep(1)\nprint(time.time_ns())\n')
    (tmp_path / "t.py").write_text('"""Timed."""\nimport time\nt0 = time.perf_counter()\nprint(time.time_ns())\n'
                                   'time.sleep(0.5)\nprint(time.time_ns(), time.perf_counter() - t0)\n')
    (tmp_path / "bad.py").write_text('"""Fails."""\nprint("x")\nraise SystemExit(4)\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    monkeypatch.setenv("EVC_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    assert snippets.prefetch(["a.py", "b.py", "t.py", "bad.py"], jobs=2) == {"beside": 3, "alone": 1}
    spans = {}
    for name in ("a", "b", "t"):
        result = snippets.run(f"{name}.py")  # the first page to show a run made just before says it ran ...
        assert not result.cached and result.beside is (name != "t"), (name, result)
        assert snippets.run(f"{name}.py").cached  # ... the next one shows it as the cached run it is
        numbers = [int(w) for w in result.stdout.split() if w.isdigit()]
        spans[name] = (numbers[0], numbers[-1])
    assert spans["a"][0] < spans["b"][1] and spans["b"][0] < spans["a"][1], spans  # overlapped
    assert all(spans["t"][0] > end or spans["t"][1] < start for start, end in (spans["a"], spans["b"])), spans
    bad = snippets.run("bad.py")
    assert bad.returncode == 4 and bad.beside and not bad.cached
    (tmp_path / "bad.py").write_text('"""Fixed."""\nprint("y")\n')  # changed: runs again, not the kept failure
    assert snippets.run("bad.py").stdout == "y\n"


def test_a_timed_snippet_starts_with_torch_imported_and_nothing_of_the_compiler(tmp_path, monkeypatch):
    """A build forks the timed snippets from a server that imported torch alone: the compiler's modules
    load inside the snippet, as in a fresh interpreter, so a timed first call pays for them as a
    reader's does; a timed snippet that starts processes still gets a fresh interpreter."""
    import os

    probe = ('"""Timed."""\nimport os, sys, time\nt0 = time.perf_counter()\n'
             'print(os.getpid(), *(m in sys.modules for m in ("torch", "torch._inductor.compile_fx")))\n')
    (tmp_path / "t.py").write_text(probe)
    (tmp_path / "f.py").write_text(probe + "import subprocess\n")
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    monkeypatch.setenv("EVC_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    assert snippets.prefetch(["t.py", "f.py"], jobs=2) == {"beside": 0, "alone": 2}
    forked, fresh = (snippets.run(rel).stdout.split() for rel in ("t.py", "f.py"))
    assert forked[1:] == ["True", "False"] and fresh[1:] == ["False", "False"]
    assert int(forked[0]) != os.getpid() and not snippets.run("t.py").beside


@pytest.mark.parametrize("rel", SNIPPETS)
def test_snippet_follows_the_house_shape(rel):
    text = (ROOT / "snippets" / rel).read_text()
    body = "\n".join(line for line in text.splitlines() if not line.startswith("# requires:"))
    assert body.lstrip().startswith('"""'), f"{rel}: starts with a one-line docstring"
    assert len(text.splitlines()) <= 80, f"{rel}: one idea, at most 80 lines"
    assert "assert" in text, f"{rel}: ends with asserts on behaviour"
    imported = set(re.findall(r"^(?:from|import) (\w+)", text, re.M))
    assert imported <= {"torch", "torchvision", "time", "math", "os", "platform", "tempfile",
                        "contextlib", "io", "logging", "sys", "re", "warnings", "functools",
                        "traceback", "subprocess", "shutil", "pathlib", "gc", "statistics",
                        "textwrap", "importlib", "json", "copy", "random", "sysconfig", "datetime",
                        "threading", "triton", "onnxruntime", "openvino"}, imported
    # triton (the recipes about Triton itself) and the engines (the `engines` extra) are not always
    # installed: a snippet importing one declares it, so it is skipped visibly where it is missing
    for package in imported & snippets.PACKAGES:
        assert package in snippets.requirements(text), f"{rel} imports {package}: declare `# requires: {package}`"


def test_a_raising_snippet_is_an_error_naming_it(tmp_path, monkeypatch):
    (tmp_path / "boom.py").write_text('"""Raises."""\nraise ValueError("kaboom")\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    monkeypatch.setenv("EVC_CACHE", str(tmp_path / "cache"))
    result = snippets.run("boom.py")
    assert result.returncode == 1
    with pytest.raises(snippets.SnippetError, match=r"boom\.py exited with code 1:(.|\n)*kaboom"):
        snippets.check(result)
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.json"))


def test_a_hanging_snippet_times_out(tmp_path, monkeypatch):
    (tmp_path / "hang.py").write_text('"""Hangs."""\nimport time\ntime.sleep(60)\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    result = snippets.run("hang.py", timeout=2)
    assert result.returncode is None
    with pytest.raises(snippets.SnippetError, match="hang.py timed out"):
        snippets.check(result)


def test_an_unchanged_snippet_is_not_run_twice(tmp_path, monkeypatch):
    (tmp_path / "hello.py").write_text('"""Hello."""\nprint("hi")\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    monkeypatch.setenv("EVC_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    first, second = snippets.run("hello.py"), snippets.run("hello.py")
    assert not first.cached and second.cached and second.stdout == "hi\n"
    (tmp_path / "hello.py").write_text('"""Hello."""\nprint("hello")\n')
    assert snippets.run("hello.py").stdout == "hello\n"


def test_a_build_reads_a_cached_snippet_once_however_many_pages_show_it(tmp_path, monkeypatch, caplog):
    """Both editions of a page, and the error index beside a recipe, show one run, looked up once."""
    (tmp_path / "once.py").write_text('"""Once."""\nprint("once")\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    monkeypatch.setenv("EVC_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    with caplog.at_level("INFO", logger="eager_vs_compiled"):
        shown = [snippets.run("once.py") for _ in range(3)]
    assert [r.stdout for r in shown] == ["once\n"] * 3
    assert sum("once.py: running" in m or "once.py: cached" in m for m in caplog.messages) == 1, caplog.messages


def test_a_missing_snippet_is_an_error_naming_it():
    with pytest.raises(FileNotFoundError, match="no_such_snippet.py"):
        snippets.run("no_such_snippet.py")


def test_gpu_snippet_is_skipped_visibly_on_a_cpu_machine(tmp_path, monkeypatch):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    (tmp_path / "gpu.py").write_text('# requires: cuda\n"""Needs a GPU."""\nraise SystemExit(3)\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    result = snippets.run("gpu.py")
    assert result.skipped == "requires cuda" and result.ok
    # the page's marker names it as a reader would: never by the builder's checkout path
    assert result.path == f"{tmp_path.name}/gpu.py", result.path


def test_remeasure_reruns_a_snippet_once_per_process(tmp_path, monkeypatch):
    (tmp_path / "hello.py").write_text('"""Hello."""\nprint("hi")\n')
    monkeypatch.setenv("EVC_SNIPPETS", str(tmp_path))
    monkeypatch.setenv("EVC_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EVC_REMEASURE", raising=False)
    snippets.run("hello.py")  # an older run, cached
    monkeypatch.setattr(snippets, "_RAN_HERE", set())  # as if a new build process started
    monkeypatch.setenv("EVC_REMEASURE", "1")
    first, second = snippets.run("hello.py"), snippets.run("hello.py")
    assert not first.cached and second.cached
