"""Loading games (the read side of the game layer's core): the per-game lock, the stored record, its envelope and the
one engine load of an action (:class:`Loader`, the base of :class:`bot.core.layer.GameLayer`)."""

from __future__ import annotations

import asyncio
import weakref
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from bot.core.envelope import Envelope, is_current
from bot.core.kind import GameKind, Snapshot
from bot.errors import BotError

if TYPE_CHECKING:
    from bot.storage import Storage
    from bot.storage.records import GameRecord

JUST_ENDED_S = 300.0
"""A command that finds no open game in a channel whose newest game finished this recently (s) is told that game
is over, not that there is none (a move that arrives just after a claim or a resignation ended it)."""


class Loader:
    """Reads games for the layer: ``kinds`` (registered games by name), ``loads`` (engine states built from storage;
    the bench counts them per action) and the per-game locks."""

    kinds: dict[str, GameKind]
    loads: int
    _locks: weakref.WeakValueDictionary[int, asyncio.Lock]

    @property
    def storage(self) -> Storage:
        raise NotImplementedError

    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock (one per game id in this process; forgotten when nobody holds or waits for it)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def kind_of(self, record: GameRecord) -> GameKind:
        kind = self.kinds.get(record.kind)
        if kind is None:
            raise BotError("err.no_such_game", game_id=record.id)
        return kind

    async def record(self, game_id: int, *, state: bool = True) -> GameRecord:
        """The stored game (``state=False``: without its state, see ``Storage.get_game``). Raises
        ``BotError("err.no_such_game")``."""
        record = await self.storage.get_game(game_id, state=state)
        if record is None or record.kind not in self.kinds:
            raise BotError("err.no_such_game", game_id=game_id)
        return record

    def envelope(self, record: GameRecord) -> Envelope:
        """The envelope of ``record`` (migrated if saved before version 2; cheap: no engine load)."""
        if is_current(record.state):
            return Envelope.from_dict(record.state)
        return self.kind_of(record).rules.migrate(record)

    def snapshot(self, record: GameRecord) -> Snapshot:
        """The game of ``record`` with its envelope (migrated if saved before version 2) and engine state (the
        one ``GameState.from_dict`` of an action). Raises ``StateError`` for a corrupt state."""
        kind = self.kind_of(record)
        env = self.envelope(record)
        state = None
        if env.engine is not None:
            state = kind.engine.from_dict(env.engine)
            self.loads += 1
        return Snapshot(kind, record, env, state)

    async def load(self, game_id: int) -> Snapshot:
        """:meth:`record` then :meth:`snapshot` (read-only: autocomplete, private views, the AI)."""
        return self.snapshot(await self.record(game_id))

    async def playing(self, game_id: int) -> Snapshot:
        """:meth:`load` for a view that offers actions (a hand with legal counts, hints, a discard select, a resign
        prompt): the one check, for buttons, selects and commands alike, that the game still plays. Raises
        ``BotError``: ``err.not_started`` (a lobby), ``err.game_closed`` (finished or aborted: what any action on it
        answers)."""
        snap = await self.load(game_id)
        still_playing(snap.record)
        return snap

    async def channel_record(
        self,
        channel_id: int,
        kind: GameKind | None = None,
        *,
        state: bool = True,
        user_id: int | None = None,
        ended: bool = False,
    ) -> GameRecord:
        """The open game in the channel (of ``kind`` if given), not loaded: for commands that only need its id
        and status (``state=False``: not even its state read). With no open game at all, and the channel's newest
        game (of ``kind``) finished within :data:`JUST_ENDED_S`: with ``ended``, that game (``/<game> board`` shows
        its final board, to anyone); else ``err.game_closed`` when ``user_id`` (the one asking, if given) played in
        it (a bystander is told there is no game, not to rematch one). Otherwise raises the kind's "no game here"
        refusal."""
        record = await self.storage.active_game_in_channel(channel_id, state=state)
        if record is None or record.kind not in self.kinds or (kind is not None and record.kind != kind.name):
            last = await self._just_ended(channel_id, kind) if record is None else None
            if last is not None and ended:
                return await self.record(last.id, state=state)
            if last is not None and (user_id is None or user_id in last.players):
                raise BotError("err.game_closed")  # a move that arrives just after its game ended: say so
            if kind is not None:
                raise kind.narration.no_game_here()
            raise BotError("err.no_game_in_channel")
        return record

    async def _just_ended(self, channel_id: int, kind: GameKind | None) -> GameRecord | None:
        """The channel's newest game (its state not read) if it is of ``kind`` (when given) and finished within
        :data:`JUST_ENDED_S`, else None."""
        last = await self.storage.latest_game_in_channel(channel_id)
        if last is None or last.status != "finished" or last.finished_at is None:
            return None
        if kind is not None and last.kind != kind.name:
            return None
        return last if (datetime.now(UTC) - last.finished_at).total_seconds() < JUST_ENDED_S else None

    async def shown_game(self, channel_id: int, kind: GameKind, *, user_id: int | None = None) -> Snapshot:
        """The game whose board ``/<game> board`` shows, loaded: :meth:`channel_record` with ``ended`` (the open
        game of ``kind``, else one that just finished). Raises as it does, ``err.not_started`` for a set-up."""
        record = await self.channel_record(channel_id, kind, user_id=user_id, ended=True)
        if record.status == "lobby":
            raise BotError("err.not_started")
        return self.snapshot(record)

    async def channel_game(
        self, channel_id: int, kind: GameKind | None = None, *, user_id: int | None = None
    ) -> Snapshot:
        """:meth:`channel_record` loaded (for commands that read the state; pass it on as ``base=``)."""
        return self.snapshot(await self.channel_record(channel_id, kind, user_id=user_id))

    async def channel_busy(self, channel_id: int) -> bool:
        """True if an open game (of any kind) holds the channel."""
        return await self.storage.active_game_in_channel(channel_id) is not None


def still_playing(record: GameRecord) -> None:
    """Refuse a view of actions on a game that does not play (any more): ``err.not_started`` for a lobby,
    ``err.game_closed`` (with its ``status``) once it is finished or aborted."""
    if record.status == "lobby":
        raise BotError("err.not_started")
    if record.status != "active":
        raise BotError("err.game_closed", status=record.status)
