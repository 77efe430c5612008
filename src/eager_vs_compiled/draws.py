"""The speedup and time distributions the pages read, each computed once per process and seeded from
its key (stats.py's draws, cached): every page, and both editions, showing the same series read the
same distribution, and a page built twice draws the same interval. Standard library only."""

from __future__ import annotations

import functools

from . import stats


@functools.lru_cache(maxsize=None)
def paired_speedup_dist(eager: tuple[tuple[float, ...], ...], mode: tuple[tuple[float, ...], ...],
                        key: tuple, run_sd: float = 0.0, host: stats.Host | None = None) -> tuple[float, ...]:
    """paired_speedups shuffled by `key`, computed once per process (see speedup_dist)."""
    return tuple(stats.paired_speedups([list(p) for p in eager], [list(p) for p in mode], stats.seeded_rng(*key),
                                       run_sd=run_sd, host=host))


@functools.lru_cache(maxsize=None)
def boot_paired_dist(eager: tuple[tuple[float, ...], ...], mode: tuple[tuple[float, ...], ...],
                     key: tuple) -> tuple[float, ...]:
    """boot_paired_speedups seeded from `key`, drawn once per process (see speedup_dist)."""
    return tuple(stats.boot_paired_speedups([list(p) for p in eager], [list(p) for p in mode], stats.seeded_rng(*key)))


@functools.lru_cache(maxsize=None)
def speedup_dist(eager: tuple[float, ...], compiled: tuple[float, ...], key: tuple) -> tuple[float, ...]:
    """boot_speedups seeded from `key`, drawn once per process: every page (and both editions)
    showing the same pair of series reads the same distribution."""
    return tuple(stats.boot_speedups(list(eager), list(compiled), stats.seeded_rng(*key)))


@functools.lru_cache(maxsize=None)
def process_median_dist(processes: tuple[tuple[float, ...], ...], key: tuple) -> tuple[float, ...]:
    """boot_process_medians seeded from `key`, drawn once per process (see speedup_dist)."""
    return tuple(stats.boot_process_medians([list(p) for p in processes], stats.seeded_rng(*key)))


@functools.lru_cache(maxsize=None)
def process_speedup_dist(eager: tuple[tuple[float, ...], ...], mode: tuple[tuple[float, ...], ...],
                         key: tuple, run_sd: float = 0.0) -> tuple[float, ...]:
    """boot_process_speedups seeded from `key`, drawn once per process (see speedup_dist)."""
    e, m = [list(p) for p in eager], [list(p) for p in mode]
    return tuple(stats.boot_process_speedups(e, m, stats.seeded_rng(*key), run_sd=run_sd))


@functools.lru_cache(maxsize=None)
def median_dist(samples: tuple[float, ...], key: tuple) -> tuple[float, ...]:
    """boot_medians seeded from `key`, drawn once per process (see speedup_dist)."""
    return tuple(stats.boot_medians(list(samples), stats.seeded_rng(*key)))
