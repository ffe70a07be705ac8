"""``python -m bot healthcheck``: the exec probe (Docker's ``HEALTHCHECK``), standard library only.

It never imports discord, aiohttp or the storage (a probe runs every minute; importing discord alone takes
~2 s on a small machine). It reads the heartbeat file the running bot keeps in ``DATA_DIR`` (:mod:`bot.health`):
rewritten every 10 s while the gateway is connected and storage answers, deleted as soon as either fails or a
stop begins. Healthy (exit 0) when the file exists, was written within :data:`MAX_AGE_S`, and names a process that
is still running **and started when the file says** (``/proc/<pid>/stat`` start time), so a file left by a
previous run (a crash, a SIGKILL) never passes, even if the new process got the same pid. Else exit 1, one line
on stderr saying why.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path

HEARTBEAT_FILE = "heartbeat"
MAX_AGE_S = 45.0
"""Seconds a heartbeat stays good: the bot rewrites it every 10 s, so three missed writes and some slack."""


def proc_start_ticks(pid: int) -> int | None:
    """When process ``pid`` started, in clock ticks since boot (``/proc/<pid>/stat`` field 22); ``None`` when
    unknown (no ``/proc``, no such process)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    try:  # the command name (field 2) may hold spaces and parentheses: split after its last ")"
        return int(stat.rsplit(")", 1)[1].split()[19])
    except (IndexError, ValueError):
        return None


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def probe(data_dir: Path, *, now: float | None = None, max_age_s: float = MAX_AGE_S) -> tuple[int, str]:
    """``(0, "healthy: ...")`` or ``(1, "unhealthy: <why>")`` for the bot whose ``DATA_DIR`` is ``data_dir``."""
    path = data_dir / HEARTBEAT_FILE
    try:
        beat = json.loads(path.read_text())
        pid, written = int(beat["pid"]), float(beat["written"])
        started = beat.get("proc_start")
    except FileNotFoundError:
        return (
            1,
            f"unhealthy: no heartbeat file at {path} (the bot is not connected to Discord, its storage is "
            "not answering, it is stopping, or it is not running)",
        )
    except (OSError, ValueError, KeyError, TypeError) as err:
        return 1, f"unhealthy: unreadable heartbeat file {path}: {err}"
    age = (time.time() if now is None else now) - written
    if age > max_age_s:
        return 1, f"unhealthy: last heartbeat {age:.0f} s ago (more than {max_age_s:.0f} s)"
    if not _running(pid):
        return 1, f"unhealthy: the process {pid} that wrote the heartbeat is gone"
    current = proc_start_ticks(pid)
    if started is not None and current is not None and int(started) != current:
        return 1, f"unhealthy: the heartbeat was written by an earlier process {pid}, not the running one"
    return 0, f"healthy: last heartbeat {max(age, 0):.0f} s ago (pid {pid})"


def data_dir_from(env: Mapping[str, str]) -> Path:
    """``DATA_DIR`` as the bot reads it (``bot.config``, imported only when ``DATA_DIR`` is unset)."""
    text = env.get("DATA_DIR", "").strip()
    if text:
        return Path(text).expanduser()
    from bot.config import default_data_dir

    return default_data_dir(env)


def main(env: Mapping[str, str] | None = None) -> int:
    """Probe, print one line (stdout healthy, stderr not), return the exit code."""
    code, message = probe(data_dir_from(os.environ if env is None else env))
    print(message, file=sys.stdout if code == 0 else sys.stderr)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
