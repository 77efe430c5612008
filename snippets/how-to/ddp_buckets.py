"""DDPOptimizer: torch.compile splits a DDP model's graph where DDP's gradient buckets end."""
import logging
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch._dynamo.utils import counters
from torch.nn.parallel import DistributedDataParallel as DDP

WORLD, WIDTH, DEPTH, BATCH = 2, 512, 4, 32  # one Linear(512, 512) holds 1 MiB of float32 weights
# (bucket_cap_mb, optimize_ddp): None is DDP's default cap; 0.5 is below DDPOptimizer's first bucket
CASES = [(None, True), (4, True), (2, True), (1, True), (1, False), (0.5, True)]


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(WIDTH, WIDTH) for _ in range(DEPTH))
        self.head = nn.Linear(WIDTH, 1)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.head(x)


def worker(rank, folder):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{folder}/store", rank=rank, world_size=WORLD)
    said = []  # DDPOptimizer's summary line: logger torch._dynamo.backends.distributed, level INFO
    log = logging.getLogger("torch._dynamo.backends.distributed")
    log.setLevel(logging.INFO)
    log.addFilter(lambda record: said.append(record.getMessage().strip()) or True)
    x = torch.randn(BATCH, WIDTH)
    found = {}  # bucket_cap_mb, optimize_ddp -> subgraphs compiled (AOTAutograd calls)
    if rank == 0:
        size = sum(p.numel() * p.element_size() for p in MLP().parameters()) / 2**20
        print(f"{WORLD} processes, gloo on CPU; the model holds {size:.2f} MiB of float32 parameters")
    for cap, optimize_ddp in CASES:
        torch._dynamo.reset()  # a fresh compile for each case
        counters.clear(), said.clear()
        model = torch.compile(DDP(MLP(), bucket_cap_mb=cap))
        try:
            with torch._dynamo.config.patch(optimize_ddp=optimize_ddp):
                model(x).sum().backward()
            found[cap, optimize_ddp] = counters["aot_autograd"]["total"]
            graphs = counters["stats"]["unique_graphs"]
            result = f"{graphs} Dynamo graph, {found[cap, optimize_ddp]} subgraph(s) compiled"
        except AssertionError as e:  # raised alike on every process, at the first call
            found[cap, optimize_ddp], result = None, f"AssertionError: {e}"
        if rank == 0:
            print(f"bucket_cap_mb={cap!s:<4} optimize_ddp={optimize_ddp!s:<5}  {result}")
            for message in (s for s in said if "buckets" in s):
                print(f"    DDPOptimizer's log: {message}")
    dist.destroy_process_group()
    assert found[1, True] >= 2 and found[1, False] == 1, found  # split by DDPOptimizer, or one graph
    assert found[1, True] >= found[2, True] >= found[4, True], found  # smaller buckets, more subgraphs
    assert found[0.5, True] is None, found


if __name__ == "__main__":  # spawned children import this file: only the parent starts them
    with tempfile.TemporaryDirectory() as folder:
        mp.spawn(worker, args=(folder,), nprocs=WORLD)
