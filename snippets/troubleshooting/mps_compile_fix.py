"""Fix: pick the device and the backend that work here, and check the compiled result against eager."""
import os

import torch
from torch._inductor.codegen.common import get_scheduling_for_device, init_backend_registration

print(f"torch {torch.__version__}: MPS built {torch.backends.mps.is_built()}, "
      f"available {torch.backends.mps.is_available()}; "
      f"PYTORCH_ENABLE_MPS_FALLBACK={os.environ.get('PYTORCH_ENABLE_MPS_FALLBACK')!r}")
init_backend_registration()  # what Inductor generates code with, per device type
metal = get_scheduling_for_device("mps")
print(f"Inductor's backend for mps: {metal.__name__}, its backend features: "
      f"{sorted(str(f) for f in metal(None).get_backend_features(torch.device('mps')))}")

if torch.backends.mps.is_available():
    device = "mps"
elif torch.cuda.is_available():
    device = "cuda"
else:
    device = "cpu"


def f(x):
    return torch.nn.functional.gelu(x) * x.sum(dim=-1, keepdim=True)


torch.manual_seed(0)  # one input on every run: a sum of 64 values near zero, reordered, can miss fp32's default tolerance
x = torch.randn(8, 64, device=device)
for backend in ("inductor", "aot_eager"):  # aot_eager: the same graphs, no generated code
    torch._dynamo.reset()
    try:
        out = torch.compile(f, backend=backend)(x)
        break
    except torch._dynamo.exc.BackendCompilerFailed as err:  # an InductorError is one
        print(f"backend={backend!r} on {device} failed ({type(err).__name__}): trying the next one")
else:
    raise AssertionError(f"no backend compiled f on {device}")
torch.testing.assert_close(out, f(x))
print(f"compiled with backend={backend!r} on {device}: output matches eager")
assert metal.__name__ == "MetalScheduling"
