"""A die that rolls a star its roller already holds: the live narration and the record's move list say the same.

A new-user trial found the record contradicting the live message: live "Carol rolled the **lightning** star they
already hold: they keep it", the replay's move list "17. Carol: ... die: lightning · takes the lightning star". Both
now word the one fact of the engine event (``StarTaken.how``: ``"supply"``, ``"kept"``, ``"from"``), in both
languages. The game is found by playing seeded games with a plain policy (first placement found, else draw, else
pass) until a roll hands a star to the seat holding it.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from bot.games.conex.narration import events_text
from bot.i18n import image_words
from engine.conex import Discard, Draw, Game, Pass
from engine.conex import events as ev
from engine.protocol import Event
from engine.record import export_record
from render.conex_replay import REPLAY
from render.replay_moves import move_list_pages

NAMES = ["Alice", "Bob", "Carol"]


def play_until_kept(max_seeds: int = 40, max_steps: int = 200) -> tuple[Game, int, list[Event]]:
    """A game whose last action rolled a star its roller held; its number in the move list and its events."""
    for seed in range(1, max_seeds):
        g = Game.new(players=3, seed=seed, table="small", goal=100)
        for _ in range(max_steps):
            if g.is_over:
                break
            if g.pending_discards:
                s = min(g.pending_discards)
                g.apply(Discard(s, g.hands[s][0]))
                continue
            seat = g.current_player
            assert seat is not None
            moves = [p for c in g.hands[seat] for p in g.find_placements(seat, c, limit=1)]
            action = moves[0] if moves else Draw(seat) if g.draw_pile else Pass(seat)
            events = list(g.apply(action).events)
            if any(isinstance(e, ev.StarTaken) and e.how == "kept" for e in events):
                return g, len(g.history), events
    raise AssertionError(f"no roll of a held star in {max_seeds} seeded games")


def move_list(game: Game, locale: str | None) -> list[str]:
    record: dict[str, Any] = json.loads(json.dumps(export_record(game, names=NAMES, unfinished=True)))
    return "\n".join(move_list_pages(record, REPLAY, words=image_words(locale))).splitlines()


def test_star_taken_how_is_the_one_fact() -> None:
    assert ev.StarTaken("2x", 1, None).how == "supply"
    assert ev.StarTaken("2x", 1, 1).how == "kept"
    assert ev.StarTaken("2x", 1, 0).how == "from"


def test_a_star_rolled_by_its_holder_reads_the_same_live_and_in_the_record() -> None:
    game, n, events = play_until_kept()
    kept = next(e for e in events if isinstance(e, ev.StarTaken))
    assert kept.from_ == kept.player
    name = NAMES[kept.player]
    star = {"2x": "2x", "lightning": "lightning"}[kept.star]
    snap = SimpleNamespace(locale=None, names=NAMES, who=lambda s: NAMES[s])
    live = events_text(snap, events)  # type: ignore[arg-type]
    assert f"{name} rolled the **{star}** star they already hold: they keep it." in live, live
    line = next(x for x in move_list(game, None) if x.startswith(f"{n}. "))
    assert line.startswith(f"{n}. {name}: ") and f"die: {star}" in line, line
    assert f"rolled the {star} star they already hold: keeps it" in line and "takes the" not in line, line

    es_star = {"2x": "2x", "lightning": "rayo"}[kept.star]
    live_es = events_text(SimpleNamespace(locale="es-ES", names=NAMES, who=lambda s: NAMES[s]), events)  # type: ignore[arg-type]
    assert f"{name} sacó la estrella **{es_star}** que ya tenía: se la queda." in live_es, live_es
    line_es = next(x for x in move_list(game, "es-ES") if x.startswith(f"{n}. "))
    assert f"sacó la estrella {es_star} que ya tenía: se la queda" in line_es and "toma la" not in line_es, line_es


def test_stars_from_the_supply_and_from_another_seat_still_read_as_taken() -> None:
    snap = SimpleNamespace(locale=None, names=NAMES, who=lambda s: NAMES[s])
    text = events_text(snap, [ev.StarTaken("lightning", 0, None), ev.StarTaken("2x", 2, 1)])  # type: ignore[arg-type]
    assert "Alice takes the **lightning** star (usable" in text and "Carol takes the **2x** star from Bob" in text
