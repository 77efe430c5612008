"""eager-vs-compiled: measure PyTorch eager vs torch.compile, and render the numbers for the site."""

__version__ = "0.1.0"
