"""A factory for `measure --model`: it returns your model and an example input (here a small CNN)."""
import torch

BATCH, CHANNELS, SIZE = 8, 3, 32


class SmallCNN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.features = torch.nn.Sequential(
            torch.nn.Conv2d(CHANNELS, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
            torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(),
            torch.nn.AdaptiveAvgPool2d(1))
        self.head = torch.nn.Linear(32, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def factory():
    """What the harness calls: the model, example inputs, and a second input shape for the recompile check."""
    torch.manual_seed(0)
    return {"model": SmallCNN().eval(), "inputs": (torch.randn(BATCH, CHANNELS, SIZE, SIZE),),
            "inputs2": (torch.randn(BATCH * 2, CHANNELS, SIZE, SIZE),), "items": "images"}


# Run as a script, the file checks itself: the factory returns what the harness expects.
spec = factory()
out = spec["model"](*spec["inputs"])
print(f"factory(): {type(spec['model']).__name__}, inputs {tuple(spec['inputs'][0].shape)}, "
      f"output {tuple(out.shape)}; second shape {tuple(spec['inputs2'][0].shape)}")
assert out.shape == (BATCH, 10) and torch.isfinite(out).all()
