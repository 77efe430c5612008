"""Compile an nn.Module: wrap it with torch.compile, or compile it in place with .compile()."""
import torch
from torch import nn

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
BATCH, FEATURES = 32, 256

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(FEATURES, FEATURES), nn.ReLU(), nn.Linear(FEATURES, 10))
model = model.to(DEVICE).eval()
x = torch.randn(BATCH, FEATURES, device=DEVICE)

# Option 1: torch.compile returns a wrapper (an OptimizedModule) around the same parameters.
wrapped = torch.compile(model)
print(type(wrapped).__name__, "wraps", type(wrapped._orig_mod).__name__)

# Option 2: Module.compile() compiles in place; the object and its state_dict keys stay the same.
in_place = nn.Sequential(nn.Linear(FEATURES, FEATURES), nn.ReLU(), nn.Linear(FEATURES, 10))
in_place.load_state_dict(model.state_dict())
in_place = in_place.to(DEVICE).eval()
in_place.compile()
print(type(in_place).__name__, "state_dict keys:", list(in_place.state_dict())[:2])

with torch.no_grad():
    expected = model(x)
    for name, compiled in [("torch.compile(model)", wrapped), ("model.compile()", in_place)]:
        out = compiled(x)
        err = (out - expected).abs().max().item()
        print(f"{name:22} output {tuple(out.shape)}, max abs difference vs eager {err:.1e}")
        torch.testing.assert_close(out, expected, rtol=1e-4, atol=1e-5)

assert wrapped.state_dict().keys() != model.state_dict().keys()  # "_orig_mod." prefix
assert in_place.state_dict().keys() == model.state_dict().keys()
