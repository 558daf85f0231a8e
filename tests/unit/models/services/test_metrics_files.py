"""Multi-process metric files: files of dead processes are pruned, live ones kept."""

import os
import subprocess
import sys

from models.services.platform.metrics import prune_dead_process_files


def test_prune_keeps_live_processes_and_removes_dead_ones(tmp_path):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    for name in (f"counter_{os.getpid()}.db", f"gauge_livesum_{dead}.db", f"histogram_{dead}.db"):
        (tmp_path / name).write_bytes(b"")
    assert prune_dead_process_files(str(tmp_path)) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"counter_{os.getpid()}.db"]
