"""Records of finished games (issue 16), for every registered game: the record JSON the engine replays, the animated
replay and the move list. Game-agnostic: a game takes part through what its plug-in names: ``kind.engine`` (the
``GameState`` class its records are replayed with) and, for the replay and the move list, ``kind.replay`` (a
:class:`render.replay.ReplayRenderer`); a game whose ``replay`` is ``None`` still gets its record.

Visibility: only a **finished** game of the **asking guild** (:meth:`Records.finished`). A running game is refused
(its setup may hold what players must not see yet, e.g. a shuffle seed), an aborted one has no record, and a game
of another guild is refused exactly like a game that does not exist (nothing about it leaks).

Caching (README design notes): a replay is a pure function of the stored game (setup + history + names), so it is
rendered once per (game, theme) off the event loop (the layer's CPU seam), kept in a bounded in-memory LRU cache
(:data:`REPLAY_CACHE_BYTES`), and rendered again deterministically after a restart (a few seconds of CPU, at most
:data:`MAX_RENDERS` at once) instead of storing ~0.5 MB per game in the database. Concurrent requests for the same
replay share one render.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import BotError
from bot.i18n import image_words
from bot.services.looks import DEFAULT, Look
from engine.record import export_record

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer
    from render.replay import ReplayRenderer

log = logging.getLogger(__name__)

REPLAY_CACHE_BYTES = 64 * 1024 * 1024
"""Most bytes of GIF replays kept in memory (least recently used dropped first): ~100 typical replays."""
MAX_RENDERS = 2
"""Replays rendered at the same time (each is 1-4 s of one core); more requests wait their turn."""
JSON_FILENAME = "game-{game}.json"
REPLAY_FILENAME = "replay-{game}.gif"


def record_of(snap: Snapshot) -> dict[str, Any]:
    """The record (``engine.record.export_record``) of a finished game: setup, history, display names by seat,
    outcome, and ``meta`` = ``{"game_id", "title", "finished_at"}`` (ISO 8601 UTC, when known). Raises
    ``ValueError`` for a game that is not over."""
    state = snap.require_state()
    finished = snap.record.finished_at or snap.record.updated_at
    meta = {"game_id": snap.id, "title": snap.kind.title, "finished_at": finished.isoformat()}
    return export_record(state, names=snap.names, meta=meta)


def record_json(record: dict[str, Any]) -> bytes:
    """The record as the downloadable JSON file's bytes (UTF-8, one field per line)."""
    return json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")


def json_file(snap: Snapshot) -> discord.File:
    """A fresh attachment ``game-<id>.json`` holding the record of ``snap``, signed (``bot/signing.py``)."""
    from bot.signing import sign

    return discord.File(io.BytesIO(record_json(sign(record_of(snap)))), filename=JSON_FILENAME.format(game=snap.id))


class NoReplay(Exception):
    """The game's plug-in names no replay renderer (``kind.replay is None``): only its record can be shown."""


def _renderer(snap: Snapshot) -> ReplayRenderer | None:
    """The replay renderer ``snap``'s kind names (``None``: records only)."""
    return snap.kind.replay


def _render(record: dict[str, Any], renderer: ReplayRenderer, look: Look, words: Any = None) -> bytes:
    """The CPU job of a replay (module level; the record is plain data, the renderer pickles by reference and the
    look and words are plain data, so a process pool can run it)."""
    from render.replay import render_replay

    return render_replay(record, renderer, words=words, **look.kwargs())


def _pages(record: dict[str, Any], renderer: ReplayRenderer, limit: int, words: Any = None) -> list[str]:
    """The CPU job of a move list: the full list in messages of at most ``limit`` characters."""
    from render.replay_moves import move_list_pages

    return move_list_pages(record, renderer, limit=limit, words=words)


def _text(record: dict[str, Any], renderer: ReplayRenderer, limit: int, words: Any = None) -> str:
    """The CPU job of a one-message move list (full, else compact, else cut with a note)."""
    from render.replay_moves import move_list_text

    return move_list_text(record, renderer, limit=limit, words=words)


class Records:
    """Records, replays and move lists of finished games (see the module docstring). One per game layer
    (``layer.records``). ``renders`` counts replays actually rendered (a cache hit renders nothing)."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self.cache_bytes = REPLAY_CACHE_BYTES
        self._gifs: OrderedDict[tuple[int, Look, str], bytes] = OrderedDict()  # (game, look, language)
        self._size = 0
        self._pending: dict[tuple[int, Look, str], asyncio.Future[bytes]] = {}
        self._slots: asyncio.Semaphore | None = None
        self.renders = 0

    async def finished(self, game_id: int, guild_id: int | None) -> Snapshot:
        """The finished game ``game_id`` of ``guild_id``, loaded.

        Raises:
            BotError: ``rec.not_found`` (no such game, a game of another guild or of an unregistered kind, or no
                guild), ``rec.running`` (lobby or active: its record would show what is still hidden),
                ``rec.aborted`` (aborted: no result, no record).
        """
        record = await self.layer.storage.get_game(int(game_id)) if 0 < int(game_id) < 2**63 else None
        if record is None or guild_id is None or record.guild_id != guild_id or record.kind not in self.layer.kinds:
            raise BotError("rec.not_found", game_id=game_id)
        if record.status == "aborted":
            raise BotError("rec.aborted", game_id=game_id)
        if record.status != "finished":
            raise BotError("rec.running", game_id=game_id)
        return self.layer.snapshot(record)

    # -- replays -----------------------------------------------------------------------------------------------
    def cached(self, game_id: int, look: Look = DEFAULT, lang: str = "en") -> bytes | None:
        """The cached replay of ``game_id`` in ``look`` and ``lang`` (``None``: not rendered since the start, or
        dropped)."""
        return self._gifs.get((game_id, look, lang))

    async def replay(self, snap: Snapshot, look: Look = DEFAULT, locale: str | discord.Locale | None = None) -> bytes:
        """The animated GIF replay of a finished game (``render.replay.render_replay``: one frame per action and
        the start, bounded in frames and bytes) in ``look`` (a private answer: the reader's), its words in
        ``locale``'s language (default English), rendered off the event loop once per look and language and cached.

        Raises:
            NoReplay: the game's kind names no replay renderer.
            StateError / ValueError: the stored game does not replay (logged by the caller).
        """
        snap.require_state()
        renderer = _renderer(snap)
        if renderer is None:
            raise NoReplay(snap.kind.name)
        words = image_words(locale)
        key = (snap.id, look, words.lang)
        gif = self._gifs.get(key)
        if gif is not None:
            self._gifs.move_to_end(key)
            return gif
        pending = self._pending.get(key)
        if pending is None:
            pending = asyncio.ensure_future(self._render(key, record_of(snap), renderer, look, words))
            self._pending[key] = pending
            pending.add_done_callback(lambda _f: self._pending.pop(key, None))
        return await asyncio.shield(pending)

    async def _render(
        self, key: tuple[int, Look, str], record: dict[str, Any], renderer: ReplayRenderer, look: Look, words: Any
    ) -> bytes:
        if self._slots is None:
            self._slots = asyncio.Semaphore(MAX_RENDERS)
        async with self._slots:
            gif: bytes = await self.layer.cpu_background(_render, record, renderer, look, words)
        self.renders += 1
        self._keep(key, gif)
        return gif

    def _keep(self, key: tuple[int, Look, str], gif: bytes) -> None:
        if len(gif) > self.cache_bytes:
            return
        old = self._gifs.pop(key, None)
        if old is not None:
            self._size -= len(old)
        self._gifs[key] = gif
        self._size += len(gif)
        while self._size > self.cache_bytes:
            _key, dropped = self._gifs.popitem(last=False)
            self._size -= len(dropped)

    # -- move lists --------------------------------------------------------------------------------------------
    async def move_pages(self, snap: Snapshot, limit: int, locale: str | discord.Locale | None = None) -> list[str]:
        """The full move list of a finished game in messages of at most ``limit`` characters (off the loop), in
        ``locale``'s language; ``[]`` for a game without a replay renderer."""
        return await self._moves(snap, _pages, limit, [], locale)

    async def move_text(self, snap: Snapshot, limit: int, locale: str | discord.Locale | None = None) -> str:
        """The move list in one message of at most ``limit`` characters (compact or cut when long), in
        ``locale``'s language; ``""`` for a game without a replay renderer."""
        return await self._moves(snap, _text, limit, "", locale)

    async def _moves(
        self,
        snap: Snapshot,
        job: Callable[[dict[str, Any], ReplayRenderer, int, Any], Any],
        limit: int,
        empty: Any,
        locale: str | discord.Locale | None,
    ) -> Any:
        snap.require_state()
        renderer = _renderer(snap)
        if renderer is None:
            return empty
        work: Awaitable[Any] = self.layer.cpu(job, record_of(snap), renderer, limit, image_words(locale))
        return await work
