"""Child process for the guard tests: ``python storage_child.py DB MODE [N]``.

Modes:
- ``hold``: open the database, print ``ready``, keep it open until stdin closes, close cleanly.
- ``games-then-kill N``: open, create N games (one per channel), print ``done`` and SIGKILL itself, so
  the committed data stays in the ``-wal`` (nothing checkpointed) as after a crash or ``docker kill``.
- ``open``: open and close; print ``ok`` or the error's class and message on one line (exit 3).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from bot.storage import Storage, StorageError


async def main(path: str, mode: str, n: int) -> int:
    if mode == "open":
        try:
            s = await Storage.open(path)
        except StorageError as err:
            print(f"{type(err).__name__}: {err}", flush=True)
            return 3
        await s.close()
        print("ok", flush=True)
        return 0
    s = await Storage.open(path)
    if mode == "hold":
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.read)
        await s.close()
        return 0
    base = len(await s.list_active_games()) + 1000
    for i in range(n):
        await s.create_game("conex", 1, base + i, {"i": i}, [1, 2], status="active")
    print("done", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    return 1


if __name__ == "__main__":
    args = sys.argv[1:]
    raise SystemExit(asyncio.run(main(args[0], args[1], int(args[2]) if len(args) > 2 else 0)))
