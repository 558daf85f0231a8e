"""Percentiles and the machine description printed by the benchmarks."""

from __future__ import annotations

import math
import os
import platform
import sys


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of ``values``; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


def machine() -> str:
    memory = ""
    try:
        with open("/proc/meminfo") as handle:
            kb = int(handle.readline().split()[1])
            memory = f", {kb / 1024 / 1024:.1f} GiB RAM"
    except OSError:
        pass
    return (
        f"{os.cpu_count()} CPU (nproc){memory}, Python {sys.version.split()[0]}, "
        f"{platform.system()} {platform.release()}"
    )


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"
