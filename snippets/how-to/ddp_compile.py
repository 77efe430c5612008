"""torch.compile on a DDP model in 2 CPU processes: same results as eager DDP; step times."""
import statistics
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch._dynamo.utils import counters
from torch.nn.parallel import DistributedDataParallel as DDP

WORLD, WIDTH, DEPTH, BATCH = 2, 512, 4, 32  # one Linear(512, 512) holds 1 MiB of float32 weights
BUCKET_MB = 1  # DDP's gradient bucket cap: small, so this model needs several buckets
CHECKED, WARMUP, TIMED = 3, 3, 15  # steps compared with eager, then untimed and timed steps


class MLP(nn.Module):  # a model class of your own, as in real code
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(WIDTH, WIDTH) for _ in range(DEPTH))
        self.head = nn.Linear(WIDTH, 1)

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.head(x)


def step(model, opt, x, y):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()  # DDP averages the gradients across processes here, bucket by bucket
    opt.step()
    return loss.item()


def worker(rank, folder):
    torch.set_num_threads(1)  # two processes share this machine's cores
    # CPU and gloo on every machine: NCCL would need one GPU per process
    dist.init_process_group("gloo", init_method=f"file://{folder}/store", rank=rank, world_size=WORLD)
    g = torch.Generator().manual_seed(rank)  # each process trains on its own data
    x, y = torch.randn(BATCH, WIDTH, generator=g), torch.randn(BATCH, 1, generator=g)
    runs = {}
    for name in ("eager", "compiled"):
        torch.manual_seed(0)  # the same initial weights in both
        ddp = DDP(MLP(), bucket_cap_mb=BUCKET_MB)
        model = torch.compile(ddp) if name == "compiled" else ddp
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        runs[name] = {"model": model, "opt": opt, "losses": [step(model, opt, x, y) for _ in range(CHECKED)],
                      "params": [p.detach().clone() for p in ddp.parameters()], "times": []}
    for i in range(WARMUP + TIMED):  # interleaved, so drift on the machine hits both alike
        for r in runs.values():
            t0 = time.perf_counter()
            step(r["model"], r["opt"], x, y)
            if i >= WARMUP:
                r["times"].append(time.perf_counter() - t0)
    e, c = runs["eager"], runs["compiled"]
    if rank == 0:
        print(f"{WORLD} processes, gloo on CPU, 1 thread each; DDP(MLP(), bucket_cap_mb={BUCKET_MB})")
        print(f"compiled: {counters['stats']['unique_graphs']} Dynamo graph, "
              f"{counters['aot_autograd']['total']} subgraphs compiled by AOTAutograd")
        for name, r in runs.items():
            print(f"{name:>8} DDP losses (rank 0): {', '.join(f'{v:.6f}' for v in r['losses'])}")
        diff = max((a - b).abs().max().item() for a, b in zip(c["params"], e["params"]))
        print(f"after {CHECKED} steps, largest parameter difference: {diff:.2e}")
        for name, r in runs.items():  # median and IQR of the timed steps; the site flags IQR/median > 10 %
            q1, med, q3 = (t * 1e3 for t in statistics.quantiles(r["times"], n=4, method="inclusive"))
            noisy = "  noisy — rerun on an idle machine" if q3 - q1 > 0.10 * med else ""
            print(f"{name:>8} DDP step time: median {med:.2f} ms, IQR {q3 - q1:.2f} ms ({TIMED} steps after "
                  f"{WARMUP} warm-up; not a benchmark){noisy}")
    dist.destroy_process_group()
    torch.testing.assert_close(c["losses"], e["losses"], rtol=1e-4, atol=1e-5)  # on every rank
    torch.testing.assert_close(c["params"], e["params"], rtol=1e-4, atol=1e-5)
    assert counters["stats"]["unique_graphs"] == 1 and counters["aot_autograd"]["total"] >= 2, counters


if __name__ == "__main__":  # spawned children import this file: only the parent starts them
    with tempfile.TemporaryDirectory() as folder:
        mp.spawn(worker, args=(folder,), nprocs=WORLD)  # raises if any process fails
