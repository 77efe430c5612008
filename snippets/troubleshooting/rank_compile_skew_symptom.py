"""Symptom: one rank compiles for longer than the process group's timeout; the other rank's first collective times out."""
# runs: alone  (its failure races a 1-s collective timeout against a 2-s compile: no other process beside it)
# expects: ^RuntimeError: \[[^\]]*gloo[^\]]*\] Timed out waiting \d+ms for recv operation to complete
import pathlib
import tempfile
import time
import traceback
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD, TIMEOUT_S, SLOW_COMPILE_S = 2, 1, 2  # rank 1's compile outlasts the collective timeout


def slow_backend(gm, example_inputs):
    """Rank 1's backend: stands in for a compile that is slower on one rank (a cold cache, a recompile)."""
    time.sleep(SLOW_COMPILE_S)
    return gm.forward


def worker(rank, folder):
    torch.set_num_threads(1)  # two processes share this machine's cores
    # CPU and gloo on every machine; NCCL on GPUs behaves alike, with its own message (see the page)
    dist.init_process_group("gloo", init_method=f"file://{folder}/store", rank=rank, world_size=WORLD)
    dist.set_timeout(timedelta(seconds=TIMEOUT_S))  # short, so that the snippet stays quick
    torch.manual_seed(0)
    model = torch.compile(torch.nn.Linear(8, 8), backend=slow_backend if rank == 1 else "eager")
    out = model(torch.randn(4, 8))  # rank 0 is done at once; rank 1 is still compiling
    try:
        dist.all_reduce(out)  # rank 0 waits here for rank 1, at most TIMEOUT_S
        message = "no error"
    except RuntimeError as err:
        message = "".join(traceback.format_exception_only(err)).strip()
    pathlib.Path(folder, f"rank{rank}.txt").write_text(message)
    dist.destroy_process_group()


with tempfile.TemporaryDirectory() as folder:
    # fork: the workers start at once, without importing torch again
    # That suits gloo on the CPU only: for NCCL on GPUs, start the ranks with torchrun or start_method="spawn"
    # (a forked child of a process that used CUDA raises "Cannot re-initialize CUDA in forked subprocess")
    mp.start_processes(worker, args=(folder,), nprocs=WORLD, start_method="fork")
    fast, slow = (pathlib.Path(folder, f"rank{r}.txt").read_text() for r in range(WORLD))

if "Timed out" not in fast:
    raise AssertionError(f"rank 0 did not time out ({fast!r}): the symptom is gone in this torch")
print(fast)  # rank 0, the rank that did not wait for the slow compile
print(f"\nrank 1, back from its compile of {SLOW_COMPILE_S} s (a sleep in its backend) "
      f"with a collective timeout of {TIMEOUT_S} s:")
print(slow.splitlines()[0])
assert fast.startswith("RuntimeError") and "gloo" in fast
assert slow != "no error"  # the slow rank's collective fails too: its peer gave up
