"""A test seam for stalled storage: with ``$TABLEBOT_STORAGE_STALL_FILE`` set (the e2e tests set it), every storage
call first waits until the wall-clock time (epoch seconds) written in that file, as if another process held the
database (missing, empty, unreadable or past: no wait).

The file is read at each call, so a test can stall the running bot's storage for a while without a restart.
Unset (production), nothing is read and nothing waits.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

ENV = "TABLEBOT_STORAGE_STALL_FILE"


class StorageStall:
    """Waits until the time read from ``path`` before every storage call."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def from_env(cls) -> StorageStall | None:
        value = os.environ.get(ENV)
        return cls(Path(value)) if value else None

    def until(self) -> float:
        try:
            return float(self.path.read_text().strip() or 0)
        except (OSError, ValueError):
            return 0.0

    async def wait(self) -> None:
        left = self.until() - time.time()
        if left > 0:
            await asyncio.sleep(left)
