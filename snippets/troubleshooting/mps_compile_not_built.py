"""Symptom: code asks for device="mps" from a torch built without MPS (this Linux wheel, for one)."""
# expects: ^NotImplementedError: Could not run 'aten::empty\.memory_format' with arguments from the 'MPS' backend
import torch

try:
    torch.zeros(4, device="mps")
except NotImplementedError as err:
    # the message goes on to list every backend the operator has; its first line says it all
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    assert "from the 'MPS' backend" in str(err)
else:
    raise AssertionError("created an MPS tensor: this torch has MPS")
print(f"torch.backends.mps.is_built() = {torch.backends.mps.is_built()}, "
      f"torch.backends.mps.is_available() = {torch.backends.mps.is_available()}")
assert not torch.backends.mps.is_built()
