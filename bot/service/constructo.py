"""The Constructo game service: challenges, moves, round-2 layout, resignation, the AI seat.

Stored state (``GameRecord.state``)::

    {"match": Match.to_dict(),            # engine state, rules of rules/constructo.md
     "ai": {"seat": 1, "level": "medium"} | None,
     "layout": "<round 1 layout text>"}

Seats: ``players[0]`` is the challenger, engine player 0, who starts round 1 on the layout they
chose (M1); ``players[1]`` is the opponent (the bot's own user id for a game against the AI).
Games against the AI are **not rated** (``rated=False``): only human-vs-human matches move the
leaderboard. Every method goes through :meth:`GameService.transact` (lock + version check).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

from bot.errors import BotError
from bot.service.base import Change, Committed, GameService, outcome_result
from bot.storage.records import GameRecord
from engine.constructo import LAYOUTS, ChooseLayout, Forfeit, Layout, Match, Move, Size
from engine.constructo.events import RoundOver
from engine.errors import InvalidInputError

log = logging.getLogger(__name__)

AI_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
DEFAULT_LAYOUT = "rombo"
DEFAULT_LEVEL = "medium"
AI_BUDGET_S = 1.0


def match_of(record: GameRecord) -> Match:
    """The engine ``Match`` of a stored game (raises ``StateError`` if the state is corrupt)."""
    return Match.from_dict(record.state["match"])


def ai_seat(record: GameRecord) -> int | None:
    """The AI's seat (0/1) in this game, or ``None`` for a human-vs-human game."""
    ai = record.state.get("ai")
    return int(ai["seat"]) if ai else None


class ConstructoService(GameService):
    """Constructo verbs over :class:`~bot.service.base.GameService`. See the module docstring."""

    kind: ClassVar[str] = "constructo"

    # -- lobby ---------------------------------------------------------------------------------
    def prepare_challenge(
        self,
        *,
        challenger: int,
        opponent: int,
        layout: str | None = None,
        level: str | None = None,
        opponent_is_bot: bool = False,
        names: tuple[str, str] = ("P1", "P2"),
        locale: str | None = None,
    ) -> tuple[dict[str, Any], list[int], str]:
        """Validate a challenge and build ``(state, players, status)`` without writing anything.

        ``layout`` is a name from ``LAYOUTS`` or 9 coordinates (``Layout.parse``; default ``rombo``);
        ``level`` the AI level (``easy|medium|hard``, default ``medium``; used only against the AI);
        ``names`` the display names by seat (kept in the state for images); ``locale`` the guild's.
        Status is ``lobby`` (waiting for Accept), or ``active`` at once against the AI.

        Raises:
            BotError: ``err.self_challenge``, ``err.bot_opponent`` (a bot other than this one),
                ``err.bad_level``.
            InvalidInputError: the layout text (rule ``Input``; the engine says why).
        """
        if opponent == challenger:
            raise BotError("err.self_challenge")
        vs_ai = self.is_ai(opponent)
        if opponent_is_bot and not vs_ai:
            raise BotError("err.bot_opponent")
        lay = Layout.parse(layout) if layout is not None and layout.strip() else LAYOUTS[DEFAULT_LAYOUT]
        lvl = (level or DEFAULT_LEVEL).strip().lower()
        if lvl not in AI_LEVELS:
            raise BotError("err.bad_level", level=level, levels=", ".join(AI_LEVELS))
        match = Match.new(lay, first=0)
        state = {
            "match": match.to_dict(),
            "ai": {"seat": 1, "level": lvl} if vs_ai else None,
            "layout": lay.to_text(),
            "names": [names[0][:32], names[1][:32]],
            "locale": locale,
        }
        return state, [challenger, opponent], "active" if vs_ai else "lobby"

    async def challenge(self, *, guild_id: int, channel_id: int, **kwargs: Any) -> GameRecord:
        """:meth:`prepare_challenge` then create the game in the channel (or thread).

        Raises what :meth:`prepare_challenge` raises, and ``BotError("err.channel_busy")``.
        """
        state, players, status = self.prepare_challenge(**kwargs)
        return await self.create(guild_id=guild_id, channel_id=channel_id, state=state, players=players, status=status)

    async def accept(self, game_id: int, user_id: int) -> Committed:
        """The challenged player accepts: the game becomes ``active``, the challenger to move.

        Raises ``BotError("err.not_challenged")`` for anyone else, ``err.wrong_phase`` once started.
        """

        def step(record: GameRecord) -> Change:
            if user_id != record.players[1]:
                raise BotError("err.not_challenged", user=record.players[1])
            return Change(state=record.state, action="accept", status="active")

        return await self.transact(game_id, step, actor=user_id, statuses=("lobby",))

    async def decline(self, game_id: int, user_id: int) -> Committed:
        """The challenged player declines, or the challenger withdraws: the game is ``aborted``."""

        def step(record: GameRecord) -> Change:
            if user_id not in record.players:
                raise BotError("err.not_challenged", user=record.players[1])
            action = "withdraw" if user_id == record.players[0] else "decline"
            return Change(state=record.state, action=action, status="aborted")

        return await self.transact(game_id, step, actor=user_id, statuses=("lobby",))

    # -- play ----------------------------------------------------------------------------------
    def _finish(self, record: GameRecord, match: Match, action: str, info: dict[str, Any]) -> Change:
        state = dict(record.state, match=match.to_dict())
        outcome = match.outcome
        if outcome is not None:
            seat = ai_seat(record)  # the AI's seat holds the bot's own id: name it for storage's vs-AI record
            result = outcome_result(outcome, record.players, rated=seat is None,
                                    ai=() if seat is None else (record.players[seat],))
            return Change(state=state, action=action, status="finished", result=result, info=info)
        return Change(state=state, action=action, info=info)

    async def play(
        self, game_id: int, user_id: int, move: str | Move, *, expected_version: int | None = None
    ) -> Committed:
        """Play a placement or a move (``"L5"``, ``"3-4"`` or a ``Move``) for ``user_id``.

        The engine validates everything (T1-T5, K1-K5, E1, M1); a finished match records its
        result in the same commit. ``info`` holds ``move`` (notation), ``round_over`` (bool) and
        ``events`` (the engine's typed events).

        Raises:
            BotError: ``err.not_player``, ``err.stale``, ``err.conflict``, ``err.game_closed``.
            RuleError: ``NotYourTurn``, ``Input``, ``T2``, ``K3``... from the engine.
        """

        def step(record: GameRecord) -> Change:
            seat = self.seat_of(record, user_id)
            match = match_of(record)
            applied = match.apply(Move.parse(move).by(seat))
            round_over = any(isinstance(e, RoundOver) for e in applied.events)
            text = str(applied.action)
            return self._finish(record, match, text, {"move": text, "round_over": round_over, "events": applied.events})

        return await self.transact(game_id, step, actor=user_id, expected_version=expected_version)

    async def choose_layout(
        self, game_id: int, user_id: int, layout: str | Layout | None, *, expected_version: int | None = None
    ) -> Committed:
        """Round 2's layout, chosen by the player who did not start round 1 (M1).

        ``layout`` is a name, 9 coordinates, a ``Layout``, or ``None``/``"keep"`` for round 1's.
        Raises ``RuleError`` (``M1``, ``NotYourTurn``, ``Input``) or ``BotError`` as :meth:`play`.
        """

        def step(record: GameRecord) -> Change:
            seat = self.seat_of(record, user_id)
            match = match_of(record)
            if layout is None or (isinstance(layout, str) and layout.strip().lower() in ("", "keep")):
                action = ChooseLayout(seat, match.rounds[0].layout)
            elif isinstance(layout, Layout):
                action = ChooseLayout(seat, layout)
            else:
                action = ChooseLayout(seat, Layout.parse(layout))
            applied = match.apply(action)
            text = action.layout.to_text()
            return self._finish(record, match, str(applied.action), {"layout": text, "events": applied.events})

        return await self.transact(game_id, step, actor=user_id, expected_version=expected_version)

    async def resign(self, game_id: int, user_id: int, *, expected_version: int | None = None) -> Committed:
        """``user_id`` resigns: the match ends at once as their loss (M3)."""

        def step(record: GameRecord) -> Change:
            seat = self.seat_of(record, user_id)
            match = match_of(record)
            applied = match.apply(Forfeit(seat))
            return self._finish(record, match, str(applied.action), {"resigned": seat, "events": applied.events})

        return await self.transact(game_id, step, actor=user_id, expected_version=expected_version)

    # -- the AI seat ---------------------------------------------------------------------------
    def ai_to_act(self, record: GameRecord) -> bool:
        """True if the game is active and the AI's seat is to act (move or choose a layout)."""
        seat = ai_seat(record)
        if seat is None or record.status != "active":
            return False
        return match_of(record).current_player == seat

    async def ai_turn(self, game_id: int) -> Committed | None:
        """Let the AI act once if it is its turn; returns the commit, or ``None`` if nothing to do.

        The search (``engine.constructo.ai``) runs in a worker thread outside the lock; the action
        is then committed through the same path as a human's, checked against the version it was
        computed for (a game that moved on meanwhile is left alone).
        """
        record = await self.get(game_id)
        if not self.ai_to_act(record):
            return None
        from engine.constructo import ai  # late import: the AI may be heavier than the rules

        seat = ai_seat(record)
        assert seat is not None
        bot_id = record.players[seat]
        level = record.state["ai"].get("level", DEFAULT_LEVEL)
        match = match_of(record)
        seed = record.id * 1000 + record.version
        if match.phase == "choosing_layout":
            chosen = await asyncio.to_thread(ai.choose_layout, match, seat, seed)
            return await self.choose_layout(game_id, bot_id, chosen, expected_version=record.version)
        move = await asyncio.to_thread(ai.choose_move, match, level, seed, AI_BUDGET_S)
        return await self.play(game_id, bot_id, move, expected_version=record.version)

    # -- read-only helpers (autocomplete, components) -----------------------------------------
    @staticmethod
    def legal_placements(match: Match, seat: int) -> list[Move]:
        """Legal placements for ``seat`` if it is to move (else empty), sizes large first."""
        if match.phase != "playing" or match.current_player != seat:
            return []
        moves = [m for m in match.current_round.legal_moves() if m.is_place]
        return sorted(moves, key=lambda m: (-int(m.size or 0), m.tile or 0))

    @staticmethod
    def legal_steps(match: Match, seat: int) -> list[Move]:
        """Legal moves (chip steps) for ``seat`` if it is to move (else empty), by source tile."""
        if match.phase != "playing" or match.current_player != seat:
            return []
        moves = [m for m in match.current_round.legal_moves() if not m.is_place]
        return sorted(moves, key=lambda m: (m.src, m.dst))

    @staticmethod
    def parse_size(text: str) -> Size:
        """``Size.parse`` (raises ``InvalidInputError``, rule ``Input``)."""
        return Size.parse(text)

    @staticmethod
    def placement_text(size: str, tile: int) -> str:
        """``"L5"`` from a size word/letter and a tile number (raises ``InvalidInputError``)."""
        if isinstance(tile, bool) or not isinstance(tile, int):
            raise InvalidInputError(f"tile {tile!r} is not a number 1-9")
        return f"{Size.parse(size).letter}{tile}"
