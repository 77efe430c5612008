"""The shape of the code: small modules, short functions, no import loops, no copied blocks."""
import ast
from collections import defaultdict
from pathlib import Path

from helpers import ROOT

SRC = ROOT / "src" / "eager_vs_compiled"
MAX_MODULE_LINES, MAX_FUNCTION_LINES, COPY_LINES = 300, 60, 6


def modules() -> dict[str, Path]:
    """'pages.releases' -> its file, for every module of the package."""
    return {".".join(p.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__"): p
            for p in sorted(SRC.rglob("*.py"))}


def test_no_module_is_longer_than_the_house_allows():
    long = {name: n for name, p in modules().items() if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_function_is_longer_than_the_house_allows():
    long = [f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines"
            for name, p in modules().items() for node in ast.walk(ast.parse(p.read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, long


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that `name` imports (relative imports), also those inside functions: an
    import moved into a function to dodge a loop is still a loop."""
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ImportFrom) or not node.level:
            continue
        base = package[: len(package) - node.level + 1]
        stem = base + (node.module.split(".") if node.module else [])
        for alias in node.names:
            for candidate in (".".join(stem + [alias.name]), ".".join(stem)):
                if candidate.strip(".") in known:
                    out.add(candidate.strip("."))
                    break
    return out - {name}


def test_the_package_imports_have_no_loops():
    mods = modules()
    graph = {name: _imports(name, p, set(mods) - {""}) for name, p in mods.items() if name}
    state: dict[str, int] = {}
    loops = []

    def visit(node, trail):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                loops.append(" -> ".join(trail[trail.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not loops, loops


def test_no_block_of_code_is_copied_in_src_or_tests():
    """The same run of six non-blank lines (after stripping indentation) in two places is a copy."""
    seen: dict[tuple, list[str]] = defaultdict(list)
    for path in sorted([*SRC.rglob("*.py"), *(ROOT / "tests").glob("*.py")]):
        lines = [(i, line.strip()) for i, line in enumerate(path.read_text().splitlines(), 1)
                 if line.strip() and not line.strip().startswith(("#", "from ", "import "))]
        for k in range(len(lines) - COPY_LINES + 1):
            window = tuple(text for _, text in lines[k:k + COPY_LINES])
            if sum(len(t) for t in window) > 120:  # six closing brackets are not a copy
                seen[window].append(f"{path.relative_to(ROOT)}:{lines[k][0]}")
    copies = [places for places in seen.values() if len(places) > 1]
    assert not copies, copies[:5]


def test_the_hook_and_the_page_layer_never_touch_the_environment():
    """Paths come from eager_vs_compiled.paths (anchored by the build), not from variables the hook
    writes and the pages read: neither `os.environ`, `os.getenv`, `os.putenv` nor `environ` imported."""
    files = [ROOT / "hooks" / "evc.py", *sorted((SRC / "pages").glob("*.py"))]
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "putenv", "unsetenv"):
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
            elif isinstance(node, ast.ImportFrom) and node.module == "os" and \
                    {a.name for a in node.names} & {"environ", "getenv", "putenv", "unsetenv"}:
                found.append(f"{path.name}:{node.lineno} from os import ...")
    assert not found, found


MEASURING = {"measure", "child", "isolate", "cli", "calibrate", "throughput", "footprint", "prepare", "profile",
             "modelcmd"}


def test_the_page_layer_imports_neither_torch_nor_the_measuring_code():
    """Measure, then publish: a page function reads records and never measures, so no module under
    pages/ imports torch or a module that measures, runs a child process or the CLI; imports inside
    functions count, and so does a directive that names such a module."""
    from eager_vs_compiled import pages

    found = []
    for path in sorted((SRC / "pages").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found += [f"{path.name}:{node.lineno} import {a.name}" for a in node.names
                          if a.name.split(".")[0] in ("torch", "torchvision")
                          or a.name.startswith("eager_vs_compiled.") and a.name.split(".")[1] in MEASURING]
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                names = {a.name for a in node.names}
                if module.split(".")[0] in ("torch", "torchvision") and not node.level:
                    found.append(f"{path.name}:{node.lineno} from {module}")
                elif node.level and ({module.split(".")[0]} | (names if not module else set())) & MEASURING:
                    found.append(f"{path.name}:{node.lineno} from {'.' * node.level}{module} import {', '.join(sorted(names))}")
    found += [f"DIRECTIVES[{name!r}] = {target!r}" for name, target in pages.DIRECTIVES.items()
              if not target.startswith("pages.")]
    assert not found, found
