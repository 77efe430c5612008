"""FSDP2 (fully_shard) in 2 CPU processes: each parameter split between them, each block compiled."""
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch._dynamo.utils import counters
from torch.distributed.fsdp import fully_shard

WORLD, WIDTH, BLOCKS, BATCH, STEPS = 2, 64, 3, 8, 3


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(WIDTH, 4 * WIDTH), nn.Linear(4 * WIDTH, WIDTH)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(x)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(Block() for _ in range(BLOCKS))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x.square().mean()


def batch(rank):  # each process trains on its own data
    return torch.randn(BATCH, WIDTH, generator=torch.Generator().manual_seed(rank))


def worker(rank, folder):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{folder}/store", rank=rank, world_size=WORLD)
    torch.manual_seed(0)
    model, reference = Net(), Net()
    reference.load_state_dict(model.state_dict())  # a plain copy: unsharded, eager, fed both batches
    for block in model.blocks:  # bottom-up: one all-gather group per block, then the root
        fully_shard(block)
        block.compile()  # regional: compile the block, not the whole model
    fully_shard(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ref_opt = torch.optim.SGD(reference.parameters(), lr=0.1)
    losses, ref_losses = [], []
    for _ in range(STEPS):
        loss = model(batch(rank))
        loss.backward()  # gradients are reduce-scattered: each process keeps its half, averaged
        opt.step(), opt.zero_grad()
        per_rank = [reference(batch(r)) for r in range(WORLD)]
        (sum(per_rank) / WORLD).backward()  # the average that data parallelism computes
        ref_opt.step(), ref_opt.zero_grad()
        losses.append(loss.item()), ref_losses.append(per_rank[rank].item())
    weight = model.blocks[0].fc1.weight
    full = [p.full_tensor() for p in model.parameters()]  # all-gathers the shards, on every process
    if rank == 0:
        print(f"{WORLD} processes, gloo on CPU; blocks[0].fc1.weight is a {type(weight).__name__}, "
              f"placements {weight.placements}")
        print(f"  full shape {tuple(weight.shape)}, this process holds {tuple(weight.to_local().shape)}")
        print(f"Dynamo graphs compiled for {BLOCKS} blocks: {counters['stats']['unique_graphs']}")
        print(f"losses, FSDP2 + compiled blocks (rank 0):  {', '.join(f'{v:.6f}' for v in losses)}")
        print(f"losses, one unsharded eager model:       {', '.join(f'{v:.6f}' for v in ref_losses)}")
    dist.destroy_process_group()
    torch.testing.assert_close(losses, ref_losses, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(full, list(reference.parameters()), rtol=1e-4, atol=1e-5)
    assert weight.to_local().shape[0] * WORLD == weight.shape[0], "sharded on dim 0"
    assert 1 <= counters["stats"]["unique_graphs"] < BLOCKS, "the blocks share compiled code"


if __name__ == "__main__":  # spawned children import this file: only the parent starts them
    with tempfile.TemporaryDirectory() as folder:
        mp.spawn(worker, args=(folder,), nprocs=WORLD)  # raises if any process fails
