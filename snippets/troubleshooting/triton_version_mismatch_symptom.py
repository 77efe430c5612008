"""Symptom: an import written for an older Triton meets the installed one: `AttrsDescriptor` is gone."""
# requires: triton
# expects: ^ImportError: cannot import name 'AttrsDescriptor' from 'triton\.compiler\.compiler'
import importlib.metadata
import traceback

import torch
from torch._inductor.utils import TritonAttrsDescriptorVersion, get_triton_attrs_descriptor_version

# The two imports an older torch made, one per Triton it was written for (torch/_inductor/utils.py
# names them: triton.compiler.compiler in Triton 3.0, triton.backends.compiler from Triton 3.2).
failed = []
try:
    from triton.compiler.compiler import AttrsDescriptor  # noqa: F401
except ImportError as err:
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    failed.append(err.name)
try:
    from triton.backends.compiler import AttrsDescriptor  # noqa: F401,F811
except ImportError as err:
    print("".join(traceback.format_exception_only(err)), end="")
    failed.append(err.name)

# The installed torch asks before it imports, and finds the newest form: no class, a plain dict.
found = get_triton_attrs_descriptor_version()
print(f"\ntriton {importlib.metadata.version('triton')} installed; torch {torch.__version__} reads it as {found.name}")
assert failed == ["triton.compiler.compiler", "triton.backends.compiler"], failed
assert found is TritonAttrsDescriptorVersion.V4_DICT
