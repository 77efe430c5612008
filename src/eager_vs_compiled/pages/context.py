"""The build context: what a page function knows of the build it renders for, as values.

The hook makes one per build (`BuildContext.of_this_machine`, where torch is imported once, for the
machine's facts) and hands it to the page layer with `use`; a test makes one from fixture records
(`BuildContext(machine=..., versions=...)`), so the pages render without torch. The page layer reads
the machine, its torch release and its profile here, never from `machine` or torch, and reads this
machine's records through `fresh_record`, which never measures: measuring is the `prepare` step
before the build (`python -m eager_vs_compiled prepare`, run by `./evc.sh site`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import freshness, store, workloads
from ..records import Record
from ..rounds import HARNESS_VERSION


@dataclass
class BuildContext:
    machine: dict  # this machine's facts (machine.describe()): slug, fingerprint, cpu, cores, gpus
    versions: dict  # what this build has installed (machine.versions()): torch, python, ...
    records: dict = field(default_factory=dict)  # workload -> this machine's fresh record or None, read once

    @property
    def slug(self) -> str:
        return self.machine["slug"]

    @property
    def torch(self) -> str:
        return self.versions["torch"]

    @property
    def release(self) -> str:
        return store.release(self.torch)

    @property
    def profile(self) -> str:
        """The profile this machine measures: gpu with a CUDA GPU (the same rule as the harness)."""
        return "gpu" if self.machine.get("gpus") else "cpu"

    @classmethod
    def of_this_machine(cls) -> BuildContext:
        from .. import machine

        return cls(machine.describe(), machine.versions())


_current: list[BuildContext] = []


def use(ctx: BuildContext) -> BuildContext:
    """Make `ctx` the context every page function reads (the hook, once per build; a test)."""
    _current[:] = [ctx]
    return ctx


def current() -> BuildContext:
    """The build's context; outside a build (the CLI's tables), this machine's."""
    if not _current:
        use(BuildContext.of_this_machine())
    return _current[0]


def fresh_record(name: str) -> Record | None:
    """This machine's record of a workload when it is fresh for this build (its machine, torch release,
    harness, spec and every mode of the profile), else None. Reads; never measures."""
    ctx = current()
    try:
        return ctx.records[name]
    except KeyError:
        pass
    w, found = workloads.get(name), None
    path = store.path_for(store.default_root(), ctx.slug, name, ctx.release)
    if w.in_profile(ctx.profile) and path.exists():
        rec = store.read(path, mine=ctx.slug)
        why = freshness.staleness(rec, ctx.machine, ctx.torch, HARNESS_VERSION, w.spec_hash(ctx.profile),
                                  w.modes[ctx.profile])
        found = rec if why is None else None
    ctx.records[name] = found
    return found


def measure_command(name: str) -> str:
    """The command that measures workload `name` on this machine."""
    return f"`./evc.sh measure --workload {name}`"
