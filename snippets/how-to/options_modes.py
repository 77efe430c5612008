"""What each `mode=` sets, which `backend=` names exist, and how `options=` relates to `mode=`, from the installed torch."""
import torch
import torch._dynamo
import torch._inductor

print("torch.compile keyword arguments and defaults:")
for name, default in torch.compile.__kwdefaults__.items():
    print(f"  {name}={default!r}")

print("\nmode= -> the Inductor config options it sets (torch._inductor.list_mode_options()):")
modes = torch._inductor.list_mode_options()
for mode, opts in modes.items():
    print(f"  {mode!r}: {opts}")
assert {"default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"} <= modes.keys()

print(f"\nbackend= choices (torch._dynamo.list_backends()): {torch._dynamo.list_backends()}")
debug = sorted(set(torch._dynamo.list_backends(exclude_tags=())) - set(torch._dynamo.list_backends()))
print(f"debug/experimental backends (list_backends(exclude_tags=())): {debug}")
assert "inductor" in torch._dynamo.list_backends()

print(f"\noptions= accepts any of {len(torch._inductor.list_options())} Inductor config keys"
      " (torch._inductor.list_options()), e.g. max_autotune, epilogue_fusion, trace.enabled")
try:
    torch.compile(torch.sin, mode="max-autotune", options={"max_autotune": True})
except RuntimeError as err:
    print(f"mode= and options= together -> RuntimeError: {err}")
else:
    raise AssertionError("mode= and options= are accepted together in this torch")

# options= sets Inductor config for this one compile, e.g. fallback_random: use eager's random numbers.
def drop(a):
    return torch.nn.functional.dropout(a, p=0.5, training=True)


x = torch.randn(1000)
for opts in ({}, {"fallback_random": True}):
    torch.manual_seed(0)
    compiled = torch.compile(drop, options=opts)(x)
    torch.manual_seed(0)
    same = torch.equal(compiled, drop(x))
    print(f"options={opts}: same dropout mask as eager under the same seed: {same}")
assert same  # with fallback_random=True the compiled code calls eager's random number generator
