"""The articles' `my_model` example, fixed: `x.t` is a method, so call it (`x.t()`) or use `x.T`."""
import torch


def my_model_as_published(x):
    return x.relu() @ x.t  # bug: x.t is the bound method, not the transpose


def my_model(x):
    # Python logic like this is fine under torch.compile too.
    return x.relu() @ x.t()


x = torch.randn(10, 10)

try:
    my_model_as_published(x)
except TypeError as err:
    print("as published:", type(err).__name__ + ":", err)
    published_error = err
else:
    raise AssertionError("the published version unexpectedly ran")

# Develop in eager: print and debug freely.
out_dev = my_model(x)
print("eager output shape:", tuple(out_dev.shape))

# Then wrap the same function for training or deployment.
compiled_model = torch.compile(my_model)
out_prod = compiled_model(x)
print("compiled output shape:", tuple(out_prod.shape))

assert isinstance(published_error, TypeError)
torch.testing.assert_close(out_prod, out_dev)
