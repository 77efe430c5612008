"""Fix: save, strip or avoid the `_orig_mod.` prefix so a compiled model's checkpoint loads anywhere."""
import torch
from torch import nn


def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


torch.manual_seed(0)
model = make_model()
compiled = torch.compile(model)
x = torch.randn(4, 8)

# Fix 1: save the original module's state_dict (the wrapper shares its parameters).
torch.save(compiled._orig_mod.state_dict(), "checkpoint.pt")
fresh = make_model()
fresh.load_state_dict(torch.load("checkpoint.pt"))
print("fix 1, save compiled._orig_mod.state_dict(): loaded")

# Fix 2: strip the prefix from a checkpoint that already has it.
prefixed = compiled.state_dict()
stripped = {k.removeprefix("_orig_mod."): v for k, v in prefixed.items()}
make_model().load_state_dict(stripped)
print("fix 2, strip the '_orig_mod.' prefix: loaded")

# Fix 3: compile in place with Module.compile(): no wrapper, no prefix.
in_place = make_model()
in_place.compile()
make_model().load_state_dict(in_place.state_dict())
print("fix 3, model.compile() keeps the keys:", list(in_place.state_dict())[:2])

with torch.no_grad():
    torch.testing.assert_close(fresh(x), model(x))
assert not any(k.startswith("_orig_mod.") for k in in_place.state_dict())
