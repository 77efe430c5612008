"""Eager mode is ordinary Python: inspect intermediates with print and forward hooks."""
import torch
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(4)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        # Every line has already run: h is a real tensor with real values, right here.
        print(f"  inside forward: h {tuple(h.shape)}, mean {h.mean().item():.4f}, "
              f"zeros {(h == 0).float().mean().item():.0%}")
        return self.fc(self.pool(h).flatten(1))


seen = []


def log_shapes(module, inputs, output):
    """A forward hook: runs after each module, sees its real inputs and output."""
    name = next(n for n, m in model.named_modules() if m is module)
    seen.append((name, tuple(inputs[0].shape), tuple(output.shape)))
    print(f"  hook {name:<5} {str(tuple(inputs[0].shape)):<16} -> {tuple(output.shape)}"
          f"  finite: {torch.isfinite(output).all().item()}")


model = Net().eval()
handles = [m.register_forward_hook(log_shapes) for m in (model.conv, model.pool, model.fc)]
x = torch.randn(2, 3, 16, 16)
print("eager forward:")
with torch.no_grad():
    out = model(x)
for h in handles:
    h.remove()

print("output", tuple(out.shape), "| argmax per row:", out.argmax(1).tolist())
assert [s[0] for s in seen] == ["conv", "pool", "fc"]
assert seen[-1][2] == (2, 10) and out.shape == (2, 10)
