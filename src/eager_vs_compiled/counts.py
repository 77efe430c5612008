"""What one eager call does, counted once per record: its FLOPs and the bytes its ops move (torch only).

Counting is a bonus: a failure logs a warning and gives None, never loses a measurement.
"""

from __future__ import annotations

import logging

log = logging.getLogger("eager_vs_compiled")


def _flops(built, device) -> int | None:
    """FLOPs of one eager call, counted by torch.utils.flop_counter (matmuls and convolutions)."""
    from torch.utils.flop_counter import FlopCounterMode

    try:
        with FlopCounterMode(display=False) as counter:
            built.call(*built.inputs)
        return int(counter.get_total_flops()) or None
    except Exception as e:  # counting is a bonus: never lose a measurement for it
        log.warning("flop counting failed: %s", e)
        return None


def _eager_bytes(built) -> int | None:
    """Bytes an eager call reads and writes: every aten op's tensor inputs and outputs, counted
    once per op (what eager moves through memory, since each op is its own kernel)."""
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    class Traffic(TorchDispatchMode):
        total = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            for t in tree_leaves((args, kwargs, out)):
                if isinstance(t, torch.Tensor) and t.device.type != "meta":
                    Traffic.total += t.untyped_storage().nbytes() if t.dim() == 0 else t.numel() * t.element_size()
            return out

    try:
        with Traffic():
            built.call(*built.inputs)
        return Traffic.total or None
    except Exception as e:
        log.warning("traffic counting failed: %s", e)
        return None
