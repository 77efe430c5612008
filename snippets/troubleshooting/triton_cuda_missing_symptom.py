"""Symptom: this torch cannot use a GPU, so creating a CUDA tensor fails (the message says why)."""
# expects: ^(RuntimeError: Found no NVIDIA driver|RuntimeError: No CUDA GPUs are available|AssertionError: Torch not compiled with CUDA enabled)
import os
import traceback

os.environ["CUDA_VISIBLE_DEVICES"] = ""  # hide every GPU, as on a machine that has none
import torch  # noqa: E402

KNOWN = ("Found no NVIDIA driver", "No CUDA GPUs are available", "Torch not compiled with CUDA enabled")
try:
    torch.zeros(1, device="cuda")
except (RuntimeError, AssertionError) as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert any(text in str(err) for text in KNOWN), str(err)
else:
    raise AssertionError("a CUDA tensor was created with every GPU hidden: the symptom is gone")
print(f"torch {torch.__version__}, built for CUDA {torch.version.cuda}; "
      f"torch.cuda.is_available() -> {torch.cuda.is_available()}")
