"""What the benchmarks share: timing a piece of work over repeats, and one line of figures."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable


def timed(work: Callable[[], object], repeats: int) -> list[float]:
    """Wall-clock milliseconds of each run (garbage collection done between runs)."""
    return _runs(work, repeats, time.perf_counter)


def cpu_timed(work: Callable[[], object], repeats: int) -> list[float]:
    """Thread CPU milliseconds: on a shared machine the wall clock includes waiting."""
    return _runs(work, repeats, time.thread_time)


def _runs(work: Callable[[], object], repeats: int, clock: Callable[[], float]) -> list[float]:
    times = []
    for _ in range(repeats):
        gc.collect()
        start = clock()
        work()
        times.append((clock() - start) * 1000)
    return times


def describe(label: str, times: list[float], width: int = 50) -> str:
    """The median, min, 90th percentile and max of `times` (ms), after the label."""
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (f"  {label:<{width}} median {statistics.median(times):8.1f} ms   "
            f"min {ordered[0]:8.1f}   p90 {p90:8.1f}   max {ordered[-1]:8.1f}   (n={len(times)})")
