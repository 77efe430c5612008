"""The accuracy minifier: TORCHDYNAMO_REPRO_* dumps a failing graph, its launcher shrinks it."""
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

PROGRAM = textwrap.dedent("""\
    import torch
    # A stand-in for a compiler bug: a test-only switch that makes Inductor's relu compute x + 1.
    torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = "accuracy"
    torch._inductor.config.triton.inject_relu_bug_TESTING_ONLY = "accuracy"
    device = "cuda" if torch.cuda.is_available() else "cpu"

    def model(x):
        h = torch.tanh(x) * 2
        h = torch.relu(h - 0.5)
        return torch.sigmoid(h).sum(dim=-1)

    torch.manual_seed(0)
    print(torch.compile(model)(torch.randn(8, 16, device=device)))
""")


def run(args, cwd, **env):
    """Run a Python script in `cwd`; return its last line of stderr and the time it took."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **env}, check=False)  # step 1 is meant to fail
    return done.returncode, done.stderr.strip().splitlines()[-1], time.perf_counter() - t0


def listing(root):
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*.py") if p.name != "program.py")


with tempfile.TemporaryDirectory() as tmp:
    Path(tmp, "program.py").write_text(PROGRAM)
    # Step 1: run the program as usual, with the minifier's two environment variables.
    failed, error, took = run(["program.py"], tmp, TORCHDYNAMO_REPRO_AFTER="aot",
                              TORCHDYNAMO_REPRO_LEVEL="4")  # 4: compare each graph with eager
    print(f"1. program.py with TORCHDYNAMO_REPRO_AFTER=aot, LEVEL=4: exit {failed} in {took:.1f} s")
    print("   last line of stderr:", error)
    dumped = listing(tmp)
    print("   Python files it wrote:", *dumped, sep="\n     ")
    launcher = next(Path(tmp).rglob("minifier_launcher.py"))
    full = Path(tmp, "repro.py").read_text()  # a copy of the whole failing graph

    # Step 2: the launcher shrinks the graph; --no-isolate compiles in one process (faster).
    os.mkdir(work := os.path.join(tmp, "minify"))
    code, last, took = run([str(launcher), "minify", "--no-isolate"], work)
    print(f"2. minifier_launcher.py minify --no-isolate: exit {code} in {took:.1f} s")
    minimal = Path(work, "repro.py").read_text()
    forward = minimal[minimal.index("    def forward"):minimal.index("def load_args")]
    print("   forward() of the minimized repro.py:")
    print(textwrap.indent(textwrap.dedent(forward).strip(), "     "))

    ops = lambda text: text.count("torch.ops.aten.")
    print(f"   aten ops in the graph: {ops(full)} dumped, {ops(minimal)} after minifying")
    assert failed and error.startswith("torch._dynamo.debug_utils.AccuracyError")
    assert code == 0 and ops(full) > 1 and "minifier_launcher.py" in str(dumped)
    assert ops(minimal) == 1 and "aten.relu" in forward  # the injected bug, isolated
