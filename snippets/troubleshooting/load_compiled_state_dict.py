"""Recipe: loading a checkpoint saved from a compiled model fails on the `_orig_mod.` prefix."""
import torch
from torch import nn


def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))


torch.manual_seed(0)
model = make_model()
compiled = torch.compile(model)
torch.save(compiled.state_dict(), "checkpoint.pt")  # keys are "_orig_mod.0.weight", ...

# Symptom: a plain (eager) model refuses the checkpoint.
fresh = make_model()
try:
    fresh.load_state_dict(torch.load("checkpoint.pt"))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    symptom = err
else:
    raise AssertionError("loading unexpectedly worked")

# Fix 1: save the original module's state_dict (the wrapper shares its parameters).
torch.save(compiled._orig_mod.state_dict(), "checkpoint.pt")
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

x = torch.randn(4, 8)
with torch.no_grad():
    torch.testing.assert_close(fresh(x), model(x))
assert "_orig_mod." in str(symptom) and "Missing key" in str(symptom)
