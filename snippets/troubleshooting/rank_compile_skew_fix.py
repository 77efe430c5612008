"""Fix: compile on every rank before the first collective, and meet at a barrier under a generous timeout."""
import copy
import pathlib
import tempfile
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.constants import default_pg_nccl_timeout, default_pg_timeout

WORLD, TIMEOUT_S, SLOW_COMPILE_S, STEPS = 2, 1, 2, 3  # the symptom's timeout and slow compile
WARMUP_TIMEOUT_S = 60  # generous: longer than the slowest rank's compile


def slow_backend(gm, example_inputs):
    """Rank 1's backend: stands in for a compile that is slower on one rank (a cold cache, a recompile)."""
    time.sleep(SLOW_COMPILE_S)
    return gm.forward


def worker(rank, folder):
    torch.set_num_threads(1)  # two processes share this machine's cores
    dist.init_process_group("gloo", init_method=f"file://{folder}/store", rank=rank, world_size=WORLD,
                            timeout=timedelta(seconds=WARMUP_TIMEOUT_S))
    torch.manual_seed(0)
    eager = torch.nn.Linear(8, 8)
    model = torch.compile(copy.deepcopy(eager), backend=slow_backend if rank == 1 else "eager")
    g = torch.Generator().manual_seed(rank)  # each rank has its own data
    xs = [torch.randn(4, 8, generator=g) for _ in range(STEPS)]
    with torch.no_grad():
        start = time.perf_counter()
        model(xs[0])  # warm-up: every rank compiles here, before any collective
        compiled = time.perf_counter() - start
        dist.barrier()  # the fast rank waits for the slow one here, under WARMUP_TIMEOUT_S
        met = time.perf_counter() - start
        dist.set_timeout(timedelta(seconds=TIMEOUT_S))  # from here on, the symptom's short timeout
        torch.compiler.set_stance("fail_on_recompile")  # a later compile would skew the ranks again
        for x in xs:
            out, expected = model(x), eager(x)
            dist.all_reduce(out)
            dist.all_reduce(expected)
            torch.testing.assert_close(out, expected)  # on every rank
    line = f"compiled after {compiled:.1f} s, left the barrier after {met:.1f} s"
    pathlib.Path(folder, f"rank{rank}.txt").write_text(line)
    dist.destroy_process_group()


with tempfile.TemporaryDirectory() as folder:
    # fork: the workers start at once, without importing torch again; raises if any worker fails
    # That suits gloo on the CPU only: for NCCL on GPUs, start the ranks with torchrun or start_method="spawn"
    # (a forked child of a process that used CUDA raises "Cannot re-initialize CUDA in forked subprocess")
    mp.start_processes(worker, args=(folder,), nprocs=WORLD, start_method="fork")
    lines = [pathlib.Path(folder, f"rank{r}.txt").read_text() for r in range(WORLD)]

print(f"default collective timeouts: gloo and others {default_pg_timeout}, NCCL {default_pg_nccl_timeout}")
print(f"warm-up under a {WARMUP_TIMEOUT_S} s timeout, rank 1's compile made slow by {SLOW_COMPILE_S} s:")
for rank, line in enumerate(lines):
    print(f"  rank {rank}: {line}")
print(f"then {STEPS} steps with all_reduce under a {TIMEOUT_S} s timeout on both ranks: "
      "no timeout, no recompile, outputs equal eager")
assert len(lines) == WORLD  # each rank wrote its line only after its asserts passed
