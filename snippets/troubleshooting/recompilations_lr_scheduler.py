"""A compiled optimizer step under an LR scheduler: a float lr recompiles every step, a tensor lr never."""
import copy
import logging

import torch
from torch._dynamo.utils import counters

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
STEPS, LR, GAMMA = 4, 0.01, 0.9
# aot_eager runs AOTAutograd as Inductor does, and the storm starts there; backend="eager" hides it
BACKEND = "aot_eager"
OTHERS = ("eager", "inductor")  # the float lr again: Dynamo alone, and the default backend


class Capture(logging.Handler):
    """Keep Dynamo's log messages, to print the guard that failed."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def train(model, lr, backend):
    """STEPS steps of SGD under ExponentialLR (compiled with `backend`, if any); returns Dynamo's graphs."""
    torch._dynamo.reset()
    counters.clear()
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=GAMMA)  # a new lr after every step
    step = torch.compile(opt.step, backend=backend) if backend else opt.step
    g = torch.Generator(device=DEVICE).manual_seed(0)
    for _ in range(STEPS):
        model(torch.randn(4, 8, device=DEVICE, generator=g)).square().mean().backward()
        step()
        opt.zero_grad()
        sched.step()
    return counters["stats"]["unique_graphs"]


torch.manual_seed(0)
start = torch.nn.Linear(8, 8).to(DEVICE)
eager = copy.deepcopy(start)
train(eager, LR, backend=None)

capture = Capture()
logging.getLogger("torch._dynamo").addHandler(capture)
torch._logging.set_logs(recompiles=True)  # the same as TORCH_LOGS=recompiles
as_float = copy.deepcopy(start)
float_graphs = train(as_float, LR, BACKEND)
torch._logging.set_logs()
as_tensor = copy.deepcopy(start)
tensor_graphs = train(as_tensor, torch.tensor(LR, device=DEVICE), BACKEND)  # updated in place
others = {name: copy.deepcopy(start) for name in OTHERS}
other_graphs = {name: train(model, LR, name) for name, model in others.items()}

guard = next(line for line in capture.messages[-1].splitlines() if "['lr'] ==" in line)
guard = " ".join(guard.split(": ", 1)[1].split())  # the newest compiled version's guard
print(f"SGD(lr={LR}), a float:         {float_graphs} graphs for {STEPS} steps ({BACKEND})")
print(f"SGD(lr=torch.tensor({LR})):  {tensor_graphs} graph for {STEPS} steps ({BACKEND})")
print(f"the guard that failed on the last float step: {guard}")
for name, graphs in other_graphs.items():
    print(f'SGD(lr={LR}), a float, backend="{name}": {graphs} graphs for {STEPS} steps')
for model in (as_float, as_tensor, *others.values()):
    torch.testing.assert_close(model.state_dict(), eager.state_dict())
assert float_graphs == STEPS and other_graphs["inductor"] == STEPS  # one graph per learning-rate value
assert other_graphs["eager"] == 2  # Dynamo alone: a recompile, then the float is symbolic
assert tensor_graphs == 1
