"""Fix: the Inductor settings that decide which candidates max-autotune tries, and how loudly it skips one."""
import logging

import torch
from torch._inductor import config

for mode, options in torch._inductor.list_mode_options().items():
    if "autotune" in mode:
        print(f"mode={mode!r}: {options}")
KNOBS = ("max_autotune", "max_autotune_gemm", "max_autotune_pointwise", "max_autotune_gemm_backends",
         "max_autotune_conv_backends", "max_autotune_gemm_search_space",
         "max_autotune_prune_choices_based_on_shared_mem", "triton.dynamic_disable_pipelining")
for name in KNOBS:
    value = config
    for part in name.split("."):
        value = getattr(value, part)
    print(f"torch._inductor.config.{name} = {value!r}")
assert "ATEN" in config.max_autotune_gemm_backends.split(",")  # by default ATen's kernel is always a candidate
assert config.triton.dynamic_disable_pipelining and not config.max_autotune_prune_choices_based_on_shared_mem


def f(a, b):
    return torch.relu(a @ b)


a, b = torch.randn(64, 64), torch.randn(64, 64)
# Fewer candidates: ATen only, so no Triton config is compiled, benchmarked or skipped for the matmul
compiled = torch.compile(f, options={"max_autotune": True, "max_autotune_gemm_backends": "ATEN"})
torch.testing.assert_close(compiled(a, b), f(a, b))
print("max_autotune with max_autotune_gemm_backends='ATEN': output matches eager")

# Quieter: a skipped candidate is a WARNING of a torch._inductor logger; errors still show
torch._logging.set_logs(inductor=logging.ERROR)
log = logging.getLogger("torch._inductor.select_algorithm")
print(f"after set_logs(inductor=logging.ERROR): warnings shown {log.isEnabledFor(logging.WARNING)}, "
      f"errors shown {log.isEnabledFor(logging.ERROR)}")
assert not log.isEnabledFor(logging.WARNING) and log.isEnabledFor(logging.ERROR)
