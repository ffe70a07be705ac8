"""Nim's plug-in (``bot/games/nim/kind.py`` in a shipped game): a challenge of one opponent or the AI. It names its
engine (``Nim``: records replay through it) and its replay renderer (``replay.py``), so its finished games get the
animated replay, the move list and the downloadable record like the shipped games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.envelope import Envelope
from bot.core.kind import Components, GameKind, Narration, Picture, Pictures, Rules, Seating, Snapshot
from bot.i18n import t
from bot.storage.records import ActionRecord, GameRecord
from engine.errors import InvalidInputError, StateError
from engine.protocol import Event
from tests.games.nim.engine import Left as LeftEvent
from tests.games.nim.engine import Nim, Took, best_take
from tests.games.nim.replay import REPLAY
from tests.games.nim.views import DYNAMIC_ITEMS, take_view


def ai_take(state: Nim, seat: int, level: str, seed: int) -> str:
    """The AI's move as text (module-level: runs in a worker)."""
    return str(best_take(state, seat))


def _heaps(heaps: list[int]) -> str:
    return " ".join(str(h) for h in heaps)


def _text(state: Nim, names: list[str]) -> str:
    from tests.games.nim.render import heaps_text

    return f"```\n{heaps_text(state, names=names)}\n```"


class NimRules(Rules):
    """Heap sizes as options; the AI plays the winning move."""

    ai_function = staticmethod(ai_take)

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        words = str(options.get("heaps") or "3 4 5").split()
        if not all(w.isdigit() for w in words):
            raise InvalidInputError(f"heaps must be numbers like '3 4 5', not {options.get('heaps')!r}")
        heaps = [int(w) for w in words]
        Nim.new({"heaps": heaps})  # the engine checks the sizes
        return {"heaps": heaps}

    def engine_setup(self, env: Envelope, players: Sequence[int]) -> dict[str, Any]:
        return {"heaps": list(env.options["heaps"]), "first": 0}

    def migrate(self, record: GameRecord) -> Envelope:
        raise StateError(f"Nim game {record.id} has no version-2 envelope")


class NimNarration(Narration):
    """Nim's texts (``locales/``)."""

    def ai_seat_name(self, level: str, index: int, locale: str | None) -> str:
        return t("nm.ai_name", locale)

    def narrate(self, snap: Snapshot, actions: Sequence[tuple[int, str]], events: Sequence[Event]) -> str:
        lines = []
        for e in events:
            if isinstance(e, Took):
                lines.append(
                    t("nm.took", snap.locale, name=snap.names[e.player], count=e.count, heap=e.heap, left=e.left)
                )
            elif isinstance(e, LeftEvent):
                lines.append(t("nm.left", snap.locale, name=snap.names[e.player]))
        return "\n".join(lines)

    def started_text(self, snap: Snapshot) -> str:
        return t("nm.started", snap.locale, heaps=_heaps(snap.env.options["heaps"]))

    def board_headline(self, locale: Any) -> str:
        return t("nm.board", locale)

    def last_headline(self, snap: Snapshot, last: ActionRecord | None) -> str:
        if last is None or last.action in ("accept", "start"):
            return self.started_text(snap)
        who = snap.names[snap.players.index(last.player)] if last.player in snap.players else "?"
        return t("nm.last", snap.locale, name=who, action=last.action)

    def status_line(self, snap: Snapshot) -> str:
        if snap.status == "aborted":
            return t("nm.aborted", snap.locale)
        state = snap.require_state()
        assert isinstance(state, Nim)
        if state.outcome is not None:
            return t("nm.over", snap.locale, winner=snap.names[state.outcome.winners[0]])
        assert state.current_player is not None
        return t("nm.to_take", snap.locale, who=snap.who(state.current_player), heaps=_heaps(state.heaps))

    def lobby_text(self, snap: Snapshot) -> str:
        return t(
            "nm.challenge",
            snap.locale,
            opponent=f"<@{snap.env.invited}>",
            challenger=snap.names[0],
            heaps=_heaps(snap.env.options["heaps"]),
        )


class NimPictures(Pictures):
    """One picture of the heaps (``render.py``)."""

    def board_pictures(self, snap: Snapshot) -> list[Picture]:
        from tests.games.nim.render import render_heaps

        state, names = snap.require_state(), snap.names
        assert isinstance(state, Nim)
        return [
            Picture(
                render_heaps,
                (state,),
                f"nim-{snap.id}-{snap.version}.png",
                lambda: _text(state, names),
                {"names": names},
            )
        ]


class NimComponents(Components):
    """The take select (``views.py``)."""

    dynamic_items = DYNAMIC_ITEMS

    def board_view(self, snap: Snapshot) -> Any:
        state = snap.require_state()
        assert isinstance(state, Nim)
        seat = state.current_player
        if seat is None or snap.is_ai(seat):
            return None
        return take_view(snap.id, snap.version, state.legal_actions(seat), locale=snap.locale)


KIND = GameKind(
    name="nim",
    title="Nim",
    engine=Nim,
    prefix="nm",
    start_command="/nim challenge",
    rules=NimRules(),
    narration=NimNarration(),
    pictures=NimPictures(),
    components=NimComponents(),
    replay=REPLAY,
    seating=Seating("challenge", 2, 2, ai_ids="bot", ai_levels=("perfect",), default_level="perfect"),
)
