"""The measurement core runs where only torch and torchvision are installed."""
import ast
import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "eager_vs_compiled"
CORE = ["workloads", "measure", "records", "machine", "stats", "cli", "__main__", "__init__"]


def _top_level_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_only_stdlib_and_torch(module):
    allowed = set(sys.stdlib_module_names) | {"torch", "torchvision", "__future__"}
    extra = _top_level_imports(PKG / f"{module}.py") - allowed
    assert not extra, f"{module}.py imports {extra}"


def _torch_closure() -> set[str]:
    """Distributions a bare `pip install torch torchvision` brings (requirements, recursively)."""
    todo, seen = ["torch", "torchvision"], set()
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        try:
            reqs = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for req in reqs:
            if "extra ==" in req:
                continue
            todo.append(req.split(";")[0].split("[")[0].strip().split(" ")[0].rstrip("<>=!~,0123456789."))
    return seen


@pytest.mark.slow
def test_cli_measures_with_every_other_package_blocked(tmp_path):
    """Simulate a bare GPU image: block every installed module outside torch's own closure."""
    allowed_dists = _torch_closure()
    blocked = sorted({mod for mod, dists in metadata.packages_distributions().items()
                      if not any(d.lower().replace("_", "-") in allowed_dists for d in dists)
                      and mod not in sys.stdlib_module_names and not mod.startswith("_")})
    assert {"matplotlib", "mkdocs", "markdown_exec", "pytest"} <= set(blocked)
    (tmp_path / "sitecustomize.py").write_text(textwrap.dedent(f"""
        import sys
        BLOCKED = set({json.dumps(blocked)})
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in BLOCKED:
                    raise ImportError(f"{{name}} is not installed on a bare torch image")
        sys.meta_path.insert(0, Block())
    """))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "src")])}
    out = subprocess.run([sys.executable, "-m", "eager_vs_compiled", "measure", "--workload",
                          "pointwise_chain", "--out", str(tmp_path / "m")],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "1/3" in out.stderr and "3/3" in out.stderr  # progress: eager, cold, warm
    from eager_vs_compiled import records

    [rec] = records.records_for("pointwise_chain", tmp_path / "m")
    assert [r.status for r in rec.results] == ["ok", "ok"]
    compiled = rec.result("default")
    assert compiled.max_rel_err <= 1e-4 and compiled.compile_cold_s > 0 and compiled.compile_warm_s is not None
    assert compiled.n >= 7 and len(compiled.eager_samples_s) == compiled.n
