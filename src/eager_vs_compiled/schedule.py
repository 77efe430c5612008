"""Several measurements in turn: generators that pause after each round, run one round each in turn.

A workload's measurement (measure.workload_steps) yields after every round of fresh processes and
returns its record. `interleave` runs round 1 of every workload, then round 2 of those still going, and
so on, the order turning by one each pass, so that the workloads' processes spread over the whole run:
a slow window of the machine (a neighbour on the host, a thermal or power state) then falls on a few
processes of each workload, where the interval sees it, instead of on every process of one workload,
where it moves that workload's number and no interval can tell. `aim` is the run's time for the rounds
beyond each workload's minimum, which its workloads share. Standard library only.
"""

from __future__ import annotations

import os
import time
from typing import Generator, Iterator, TypeVar

T = TypeVar("T")
Steps = Generator[None, None, T]
AIM_ENV = "EVC_AIM_S"


class SettingError(ValueError):
    """A setting of the harness in the environment (EVC_AIM_S, EVC_BUDGET_S) that it cannot use."""


def aim_seconds(default_s: float) -> float:
    """The seconds a run's rounds beyond the minimum may take: EVC_AIM_S where it is set (more buys
    narrower intervals, 0 runs the minimum only, inf sets none), else `default_s`. SettingError names a
    value that is not a number of seconds; the CLI calls it first, so a bad value stops a run before
    anything is measured."""
    raw = os.environ.get(AIM_ENV, "").strip()
    try:
        seconds = float(raw) if raw else default_s
    except ValueError:
        seconds = float("nan")
    if not seconds >= 0:  # also refuses nan
        raise SettingError(f"{AIM_ENV} must be a number of seconds, 0 or more, not {raw!r}")
    return seconds


def aim(default_s: float) -> float:
    """The time (time.monotonic()) by which a run's rounds beyond the minimum should end (aim_seconds
    from now)."""
    return time.monotonic() + aim_seconds(default_s)


def drain(steps: Steps) -> T:
    """Run a generator to its end and return what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def interleave(steps: dict[str, Steps], errors: type[Exception] | tuple = (), together: bool = True
               ) -> Iterator[tuple[str, T | None, Exception | None]]:
    """(name, result, None) for each generator as it returns, or (name, None, error) when it raised one
    of `errors` (the others stop it all). `together`: one step of each in turn, the order turning by one
    each pass; else each run to its end before the next starts. Generators left when the caller stops
    early (an interrupt) are closed, so that their temporary folders go."""
    order = list(steps)
    try:
        turn = 0
        while order:
            this = order[turn % len(order):] + order[:turn % len(order)] if together else order[:1]
            turn += 1
            for name in this:
                try:
                    next(steps[name])
                    continue
                except StopIteration as done:
                    got = (name, done.value, None)
                except errors as e:
                    got = (name, None, e)
                order.remove(name)
                yield got
    finally:
        for name in order:
            steps[name].close()
