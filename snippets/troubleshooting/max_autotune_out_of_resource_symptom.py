"""Symptom: a Triton matmul config needs more shared memory than the GPU has (a candidate autotuning skips)."""
# requires: cuda, triton
# expects: ^triton\.runtime\.errors\.OutOfResources: out of resource: shared memory, Required: \d+, Hardware limit: \d+
# message-in-source: out of resource: {self.name}, Required: {self.required}, Hardware limit: {self.limit}
import traceback

import torch
import triton
import triton.language as tl

N = 512  # a multiple of every block size below: no masks needed


@triton.jit
def matmul(a, b, c, K: tl.constexpr, N: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        y = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y, input_precision="ieee")
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


def run(block_m, block_n, block_k, stages):
    """One candidate: block sizes and pipeline depth, as an autotuner's config sets them."""
    c = torch.empty(N, N, device="cuda")
    matmul[(N // block_m, N // block_n)](a, b, c, N, N, block_m, block_n, block_k, num_stages=stages, num_warps=8)
    return c


a, b = torch.randn(N, N, device="cuda"), torch.randn(N, N, device="cuda")
try:
    run(256, 256, 64, 4)  # fp32 tiles 256x64 and 64x256, four stages deep: more than any GPU's shared memory
except triton.runtime.errors.OutOfResources as err:  # raised when the compiled kernel is loaded, before it runs
    print("".join(traceback.format_exception_only(err)), end="")  # as a traceback ends
    assert err.name == "shared memory" and err.required > err.limit
else:
    raise AssertionError("the oversized config ran: this GPU has more shared memory than any so far")
torch.testing.assert_close(run(64, 64, 32, 2), a @ b, rtol=1e-3, atol=1e-3)
print("the same kernel with smaller blocks fits and matches a @ b: the config an autotuner keeps")
