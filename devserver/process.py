"""Run the real bot (``python -m bot``) as a subprocess pointed at a ``DevServer``.

Used by the console (``python -m devserver``) and the e2e fixtures (``tests/e2e/conftest.py``). Several
processes may run against one server, each owning some shards (``shards=([0], 2)`` sets ``SHARD_COUNT`` and
``SHARD_IDS``); each then waits for and is killed by its own shards' sessions.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from devserver.server import DevServer


def _repo_root() -> Path:
    """The folder holding the ``bot`` package (located without importing it: the devserver never imports the bot)."""
    spec = importlib.util.find_spec("bot")
    if spec is None or spec.origin is None:
        return Path(__file__).resolve().parents[1]
    return Path(spec.origin).resolve().parents[1]


REPO = _repo_root()
READY_TIMEOUT_S = 45.0


class BotExited(RuntimeError):
    """The bot process ended while we waited for it; ``log`` holds the end of its output."""

    def __init__(self, returncode: int, log: str) -> None:
        super().__init__(f"`python -m bot` exited with {returncode}:\n{log}")
        self.returncode = returncode
        self.log = log


class BotProcess:
    """``python -m bot`` with ``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``, ``DEV_GUILD_ID``
    from ``server.env(token)`` and ``DATA_DIR=data_dir``; stdout and stderr appended to ``log_path``.

    ``shards=(shard_ids, shard_count)`` adds ``SHARD_COUNT`` and ``SHARD_IDS`` (comma-separated) to the
    environment; the process is then ready when each of its shards has a live session, and ``kill`` waits for
    those sessions only (other processes keep theirs). ``extra_env`` overrides anything (e.g.
    ``{"DEV_GUILD_ID": ""}`` for a global command sync, needed to play in guilds other than the default one).
    """

    def __init__(
        self,
        server: DevServer,
        data_dir: Path,
        log_path: Path,
        *,
        token: str = "devserver-token",
        extra_env: dict[str, str] | None = None,
        shards: tuple[Sequence[int], int] | None = None,
    ) -> None:
        self.server = server
        self.data_dir = Path(data_dir)
        self.log_path = Path(log_path)
        self.token = token
        self.extra_env = extra_env or {}
        self.shards = (list(shards[0]), shards[1]) if shards is not None else None
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def shard_keys(self) -> list[tuple[int, int]]:
        """The ``(shard_id, shard_count)`` sessions this process holds (``[]``: unsharded, any session)."""
        return [(i, self.shards[1]) for i in self.shards[0]] if self.shards else []

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
        env.update(self.server.env(self.token))
        env.update({"DATA_DIR": str(self.data_dir), "PYTHONUNBUFFERED": "1"})
        # a machine with PYTHONDONTWRITEBYTECODE (CI's has it) would compile every module again at each bot start
        # (~0.12 s of CPU): the bots write bytecode like a developer's checkout (``__pycache__/`` is ignored by git)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if self.shards is not None:
            env.update({"SHARD_COUNT": str(self.shards[1]), "SHARD_IDS": ",".join(map(str, self.shards[0]))})
        env.setdefault("LOG_LEVEL", "INFO")
        # test and bench runs open many games per member in one guild: caps out of the way unless a test sets them
        # (an empty value in ``extra_env`` restores the bot's own defaults, bot/services/caps.py)
        for name in ("GAMES_PER_MEMBER", "GAMES_PER_SERVER", "GAME_THREADS"):
            env.setdefault(name, "100000")
        # games stay in their channel (the tests read them there) unless a test asks for a thread per game
        env.setdefault("THREAD_PER_GAME", "0")
        # every guild arrives right after READY here: no need for discord.py's 2 s wait before on_ready (recovery)
        env.setdefault("TABLEBOT_GUILD_READY_S", "0.25")
        env.update(self.extra_env)
        return env

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def log(self, tail: int = 0) -> str:
        """What the bot printed so far (all runs); the last ``tail`` characters when ``tail`` > 0."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text[-tail:] if tail else text

    async def start(self, *, wait: bool = True, timeout: float = READY_TIMEOUT_S) -> None:  # noqa: ASYNC109
        """Start the bot; with ``wait``, return once it has identified and commands are synced.

        Raises ``BotExited`` if the process ends first, ``TimeoutError`` after ``timeout`` s.
        """
        self.starts += 1
        identified = self.server.identify_count
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("a") as log:
            log.write(f"\n===== bot start #{self.starts} =====\n")
            log.flush()
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=str(REPO), env=self.env, stdout=log, stderr=asyncio.subprocess.STDOUT
            )
        if wait:
            await self.wait_ready(identified, timeout)

    async def wait_ready(self, identified_before: int = 0, timeout: float = READY_TIMEOUT_S) -> None:  # noqa: ASYNC109
        """Wait for an IDENTIFY after ``identified_before`` and synced commands (see ``start``)."""
        s = self.server

        def ready() -> bool:
            if not self.running:
                return True
            if self.shard_keys:
                connected = all(s.gateway.shard_ready(k, identified_before) for k in self.shard_keys)
            else:
                connected = s.identify_count > identified_before and s.bot_connected
            return connected and bool(s.all_commands())

        await s.wait_until(ready, timeout, "the bot process to connect and sync its commands")
        if self.proc is not None and self.proc.returncode is not None:
            raise BotExited(self.proc.returncode, self.log(4000))

    def _sockets_closed(self) -> bool:
        if self.shard_keys:
            return not set(self.shard_keys) & self.server.gateway.live_shards()
        return not self.server.bot_connected

    async def kill(self) -> None:
        """SIGKILL (no cleanup, like a crash) and wait until the server sees its sockets close."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        await self.server.wait_until(self._sockets_closed, 10, "the killed bot's sockets to close")

    async def restart(self) -> None:
        """Kill, then start again on the same DATA_DIR and wait until ready."""
        await self.kill()
        await self.start()

    async def stop(self) -> None:
        """SIGTERM, then SIGKILL after 5 s."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()
