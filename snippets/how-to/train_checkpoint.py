"""Save and resume a compiled training run: checkpoints that load with or without torch.compile."""
import torch
from torch import nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

STEPS, SAVE_AT = 6, 3


def make():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
    return model, torch.optim.AdamW(model.parameters(), lr=1e-2)


def unwrap(model):
    """The module that holds the parameters under their own names, compiled with torch.compile or not."""
    return getattr(model, "_orig_mod", model)


gen = torch.Generator().manual_seed(1)
batches = [(torch.randn(32, 16, generator=gen), torch.randn(32, 1, generator=gen)) for _ in range(STEPS)]


def train(model, opt, steps):
    losses = []
    for x, y in steps:
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        losses.append(loss.item())
    return losses


# Run 1: torch.compile returns a wrapper; save the checkpoint from the module inside it.
model, opt = make()
compiled = torch.compile(model)
train(compiled, opt, batches[:SAVE_AT])
print("torch.compile(model).state_dict():", list(compiled.state_dict())[:2])
print("unwrap(compiled).state_dict():    ", list(unwrap(compiled).state_dict())[:2])
torch.save({"model": unwrap(compiled).state_dict(), "opt": opt.state_dict()}, "ckpt.pt")
print("optimizer state keys (parameter indices, no names):", list(opt.state_dict()["state"])[:3], "...")
uninterrupted_tail = train(compiled, opt, batches[SAVE_AT:])

# Run 2: resume from the checkpoint into a model compiled in place (model.compile(): no wrapper).
ckpt = torch.load("ckpt.pt")
model2, opt2 = make()
model2.load_state_dict(ckpt["model"])  # load first, compile after: plain names either way
opt2.load_state_dict(ckpt["opt"])
model2.compile()
print("model.compile() state_dict():     ", list(model2.state_dict())[:2])
resumed_tail = train(model2, opt2, batches[SAVE_AT:])
print("losses after the save, uninterrupted:", [f"{v:.4f}" for v in uninterrupted_tail])
print("losses after the save, resumed:      ", [f"{v:.4f}" for v in resumed_tail])

# An older checkpoint saved from the wrapper carries the prefix: strip it once, in place.
old = compiled.state_dict()
consume_prefix_in_state_dict_if_present(old, "_orig_mod.")
eager = make()[0]
eager.load_state_dict(old)  # and it loads into a plain eager model
x = batches[0][0]
with torch.no_grad():
    torch.testing.assert_close(eager(x), compiled(x))
print("wrapper checkpoint with the prefix stripped: loaded into an eager model, same outputs")

torch.testing.assert_close(resumed_tail, uninterrupted_tail, rtol=1e-5, atol=1e-6)
assert all(k.startswith("_orig_mod.") for k in compiled.state_dict())
assert not any(k.startswith("_orig_mod.") for k in model2.state_dict())
assert list(unwrap(compiled).state_dict()) == list(model2.state_dict())  # same names both ways
