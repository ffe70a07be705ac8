"""The game-service base: load -> per-game lock -> engine action -> version-checked commit.

Every action of every game goes through :meth:`GameService.transact`, whoever makes it (a slash
command, a button, the AI, a scheduler), so two simultaneous actions on one game can never both
apply: the per-game ``asyncio.Lock`` serialises them in this process and the storage version
check (``apply_action(expected_version=...)``) refuses the loser across processes. The loser gets
a :class:`~bot.errors.BotError` (``err.conflict`` or ``err.stale``) and nothing changes.

Board messages (the recovery hook, see ``docs/bot.md``): the game's current board message is stored
under the message key ``"board"`` and the version it shows under ``"board.version"`` (a number, not a
message id: :meth:`GameService.message_ids` leaves such keys out). :meth:`GameService.publish_lock`
serialises publishing per game; :meth:`GameService.record_board` (called under that lock) keeps the
newest board and names the message to strip; :meth:`GameService.board_stale` tells whether the
game's state has moved past its last board (``bot.app.TableBot.recover_boards`` re-posts those).

Rendering (Pillow) runs in a worker thread (:meth:`GameService.render_png`) so the event loop and
the gateway heartbeat never wait for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.errors import BotError
from bot.storage import Storage
from bot.storage.errors import ChannelBusyError, GameClosedError, GameNotFoundError, VersionConflictError
from bot.storage.records import GameRecord, GameResult
from engine.protocol import Outcome

log = logging.getLogger(__name__)

BOARD_KEY = "board"
"""Message key of a game's current board message."""
BOARD_VERSION_KEY = "board.version"
"""Key (in ``GameRecord.messages``) of the game version the current board shows; not a message id."""
VERSION_SUFFIX = ".version"
"""Message keys ending with this hold a version, not a message id."""
BOARD_STATUSES: tuple[str, ...] = ("active", "finished")
"""Statuses in which a game shows a board reflecting its latest version (a lobby has none; an
aborted game keeps its last board, stripped)."""


def outcome_result(
    outcome: Outcome, players: list[int], *, rated: bool, ai: tuple[int, ...] = ()
) -> dict[str, Any]:
    """The result handed to storage for a finished game (the shared result dict): the engine's ranking (seat
    groups, best first) as user-id groups, ``rated``, each user's W/D/L as the game counts it (``results``),
    the ``reason`` code and ``scores``; ``ai`` names AI seats whose id is not negative (Constructo's)."""
    result: dict[str, Any] = {
        "ranking": [[players[s] for s in group] for group in outcome.ranking],
        "rated": rated,
        "results": {players[s]: str(r) for s, r in enumerate(outcome.results)},
        "reason": outcome.reason,
        "scores": None if outcome.scores is None else {players[s]: int(v) for s, v in enumerate(outcome.scores)},
    }
    if ai:
        result["ai"] = list(ai)
    return result


@dataclass(frozen=True)
class Change:
    """What an engine step decided, for :meth:`GameService.transact` to commit.

    ``state`` is the new engine ``to_dict()`` (wrapped as the service stores it), ``action`` the
    action text for the log (``"M5"``, ``"accept"``...), ``status`` a new game status
    (``"active" | "finished" | "aborted"``) or ``None`` to keep it, ``result`` the ranking when the
    game finished (``GameResult`` or ``{"ranking": [[...]], "rated": bool}``), ``players`` a new
    seat list or ``None``, ``info`` free data handed back to the caller (events for messages).
    """

    state: dict[str, Any]
    action: str
    status: str | None = None
    result: GameResult | dict[str, Any] | None = None
    players: list[int] | None = None
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Committed:
    """A committed action: the game as now stored (``record``), the game's ``before`` version and
    the step's ``info``."""

    record: GameRecord
    before: GameRecord
    action: str
    actor: int | None
    info: dict[str, Any]

    @property
    def finished(self) -> bool:
        """True once the game is ``finished`` or ``aborted``."""
        return self.record.status in ("finished", "aborted")


class GameService:
    """Shared machinery of a game kind's service. Subclasses set ``kind`` and add game verbs.

    Args:
        storage: the open :class:`bot.storage.Storage`.
        bot_user_id: the bot's own user id (the AI's seat id), or ``None`` when unknown.
    """

    kind: ClassVar[str] = ""

    def __init__(self, storage: Storage, *, bot_user_id: int | None = None) -> None:
        self.storage = storage
        self.bot_user_id = bot_user_id
        self._locks: dict[int, asyncio.Lock] = {}
        self._publish_locks: dict[int, asyncio.Lock] = {}

    # -- loading -------------------------------------------------------------------------------
    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock (created on first use; one per game id in this process)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def publish_lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock held while a board message is posted and recorded (and while messages
        are stripped), so two boards of one game are never recorded out of order. Distinct from
        :meth:`lock`: actions never wait for Discord."""
        lock = self._publish_locks.get(game_id)
        if lock is None:
            lock = self._publish_locks[game_id] = asyncio.Lock()
        return lock

    async def get(self, game_id: int) -> GameRecord:
        """The stored game of this kind. Raises ``BotError("err.no_such_game")`` if absent."""
        record = await self.storage.get_game(game_id)
        if record is None or record.kind != self.kind:
            raise BotError("err.no_such_game", game_id=game_id)
        return record

    async def in_channel(self, channel_id: int) -> GameRecord | None:
        """The open game (lobby or active) of any kind in this channel or thread, or ``None``."""
        return await self.storage.active_game_in_channel(channel_id)

    async def channel_game(self, channel_id: int) -> GameRecord:
        """The open game of THIS kind in the channel. Raises ``BotError("err.no_game_here")``."""
        record = await self.in_channel(channel_id)
        if record is None or record.kind != self.kind:
            raise BotError("err.no_game_here", game=self.kind.capitalize())
        return record

    @staticmethod
    def seat_of(record: GameRecord, user_id: int) -> int:
        """The seat (0-based engine player) of ``user_id``. Raises ``BotError("err.not_player")``."""
        try:
            return record.players.index(user_id)
        except ValueError:
            raise BotError("err.not_player") from None

    def is_ai(self, user_id: int) -> bool:
        """True if ``user_id`` is the bot itself (an AI seat)."""
        return self.bot_user_id is not None and user_id == self.bot_user_id

    # -- writing -------------------------------------------------------------------------------
    async def create(
        self, *, guild_id: int, channel_id: int, state: dict[str, Any], players: list[int], status: str
    ) -> GameRecord:
        """Create a game in the channel. Raises ``BotError("err.channel_busy")`` when the channel
        already holds an open game."""
        try:
            game_id = await self.storage.create_game(self.kind, guild_id, channel_id, state, players, status=status)
        except ChannelBusyError as err:
            raise BotError("err.channel_busy", game_id=err.details.get("game_id", "?")) from err
        return await self.get(game_id)

    async def transact(
        self,
        game_id: int,
        step: Callable[[GameRecord], Change],
        *,
        actor: int | None,
        expected_version: int | None = None,
        statuses: tuple[str, ...] = ("active",),
    ) -> Committed:
        """Run ``step`` on the freshly loaded game under its lock and commit what it returns.

        Args:
            game_id: the game.
            step: a synchronous function (engine work, fast) ``record -> Change``; it raises
                ``RuleError``/``BotError`` to refuse, and then nothing is written.
            actor: the acting user id (``None`` = the bot itself).
            expected_version: the version the actor saw (a button's custom id); a different stored
                version raises ``BotError("err.stale")``.
            statuses: statuses in which the step may run (default only ``active``).

        Raises:
            BotError: ``err.no_such_game``, ``err.stale``, ``err.game_closed``, ``err.conflict``.
            RuleError: whatever the engine refused (rule code inside).
        """
        async with self.lock(game_id):
            before = await self.get(game_id)
            if before.status not in statuses:
                if before.status == "lobby":
                    raise BotError("err.not_started")
                raise BotError("err.game_closed" if not before.is_open else "err.wrong_phase", status=before.status)
            if expected_version is not None and before.version != expected_version:
                raise BotError("err.stale")
            change = step(before)
            try:
                await self.storage.apply_action(
                    game_id,
                    before.version,
                    change.state,
                    player=actor,
                    action=change.action,
                    status=change.status,
                    players=change.players,
                    result=change.result,
                )
            except VersionConflictError as err:
                raise BotError("err.conflict") from err
            except (GameClosedError, GameNotFoundError) as err:
                raise BotError("err.game_closed", status="closed") from err
            after = await self.get(game_id)
        log.info("game %s (%s) v%s: %s by %s", game_id, self.kind, after.version, change.action, actor)
        return Committed(record=after, before=before, action=change.action, actor=actor, info=change.info)

    async def abort(self, game_id: int, *, by: int, guild_id: int) -> Committed:
        """End an open game without a result (an admin's decision). Only games of ``guild_id``.

        Raises ``BotError("err.no_game_here")`` for a game of another guild.
        """

        def step(record: GameRecord) -> Change:
            if record.guild_id != guild_id:
                raise BotError("err.no_game_here", game=self.kind.capitalize())
            return Change(state=record.state, action="abort", status="aborted")

        return await self.transact(game_id, step, actor=by, statuses=("lobby", "active"))

    async def set_message(self, game_id: int, key: str, message_id: int | None) -> None:
        """Remember (``None``: forget) a message of the game (e.g. ``"board"``), for later edits."""
        await self.storage.set_message(game_id, key, message_id)

    # -- board messages (recovery hook) ------------------------------------------------------
    @staticmethod
    def message_ids(record: GameRecord) -> dict[str, int]:
        """The game's stored message ids by key (``"board"``, ``"lobby"``, ``"challenge"``...),
        without the version bookkeeping keys (``*.version``)."""
        return {k: v for k, v in record.messages.items() if not k.endswith(VERSION_SUFFIX)}

    @staticmethod
    def board_version(record: GameRecord) -> int | None:
        """The game version the stored board message shows, or ``None`` (no board recorded, or a
        board recorded before versions were kept)."""
        if BOARD_KEY not in record.messages:
            return None
        return record.messages.get(BOARD_VERSION_KEY)

    def board_stale(self, record: GameRecord) -> bool:
        """True when the game should show a board (status ``active``/``finished``) and its stored
        board is missing or older than ``record.version`` (e.g. an AI move was saved but its post
        failed, or the process died in between). Subclasses may refine it."""
        if record.status not in BOARD_STATUSES:
            return False
        shown = self.board_version(record)
        return shown is None or shown < record.version

    async def record_board(self, game_id: int, message_id: int, version: int) -> int | None:
        """Record ``message_id`` (showing ``version``) as the game's board, unless a newer board is
        already recorded. **Call under** :meth:`publish_lock`. Returns the id of the message whose
        components must now be stripped: the previous board, or ``message_id`` itself when it is
        already out of date (a newer board is up, or the game closed after ``version``); ``None``
        when there is nothing to strip. Raises ``BotError("err.no_such_game")``."""
        current = await self.get(game_id)
        shown = self.board_version(current)
        if (shown is not None and version < shown) or (not current.is_open and version < current.version):
            return message_id
        old = current.messages.get(BOARD_KEY)
        await self.storage.set_message(game_id, BOARD_KEY, message_id)
        await self.storage.set_message(game_id, BOARD_VERSION_KEY, version)
        return old if old is not None and old != message_id else None

    # -- rendering -----------------------------------------------------------------------------
    @staticmethod
    async def render_png(draw: Callable[..., Any], /, *args: Any, **kwargs: Any) -> bytes:
        """Run ``draw(*args, **kwargs)`` (returns a PIL image) and PNG-encode it in a worker thread.

        Returns the PNG bytes (a fresh ``discord.File`` must be made from them for every send).
        """
        from render import to_png

        def work() -> bytes:
            return to_png(draw(*args, **kwargs))

        return await asyncio.to_thread(work)
