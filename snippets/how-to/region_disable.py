"""Keep one piece of a compiled model in eager with torch.compiler.disable, and count the cost."""
import torch
from torch import nn


def log_stats(x):
    # Debug/telemetry code you want to keep exactly as it is, in eager Python.
    print(f"  log_stats ran eagerly: mean={x.mean().item():+.3f}")
    return x


class Block(nn.Module):
    def __init__(self, d=64, skip_compile=None):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, d), nn.Linear(d, d)
        self.hook = torch.compiler.disable(skip_compile) if skip_compile else None

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        if self.hook is not None:
            x = self.hook(x)  # a call into eager code: the graph is cut around it
        return self.fc2(x)


torch.manual_seed(0)
x = torch.randn(16, 64)
plain, hooked = Block(), Block(skip_compile=log_stats)
hooked.load_state_dict(plain.state_dict())

breaks = {}
for name, model in (("no disabled code", plain), ("with disabled log_stats", hooked)):
    report = torch._dynamo.explain(model)(x)
    breaks[name] = report.graph_break_count
    print(f"{name}: graphs={report.graph_count}, graph breaks={report.graph_break_count}")
    for reason in report.break_reasons:
        print("  break reason:", reason.reason.strip().splitlines()[0])

compiled = torch.compile(hooked)
torch.testing.assert_close(compiled(x), plain(x))  # same numbers; log_stats still printed
print("compiled model with a disabled function matches eager")
assert breaks == {"no disabled code": 0, "with disabled log_stats": 1}
