"""retain_graph=True under compile: donated buffers, the switch that allows it, and a cached backward."""
import os
import shutil
import tempfile

os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache = tempfile.mkdtemp()  # an empty compile cache, for this run only
import torch  # noqa: E402
import torch._functorch.config as functorch_config  # noqa: E402
import torch._inductor.config as inductor_config  # noqa: E402
from torch import nn  # noqa: E402

x = torch.randn(4, 8, generator=torch.Generator().manual_seed(1))


def make():
    torch.manual_seed(0)  # the same weights in every run
    return nn.Sequential(nn.Linear(8, 8), nn.Tanh())


def loss_of(model, x):  # the loss inside the compiled region: its backward keeps an intermediate
    return model(x).square().sum()


def second_of_two_backwards(model, fn):
    """Backward twice through one graph (retain_graph=True first); the second call's weight gradient."""
    loss = fn(model, x)
    loss.backward(retain_graph=True)
    first = model[0].weight.grad.clone()
    loss.backward()
    return model[0].weight.grad - first


eager = make()
expected = second_of_two_backwards(eager, loss_of)


def run(donated_buffer, fx_graph_cache=True):
    """Compile, run one plain training step (which compiles the backward), then retain the graph."""
    torch._dynamo.reset()
    model = make()
    with functorch_config.patch(donated_buffer=donated_buffer), \
            inductor_config.patch(fx_graph_cache=fx_graph_cache):
        compiled = torch.compile(loss_of)
        compiled(model, x).backward()
        model.zero_grad(set_to_none=True)
        try:
            grad = second_of_two_backwards(model, compiled)
        except RuntimeError as e:
            return f"{type(e).__name__}: {str(e).splitlines()[0][:96]}...", None
    diff = (grad - expected).abs().max().item()
    return f"ran; second backward's weight grad vs eager's: max |diff| {diff:.1e}", diff


runs = {
    "default (donated_buffer=True)": run(True),
    "donated_buffer=False, compiled afresh": run(False, fx_graph_cache=False),
    "donated_buffer=False, backward from the cache": run(False),
}
for name, (line, _) in runs.items():
    print(f"{name:46} {line}")
shutil.rmtree(cache, ignore_errors=True)

assert runs["default (donated_buffer=True)"][1] is None  # it raised
assert runs["donated_buffer=False, compiled afresh"][1] < 1e-5  # the eager gradient
assert runs["donated_buffer=False, backward from the cache"][1] > 1e-2  # the kept activation was overwritten
