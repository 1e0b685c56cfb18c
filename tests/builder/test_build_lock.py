"""Two builds into one directory wait for each other instead of interleaving writes."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from lexicon_server.builder.config import exclusive


def test_exclusive_blocks_a_second_holder_until_released(tmp_path: Path) -> None:
    lock = tmp_path / "out" / ".build" / "lock"
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from lexicon_server.builder.config import exclusive\n"
        "with exclusive(Path(sys.argv[1])):\n"
        "    print('got', flush=True)\n"
    )
    with exclusive(lock):
        waiter = subprocess.Popen(
            [sys.executable, "-c", script, str(lock)], stdout=subprocess.PIPE, text=True
        )
        time.sleep(1.0)  # ample time to start and block on the lock
        assert waiter.poll() is None
    out, _ = waiter.communicate(timeout=60)
    assert out.strip() == "got"
    assert waiter.returncode == 0
