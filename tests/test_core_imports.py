"""The measurement core runs where only torch and torchvision are installed."""
import ast
import json
import re
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest
from helpers import ROOT

from eager_vs_compiled import engines

PKG = ROOT / "src" / "eager_vs_compiled"
# Everything outside pages/ runs on a bare GPU image (the harness, its child processes, the peaks,
# the store, the snippet runner and the CLI); only the pages need the docs stack.
CORE = sorted(p.stem for p in PKG.glob("*.py"))


def _optional(tree: ast.AST) -> set[int]:
    """Nodes inside `try: ... except ImportError`: an optional import (data.frame's pandas), which a
    bare image simply lacks; the module runs without it."""
    return {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try)
            and any(isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError") for h in t.handlers)
            for stmt in t.body for n in ast.walk(stmt)}


def _top_level_imports(path: Path) -> set[str]:
    names = set()
    tree = ast.parse(path.read_text())
    optional = _optional(tree)
    for node in ast.walk(tree):
        if id(node) in optional:
            continue
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_only_stdlib_and_torch(module):
    allowed = set(sys.stdlib_module_names) | {"torch", "torchvision", "__future__"}
    if module in ("engines", "footprint"):  # each engine's package (and numpy, the engines' arrays), imported
        allowed |= {m for needs in engines.NEEDS.values() for m in needs} | {"numpy"}  # where it is used
    extra = _top_level_imports(PKG / f"{module}.py") - allowed
    assert not extra, f"{module}.py imports {extra}"


def test_the_engines_module_imports_no_engine_at_import_time():
    # The harness imports engines.py everywhere (recipes parse engine modes): a bare image lacks them.
    tree = ast.parse((PKG / "engines.py").read_text())
    at_top = {a.name.split(".")[0] for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
              for a in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])}
    assert not at_top & {m for needs in engines.NEEDS.values() for m in needs}, at_top


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
            todo.append(re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req).group(1))
    return seen


def _blocked_roots(allowed_dists: set[str]) -> set[str]:
    """Top-level entries of site-packages that only packages outside torch's closure own."""
    owned: dict[str, set[bool]] = {}
    for dist in metadata.distributions():
        allowed = dist.metadata["Name"].lower().replace("_", "-") in allowed_dists
        for f in dist.files or []:
            top = f.parts[0]
            if top not in ("..", "bin") and not top.endswith((".dist-info", ".egg-info", ".pth")):
                owned.setdefault(top.removesuffix(".py"), set()).add(allowed)
    return {top for top, flags in owned.items() if flags == {False}}


@pytest.mark.slow
@pytest.mark.beside_build
def test_the_gpu_plan_runs_with_every_other_package_blocked(tmp_path):
    """Simulate a bare GPU image: hide every installed package outside torch's own closure, and run
    there what a GPU runner runs, the GPU plan (rehearsed on the CPU: gpu sizes), end to end to its
    record. Of its modes, reduce-overhead (CUDA graphs on a GPU): the one with a path of its own;
    `default` runs the same child code as the cpu profile's tests, and would add a cold compile."""
    blocked = sorted(_blocked_roots(_torch_closure()))
    assert {"matplotlib", "mkdocs", "markdown_exec", "pytest"} <= set(blocked)
    site_dirs = sorted({str(Path(p).resolve()) for p in sys.path if p.endswith("site-packages")})
    (tmp_path / "sitecustomize.py").write_text(textwrap.dedent(f"""
        import sys
        from importlib.machinery import ModuleSpec, PathFinder
        from pathlib import Path
        BLOCKED = set({json.dumps(blocked)})
        SITES = [Path(p) for p in {json.dumps(site_dirs)}]
        class Block:
            # Decide by where a module would load from, so setuptools' vendored copies still load.
            def find_spec(self, name, path=None, target=None):
                spec = PathFinder.find_spec(name, path)
                origin = spec and (spec.origin or (list(spec.submodule_search_locations or []) or [None])[0])
                for site in SITES:
                    if origin and Path(origin).is_relative_to(site):
                        if Path(origin).relative_to(site).parts[0].removesuffix(".py") in BLOCKED:
                            # Look again outside site-packages, e.g. setuptools/_vendor on sys.path.
                            rest = [p for p in (path or sys.path) if Path(p or ".").resolve() not in SITES]
                            found = PathFinder.find_spec(name, rest)
                            return found or ModuleSpec(name, Hidden(), origin=None)
                return None
        class Hidden:
            # Importing a hidden module fails as on a bare image. A probe (importlib.util.find_spec)
            # gets a spec without origin: torch's trace_rules probes third-party names (onnx, ...) at
            # import and skips one without origin, as it skips one that is not installed; a finder
            # that raised would instead break torch.compile there, which a bare image never sees.
            def create_module(self, spec):
                raise ModuleNotFoundError(f"No module named {{spec.name!r}} (hidden: not on a bare torch image)",
                                          name=spec.name)
            def exec_module(self, module):
                pass
        sys.meta_path.insert(0, Block())
    """))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "src")])}
    out = subprocess.run([sys.executable, "-m", "eager_vs_compiled", "measure", "--profile", "gpu",
                          "--device", "cpu", "--workload", "tiny_op", "--mode", "reduce-overhead",
                          "--out", str(tmp_path / "m")],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    # progress, process by process: the mode (eager timed beside it), three rounds (cold, warm, from the cache)
    assert "1/3" in out.stderr and "3/3" in out.stderr and "round 3 · reduce-overhead" in out.stderr
    from eager_vs_compiled import stats, store

    [rec] = store.records_for("tiny_op", tmp_path / "m")
    assert rec.profile == "gpu" and rec.device == "cpu"
    assert [(r.mode, r.status) for r in rec.results] == [("eager", "ok"), ("reduce-overhead", "ok")]
    compiled = rec.result("reduce-overhead")
    assert compiled.max_rel_err <= 1e-6 and compiled.compile_cold_s > 0 and compiled.compile_warm_s is not None
    assert compiled.n >= 7 and len(compiled.eager_samples_s) == compiled.n  # eager timed beside it, sample by sample
    eager, mine = compiled.paired_processes()
    assert len(mine) >= 3 and compiled.speedup == stats.paired_point(eager, mine)


def test_the_requirement_names_keep_their_digits():
    assert re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", "nvidia-cuda-runtime-cu12==12.8.90; platform_system == 'Linux'").group(1) \
        == "nvidia-cuda-runtime-cu12"
    assert {"isolate", "child", "peaks", "store", "timing", "models"} <= set(CORE)
