"""The risk of each unsafe guard knob: change what a dropped guard checked, and the old graph runs."""
import torch
from torch import nn

SCALE = 2.0  # a global the forward reads: Dynamo bakes its value into the graph and guards it
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(16, 16), nn.LeakyReLU(0.1), nn.Linear(16, 16))

    def forward(self, x):
        return self.layers(x) * SCALE


model, x = Net().eval(), torch.randn(4, 16)


def set_scale(value):
    global SCALE
    SCALE = value


CHANGES = {  # each one is undone before the next
    "LeakyReLU slope": (lambda: setattr(model.layers[1], "negative_slope", 0.5),
                        lambda: setattr(model.layers[1], "negative_slope", 0.1)),
    "global SCALE": (lambda: set_scale(3.0), lambda: set_scale(2.0)),
    "batch size": (lambda: None, lambda: None),
}
KNOBS = {
    "all guards (default)": None,
    "skip_guard_on_inbuilt_nn_modules_unsafe": torch.compiler.skip_guard_on_inbuilt_nn_modules_unsafe,
    "keep_tensor_guards_unsafe": torch.compiler.keep_tensor_guards_unsafe,
    "skip_all_guards_unsafe": torch.compiler.skip_all_guards_unsafe,
    "set_stance(skip_guard_eval_unsafe=True)": None,
}
compiled = {name: torch.compile(model, isolate_recompiles=True,
                                options={"guard_filter_fn": keep} if keep else None)
            for name, keep in KNOBS.items()}


def outcome(name, inp):
    """Run one knob's compiled model after a change; compare with eager on the same input."""
    try:
        with torch.compiler.set_stance(skip_guard_eval_unsafe=name.startswith("set_stance")):
            out = compiled[name](inp)
    except Exception as e:  # noqa: BLE001 - an error is an outcome too: name it
        errors[name] = f"{type(e).__name__}: {str(e).strip().splitlines()[0][:100]}"
        return type(e).__name__
    right = out.shape == model(inp).shape and torch.allclose(out, model(inp))
    return "right" if right else "WRONG (old graph)"


results, errors = {}, {}
with torch.no_grad():
    for fn in compiled.values():
        fn(x)  # warm up: one compiled graph each
    print(f"{'after changing':40}" + "".join(f"{c:>20}" for c in CHANGES))
    for name in KNOBS:
        row = []
        for change, (do, undo) in CHANGES.items():
            do()
            row.append(outcome(name, torch.randn(8, 16) if change == "batch size" else x))
            undo()
        results[name] = row
        print(f"{name:40}" + "".join(f"{r:>20}" for r in row))
for name, message in errors.items():
    print(f"{name}:\n  {message}")

assert results["all guards (default)"] == ["right"] * 3
assert results["skip_guard_on_inbuilt_nn_modules_unsafe"][:2] == ["WRONG (old graph)", "right"]
assert results["keep_tensor_guards_unsafe"] == ["WRONG (old graph)", "WRONG (old graph)", "right"]
assert results["skip_all_guards_unsafe"] == ["WRONG (old graph)"] * 2 + ["AssertionError"]
assert results["set_stance(skip_guard_eval_unsafe=True)"] == ["WRONG (old graph)"] * 2 + ["RuntimeError"]
