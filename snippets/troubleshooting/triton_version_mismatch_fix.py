"""Fix: compare the Triton that the installed torch names in its requirements with the one installed."""
import importlib.metadata
import re

import torch


def release(version):  # "3.9.0+git1a2b" -> (3, 9, 0): the release numbers, without a local tag
    return tuple(int(n) for n in re.findall(r"\d+", version.split("+")[0]))


def satisfies(installed, op, wanted):
    """The version operators torch's metadata uses: ==, >= and ~= (same release line, not older)."""
    have, want = release(installed), release(wanted)
    if op == "==":
        return installed == wanted or have == want and "+" not in wanted
    if op == "~=":
        return have >= want and have[:len(want) - 1] == want[:-1]
    return have >= want


requirements = importlib.metadata.requires("torch") or []
named = [r for r in requirements if re.match(r"(pytorch-)?triton\b", r)]
print(f"torch {torch.__version__} requires: {named or 'no Triton (not a Linux CUDA build)'}")
verdicts = []
for requirement in named:
    spec, _, marker = requirement.partition(";")
    name, op, wanted = re.match(r"\s*([\w-]+)\s*(==|~=|>=)\s*([\w.+]+)", spec).groups()
    try:
        installed = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        installed = None
    verdicts.append(installed is not None and satisfies(installed, op, wanted))
    print(f"{name} installed: {installed}; fits {op}{wanted}: {verdicts[-1]}" + (f" (where{marker})" if marker else ""))
    if not verdicts[-1]:
        print(f'to fix: pip install "{name}{op}{wanted}"')

# The rules on pairs like those of the page's messages (versions made up, the operators torch uses).
cases = {("3.9.0", "~=", "3.9.0"): True, ("3.9.4", "~=", "3.9.0"): True, ("3.10.0", "~=", "3.9.0"): False,
         ("3.8.1", "~=", "3.9.0"): False, ("3.1.0+git", "==", "3.1.0"): True, ("3.2.0", "==", "3.1.0"): False}
assert all(satisfies(*case) == fits for case, fits in cases.items())
assert all(verdicts), "the installed Triton does not fit this torch: install the version printed above"
