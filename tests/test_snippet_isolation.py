"""The forked snippet runs (eager_vs_compiled/forks.py) cannot hide what a fresh interpreter would show.

A snippet forked from the server starts after torch, torchvision, Dynamo and Inductor were imported
there. Two ways a snippet could pass forked and fail as a reader runs it (`python snippet.py`):
- it reads a global name it never binds (`torch` without `import torch`): runpy gives the forked
  run fresh globals today, but that is one line of forks.py; checked here, with the standard
  library's `symtable`, that every global name a snippet reads is a builtin, a name the interpreter
  gives a script, or bound by the snippet itself (import, assignment, def, class, loop, with,
  except, global statement), so no way of running it can lend it one;
- it sets an environment variable that torch reads when a module is imported (TORCHINDUCTOR_*,
  TORCH_LOGS ...): forked, those modules were imported before the snippet's first line. Checked here
  that every snippet that writes the environment, anywhere in its text, is run fresh
  (`forks.needs_fresh`, the decision snippet_pool.py takes).
Both checks also fail on planted bad snippets, below.
"""
import ast
import builtins
import symtable
from pathlib import Path

import pytest

from helpers import ROOT
from eager_vs_compiled.forks import needs_fresh

SNIPPETS = sorted(p.relative_to(ROOT / "snippets").as_posix() for p in (ROOT / "snippets").rglob("*.py"))
# What `python snippet.py` (and runpy.run_path, the forked run) puts in a script's globals.
SCRIPT_GLOBALS = {"__name__", "__file__", "__doc__", "__builtins__", "__spec__", "__loader__", "__package__",
                  "__cached__", "__annotations__"}


def _tables(table: symtable.SymbolTable):
    yield table
    for child in table.get_children():
        yield from _tables(child)


def unbound_globals(code: str, filename: str = "snippet.py") -> list[str]:
    """Global names the code reads but neither binds nor gets from builtins or the interpreter."""
    top = symtable.symtable(code, filename, "exec")
    if any(isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names) for node in ast.walk(ast.parse(code))):
        return ["*"]  # a star import binds names no one can check
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()}
    read = {s.get_name() for s in top.get_symbols() if s.is_referenced()}
    for table in _tables(top):
        if table is top:
            continue
        for s in table.get_symbols():
            if s.is_declared_global() and (s.is_assigned() or s.is_imported()):
                bound.add(s.get_name())  # `global x` then `x = ...` in a function binds a module name
            if s.is_global() and s.is_referenced():
                read.add(s.get_name())
    return sorted(read - bound - set(dir(builtins)) - SCRIPT_GLOBALS)


def _is_environ(node: ast.AST, os_names: set[str], environ_names: set[str]) -> bool:
    """`os.environ` (any alias of os), or a name bound by `from os import environ`."""
    if isinstance(node, ast.Name):
        return node.id in environ_names
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name) \
        and node.value.id in os_names


def writes_environment(code: str) -> list[int]:
    """Lines where the code changes its environment variables (os.environ[...] = / del / .update /
    .setdefault / .pop / .clear, os.putenv, os.unsetenv), however os or environ was imported."""
    tree = ast.parse(code)
    os_names, environ_names = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            os_names |= {a.asname or a.name for a in node.names if a.name == "os"}
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            environ_names |= {a.asname or a.name for a in node.names if a.name == "environ"}
            environ_names |= {a.asname or a.name for a in node.names if a.name in ("putenv", "unsetenv")}
    lines = []
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, (ast.Assign, ast.Delete)) else
                   [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        if any(isinstance(t, ast.Subscript) and _is_environ(t.value, os_names, environ_names) for t in targets):
            lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("update", "setdefault", "pop", "popitem", "clear",
                                                             "__setitem__", "__delitem__") \
                    and _is_environ(f.value, os_names, environ_names):
                lines.append(node.lineno)
            elif isinstance(f, ast.Attribute) and f.attr in ("putenv", "unsetenv") and isinstance(f.value, ast.Name) \
                    and f.value.id in os_names:
                lines.append(node.lineno)
            elif isinstance(f, ast.Name) and f.id in environ_names and f.id != "environ":
                lines.append(node.lineno)  # from os import putenv
    return sorted(lines)


@pytest.mark.parametrize("rel", SNIPPETS)
def test_every_global_a_snippet_reads_is_bound_by_the_snippet_or_a_builtin(rel):
    code = (ROOT / "snippets" / rel).read_text(encoding="utf-8")
    assert unbound_globals(code, rel) == [], f"{rel} reads names it never binds: forked, they might exist"


@pytest.mark.parametrize("rel", SNIPPETS)
def test_every_snippet_that_sets_environment_variables_runs_fresh(rel):
    code = (ROOT / "snippets" / rel).read_text(encoding="utf-8")
    if writes_environment(code):
        assert needs_fresh(code), f"{rel} changes os.environ (lines {writes_environment(code)}) but would be forked"


def test_the_environment_check_sees_the_snippets_that_set_variables():
    # Not vacuous: the cache and trace snippets set TORCHINDUCTOR_CACHE_DIR, TORCH_TRACE ... before
    # importing torch (a snippet about caches means nothing on a cache the server already opened).
    writers = [rel for rel in SNIPPETS if writes_environment((ROOT / "snippets" / rel).read_text(encoding="utf-8"))]
    assert {"how-to/cache_mega_contents.py", "troubleshooting/slow_first_call_symptom.py"} <= set(writers), writers
    assert len(writers) >= 8, writers


PLANTED = {
    "torch_from_the_server.py": ('"""Leans on the server."""\nx = torch.ones(2)\nassert x.sum() == 2\n', ["torch"]),
    "in_a_function.py": ('"""Late."""\nimport torch\n\ndef f():\n    return F.relu(torch.ones(1))\n\n'
                         'assert f().item() == 1\n', ["F"]),
    "star.py": ('"""Star."""\nfrom torch import *\nassert ones(1).item() == 1\n', ["*"]),
    "good.py": ('"""Binds all it reads."""\nimport os as system\nimport torch\nfrom torch import nn\n'
                'n = 0\nfor i in range(2):\n    n += i\nwith open(__file__) as fh:\n    text = fh.read()\n'
                'try:\n    raise ValueError\nexcept ValueError as err:\n    caught = err\n'
                'class M(nn.Module):\n    pass\n\ndef bump():\n    global made\n    made = [k * 2 for k in range(3)]\n\n'
                'bump()\nassert made and M() and caught and n == 1 and text and system.sep and torch\n', []),
}


@pytest.mark.parametrize("name", PLANTED)
def test_the_global_names_check_fails_on_a_planted_snippet(tmp_path, name):
    code, expected = PLANTED[name]
    (tmp_path / name).write_text(code)
    assert unbound_globals((tmp_path / name).read_text(), name) == expected


ENV_PLANTED = [
    'import os\nos.environ["TORCHINDUCTOR_CACHE_DIR"] = "/tmp/x"\nimport torch\n',
    'from os import environ\nenviron["TORCH_LOGS"] = "+dynamo"\nimport torch\n',
    'import os as o\no.environ.update(TORCH_COMPILE_DEBUG="1")\nimport torch\n',
    'from os import putenv\nputenv("TORCH_LOGS", "graph_breaks")\nimport torch\n',
    'import os\nos.unsetenv("TORCHINDUCTOR_FX_GRAPH_CACHE")\nimport torch\n',
]


@pytest.mark.parametrize("code", ENV_PLANTED)
def test_a_planted_snippet_setting_the_environment_is_seen_and_run_fresh(tmp_path, code):
    path = tmp_path / "sets_env.py"
    path.write_text(code)
    assert writes_environment(path.read_text()) == [2]
    assert needs_fresh(path.read_text())


def test_reading_the_environment_is_not_a_write():
    assert writes_environment('import os\nprint(os.environ.get("HOME"), os.environ["PATH"])\n') == []
