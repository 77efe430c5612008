"""Several measurements in turn: generators that pause after each round, run one round each in turn.

A workload's measurement (measure.workload_steps) yields after every round of fresh processes and
returns its record. `interleave` runs round 1 of every workload, then round 2 of those still going, and
so on, the order turning by one each pass, so that the workloads' processes spread over the whole run:
a slow window of the machine (a neighbour on the host, a thermal or power state) then falls on a few
processes of each workload, where the interval sees it, instead of on every process of one workload,
where it moves that workload's number and no interval can tell. Standard library only.
"""

from __future__ import annotations

from typing import Generator, Iterator, TypeVar

T = TypeVar("T")
Steps = Generator[None, None, T]


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
