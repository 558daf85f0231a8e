"""CPU time per process kind during a benchmark phase, read from /proc (Linux).

A sampler thread reads utime + stime of every process it is told about (a ``kinds()`` callback
mapping pid -> kind, asked again every five seconds) twice a second. A process seen at the start
counts from its value then; one born later counts from zero; one that exits between two samples
loses at most its last half second. The figures are CPU seconds per kind over the phase, whatever core they ran on.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of ``pid`` (its own threads, not its children), or None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command name: state is field 3, utime field 14, stime field 15 (1-based, man proc).
    return (int(fields[11]) + int(fields[12])) / TICKS


def command_line(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def pids_named(name: str) -> list[int]:
    """Processes whose command name (comm) is ``name``."""
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == name:
                found.append(int(comm.parent.name))
        except OSError:
            continue
    return found


class CpuSampler:
    """``with CpuSampler(kinds) as sampler: ...``; then ``sampler.totals()``: {kind: CPU seconds}."""

    def __init__(self, kinds: Callable[[], dict[int, str]], interval: float = 0.5, refresh: float = 5.0) -> None:
        self.kinds = kinds
        self.interval = interval
        # Finding the processes walks all of /proc (and asks PostgreSQL for its backends): about
        # 25 ms of this process's CPU each time, a twentieth of a core at two samples a second,
        # taken from the service it measures. The processes barely change during a phase, so the
        # map is refreshed every ``refresh`` seconds; one born meanwhile counts from zero when seen.
        self.refresh = refresh
        self._known: dict[int, str] = {}
        self._known_at = float("-inf")
        self._start: dict[int, float] = {}
        self._last: dict[int, tuple[str, float]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cpu-sampler", daemon=True)
        self._lock = threading.Lock()

    def __enter__(self) -> CpuSampler:
        for pid, kind in self._kinds(fresh=True).items():
            value = cpu_seconds(pid)
            if value is not None:
                self._start[pid] = value
                self._last[pid] = (kind, value)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.sample(fresh=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.sample()
            except Exception:  # a figure is lost, the benchmark goes on
                continue

    def _kinds(self, fresh: bool = False) -> dict[int, str]:
        if fresh or time.monotonic() - self._known_at >= self.refresh:
            self._known, self._known_at = self.kinds(), time.monotonic()
        return self._known

    def sample(self, fresh: bool = False) -> None:
        for pid, kind in self._kinds(fresh).items():
            value = cpu_seconds(pid)
            if value is not None:
                with self._lock:
                    self._last[pid] = (kind, value)

    def totals(self) -> dict[str, float]:
        result: dict[str, float] = {}
        with self._lock:
            for pid, (kind, value) in self._last.items():
                result[kind] = result.get(kind, 0.0) + value - self._start.get(pid, 0.0)
        return result


def print_cpu(totals: dict[str, float], proposals: int, wall: float, notes: dict[str, str] | None = None) -> None:
    """CPU ms per proposal per kind, and each kind's share of one core over the phase."""
    if not totals:
        return
    print("  CPU per process kind (from /proc; ms per proposal, cores busy on average):")
    for kind, seconds in sorted(totals.items(), key=lambda item: -item[1]):
        note = f"  ({notes[kind]})" if notes and kind in notes else ""
        print(f"    {kind:<34}{seconds * 1000 / max(1, proposals):>9.1f} ms{seconds / wall:>8.2f}{note}")
    own = sum(seconds for kind, seconds in totals.items() if not (notes and kind in notes))
    print(f"    {'total (without shared servers)':<34}{own * 1000 / max(1, proposals):>9.1f} ms{own / wall:>8.2f}")
