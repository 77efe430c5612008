"""Bisect a wrong compiled result with torch.compiler.set_stance: all eager, then one stage at a time."""
import torch

# A stand-in for a compiler bug: a test-only switch that makes Inductor's relu compute x + 1.
torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = "accuracy"  # CPU code generator
torch._inductor.config.triton.inject_relu_bug_TESTING_ONLY = "accuracy"  # GPU code generator

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
W_IN, W_OUT = torch.randn(32, 64, device=device), torch.randn(64, 10, device=device)


@torch.compile
def embed(x):
    return torch.tanh(x @ W_IN)


@torch.compile
def mlp(h):
    return torch.relu(h - 0.1) * 2


@torch.compile
def head(h):
    return torch.log_softmax(h @ W_OUT, dim=-1)


STAGES = {"embed": embed, "mlp": mlp, "head": head}


def program(x, compiled=tuple(STAGES)):
    """Run the stages in order; a stage not named in `compiled` ignores its torch.compile."""
    for name, stage in STAGES.items():
        with torch.compiler.set_stance("default" if name in compiled else "force_eager"):
            x = stage(x)
    return x


def max_diff(a, b):
    return (a - b).abs().max().item()


def eager(fn, *args):
    with torch.compiler.set_stance("force_eager"):
        return fn(*args)


x = torch.randn(16, 32, device=device)
reference = program(x, compiled=())  # the same code with every torch.compile ignored
whole = max_diff(program(x), reference)
print(f"all stages compiled    vs all eager: max |diff| = {whole:.3f}")
alone = {name: max_diff(program(x, compiled=(name,)), reference) for name in STAGES}
for name, diff in alone.items():
    print(f"only {name!r:8} compiled vs all eager: max |diff| = {diff:.3f}")

# The culprit is mlp. Keep its compiled graph but stop it compiling new ones:
seen, new = embed(x), torch.randn(4, 64, device=device)  # a shape mlp has seen, and one it has not
with torch.compiler.set_stance("fail_on_recompile"):
    try:
        mlp(new)
        refused = ""
    except RuntimeError as e:
        refused = str(e).split(". filename")[0]
print("fail_on_recompile,  new shape :", refused)
with torch.compiler.set_stance("eager_on_recompile"):  # cached graphs run, new shapes run eagerly
    diffs = max_diff(mlp(seen), eager(mlp, seen)), max_diff(mlp(new), eager(mlp, new))
print(f"eager_on_recompile, seen shape: max |diff| = {diffs[0]:.3f} (the cached graph)")
print(f"eager_on_recompile, new shape : max |diff| = {diffs[1]:.3f} (ran eagerly)")

culprits = [name for name, diff in alone.items() if diff > 1e-3]
assert whole > 1e-3 and culprits == ["mlp"], alone
assert refused.startswith("Detected recompile") and diffs[0] > 1e-3 and diffs[1] == 0.0
