"""Constructo's plug-in: engine ``Match``, options (round 1's layout), a challenge of one opponent or the AI.

Seats: seat 0 is the challenger, who starts round 1 on the layout they chose (M1); seat 1 the opponent (the bot's
own user id for a game against the AI, which is not rated). Options: ``{"layout": <name or 9 coordinates>}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.envelope import Envelope, Seat
from bot.core.kind import Components, GameKind, Narration, Picture, Pictures, Rules, Seating, Snapshot
from bot.errors import BotError
from bot.games.constructo import narration, payload
from bot.games.constructo.analysis import AnalysisButton
from bot.games.constructo.views import DYNAMIC_ITEMS
from bot.i18n import has, t
from bot.services.offers import without_offer
from bot.storage.records import ActionRecord, GameRecord
from bot.ui.offers import DYNAMIC_ITEMS as OFFER_ITEMS
from engine.constructo import LAYOUTS, ChooseLayout, Layout, Match
from engine.errors import StateError
from engine.protocol import Event
from render.constructo_replay import REPLAY

AI_LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "perfect")
DEFAULT_LAYOUT = "rombo"
DEFAULT_LEVEL = "medium"


def ai_action(match: Match, seat: int, level: str, seed: int) -> str:
    """The AI seat's action as text: round 2's layout when it chooses (M1), else its move
    (``engine.constructo.ai``; ``hard`` and ``perfect`` search node budgets, never the clock, so a busy machine
    does not weaken them). CPU work: runs in a worker."""
    from engine.constructo import ai

    if match.phase == "choosing_layout":
        return str(ChooseLayout(seat, ai.choose_layout(match, seat, seed)))
    return str(ai.choose_move(match, level, seed))


def ai_accepts_draw(match: Match, seat: int) -> bool:
    """The AI seat's answer to a draw offer: accept when its evaluation says it is not winning
    (``engine.constructo.verdict``). CPU work: runs in a worker."""
    from engine.constructo.verdict import accepts_draw

    return accepts_draw(match, seat)


def check_level(level: str | None) -> str:
    """The AI level (default ``medium``). Raises ``BotError("err.bad_level")``."""
    lvl = (level or DEFAULT_LEVEL).strip().lower()
    if lvl not in AI_LEVELS:
        raise BotError("err.bad_level", level=level, levels=", ".join(AI_LEVELS))
    return lvl


class ConstructoRules(Rules):
    """Options (round 1's layout), the setup, rematch seating (C1), the AI, migration."""

    ai_function = staticmethod(ai_action)
    draw_function = staticmethod(ai_accepts_draw)

    def after(self, env: Envelope, state: Any, events: Sequence[Event], now: float) -> Envelope:
        """Any engine action (a move, a takeback, a resignation...) voids an open draw or takeback offer."""
        return without_offer(env)

    def ai_lane(self, state: Any, seat: int, level: str) -> str:
        """``"background"`` for the hard and perfect levels' searches (node budgets: hard ~0.7 s of CPU; perfect up
        to ~2.5 s, ~10 s once or twice a round), ``"light"`` for easy and medium (milliseconds) and for round 2's
        layout choice (M1, a short search)."""
        if level in ("hard", "perfect") and getattr(state, "phase", None) != "choosing_layout":
            return "background"
        return "light"

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """``{"layout": text | None}`` -> ``{"layout": name or coordinates}`` (default ``rombo``). Raises
        ``InvalidInputError`` (rule ``Input``) for a layout the engine cannot read."""
        text = options.get("layout")
        lay = Layout.parse(text) if text is not None and str(text).strip() else LAYOUTS[DEFAULT_LAYOUT]
        return {"layout": lay.to_text()}

    def engine_setup(self, env: Envelope, players: Sequence[int]) -> dict[str, Any]:
        """The layout and who starts (``options["first"]``: 1 in a rematch whose second player starts)."""
        return {"layout": env.options["layout"], "first": int(env.options.get("first", 0))}

    def rematch_seating(
        self, players: Sequence[int], seats: Sequence[Any], options: dict[str, Any]
    ) -> tuple[list[int], list[Any], dict[str, Any]]:
        """A rematch keeps the seats, so each player keeps their colour and pattern (C1: colours belong to the
        player); the other player starts it (``options["first"]`` swapped)."""
        return list(players), list(seats), {**options, "first": 1 - int(options.get("first", 0))}

    def migrate(self, record: GameRecord) -> Envelope:
        """A record saved before envelope version 2: ``{"match": Match.to_dict() (engine version 1 or 2), "ai":
        {"seat", "level"} | None, "layout", "names", "locale"}``. A pending challenge gets no engine state (it
        is made at Accept from the options, as for new challenges)."""
        s = record.state
        try:
            match = s["match"]
            ai = s.get("ai")
            ai_seat = int(ai["seat"]) if ai else None
            names = [str(n) for n in (s.get("names") or ["P1", "P2"])]
            seats = [
                Seat.of(names[i], str(ai.get("level", DEFAULT_LEVEL)) if ai and i == ai_seat else None)
                for i in range(2)
            ]
            layout = s.get("layout") or Match.from_dict(match).rounds[0].layout.to_text()
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise StateError(f"unreadable Constructo game {record.id}: {err}", field="state") from err
        players = record.players
        invited = players[1] if len(players) > 1 and ai_seat != 1 else None
        return Envelope(
            engine=None if record.status == "lobby" else dict(match),
            options={"layout": layout},
            seats=tuple(seats),
            host=players[0] if players else None,
            invited=invited,
            locale=s.get("locale"),
            created=record.created_at.timestamp(),
        )


class ConstructoNarration(Narration):
    """The texts of ``narration.py``; the AI seat is named by its level."""

    def narrate(self, snap: Snapshot, actions: Sequence[tuple[int, str]], events: Sequence[Event]) -> str:
        return narration.narrate(snap, actions, events)

    def started_text(self, snap: Snapshot) -> str:
        return narration.started(snap)

    def board_headline(self, locale: Any) -> str:
        return t("cx.board", locale)

    def last_headline(self, snap: Snapshot, last: ActionRecord | None) -> str:
        return narration.last_headline(snap, last)

    def status_line(self, snap: Snapshot) -> str:
        return narration.status_line(snap)

    def lobby_text(self, snap: Snapshot) -> str:
        return narration.challenge_text(snap)

    def ai_seat_name(self, level: str, index: int, locale: str | None) -> str:
        word = t(f"ai.level_{level}", locale) if has(f"ai.level_{level}", "en") else level
        return t("cx.ai_name", locale, level=word)

    def stats_option_value(self, value: str | None, locale: Any) -> str:
        """Round 1's layout in ``/stats``: its name, one word for every custom layout (9 coordinates), and the
        default's words for games stored without it (records older than the envelope's options)."""
        if value is None:
            return super().stats_option_value(value, locale)
        return value if value in LAYOUTS else t("stats.layout_custom", locale)


class ConstructoPictures(Pictures):
    """The board and the result card (``payload.py``)."""

    def board_pictures(self, snap: Snapshot) -> list[Picture]:
        return payload.board_pictures(snap)

    def result_picture(self, snap: Snapshot) -> Picture | None:
        return payload.result_picture(snap)


class ConstructoComponents(Components):
    """The board's selects and Resign (``views.py``), the Analysis button of a finished match (``analysis.py``)."""

    dynamic_items = (*DYNAMIC_ITEMS, *OFFER_ITEMS, AnalysisButton)

    def board_view(self, snap: Snapshot) -> Any:
        return payload.board_view(snap)

    def record_items(self, snap: Snapshot, locale: str | None) -> list[Any]:
        """The Analysis button of a finished match (``analysis.py``)."""
        return [AnalysisButton(snap.id, locale=locale)]


KIND = GameKind(
    name="constructo",
    title="Constructo",
    engine=Match,
    prefix="cx",
    start_command="/constructo challenge",
    rules=ConstructoRules(),
    narration=ConstructoNarration(),
    pictures=ConstructoPictures(),
    components=ConstructoComponents(),
    replay=REPLAY,
    timeout_claim=True,
    seating=Seating("challenge", 2, 2, ai_ids="bot", ai_levels=AI_LEVELS, default_level=DEFAULT_LEVEL),
    stats_option="layout",
)
"""Constructo's plug-in (the module docstring)."""
