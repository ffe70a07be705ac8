"""The live table's pure parts (issue 26): settings, the games' adapters (what each viewer is sent, actions, the
pose check with the engine's rules and the snap), and the adapter lookup. The browser and the whole flow:
``tests/e2e/test_live_table.py``."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bot.config import ConfigError
from bot.core import registry
from bot.core.envelope import Envelope
from bot.core.kind import Snapshot
from bot.games.conex import live as conex_live
from bot.games.constructo import live as constructo_live
from bot.storage.records import GameRecord
from bot.web.adapter import live_of
from bot.web.hub import state_message
from bot.web.session import page_words
from bot.web.settings import DEFAULT_API, WebSettings
from engine.conex import Game
from engine.conex.geometry import centre_for_corner
from engine.constructo import Match
from engine.errors import InvalidInputError, RuleError

PLAYERS = [101, 202]


def snapshot(name: str, state: object) -> Snapshot:
    kind = registry.kind(name)
    env = Envelope(engine=state.to_dict())  # type: ignore[attr-defined]
    now = datetime.now(UTC)
    record = GameRecord(7, name, 1, 2, "active", env.to_dict(), 5, list(PLAYERS), {}, now, now)
    return Snapshot(kind, record, env, state)  # type: ignore[arg-type]


def conex_game() -> Game:
    return Game.new({"players": 2, "seed": 5, "table": "small", "goal": 40})


def test_settings_off_unless_web_port_and_checked() -> None:
    assert not WebSettings.from_env({}).enabled
    s = WebSettings.from_env(
        {"WEB_PORT": "8088", "DISCORD_CLIENT_SECRET": "s3", "DISCORD_API_BASE": "http://x/api/v10/"}
    )
    assert s.enabled and s.port == 8088 and s.oauth_base == "http://x/api/v10" and "s3" not in repr(s)
    assert WebSettings.from_env({"WEB_PORT": "1"}).oauth_base == DEFAULT_API
    for env, var in (
        ({"WEB_PORT": "http"}, "WEB_PORT"),
        ({"WEB_PORT": "70000"}, "WEB_PORT"),
        ({"DISCORD_CLIENT_ID": "me"}, "DISCORD_CLIENT_ID"),
        ({"DISCORD_OAUTH_BASE": "ftp://x"}, "DISCORD_OAUTH_BASE"),
    ):
        with pytest.raises(ConfigError) as err:
            WebSettings.from_env(env)
        assert err.value.variable == var


def test_each_shipped_game_has_a_live_adapter() -> None:
    """Constructo and CONEX (a test game registered by another test of the same worker, like Nim, may have none: its
    boards then carry no live-table button)."""
    kinds = registry.kinds()
    assert all(live_of(kinds[name]) is not None for name in ("constructo", "conex"))


def test_a_hidden_hand_is_sent_only_to_its_owner() -> None:
    game = conex_game()
    snap = snapshot("conex", game)
    watcher = json.dumps(state_message(snap, None, "en"))
    mine = state_message(snap, 0, "en")
    for seat, hand in enumerate(game.hands):
        for card in hand:
            assert f'"card": {card}, "letter"' not in watcher
            assert f'"{card}": {{"id"' not in watcher, "no face of a hidden card either"
            assert (f'"card": {card}, "letter"' in json.dumps(mine)) == (seat == 0)
    assert mine["view"]["hands"][1] is None and mine["seat"] == 0
    assert "seed" not in watcher and isinstance(mine["view"]["draw_pile"], int)
    assert mine["view"]["can"]["draw"] == (game.current_player == 0)


def test_pose_check_uses_the_engine_rules_and_snaps_to_the_nearest_legal_pose() -> None:
    game = conex_game()
    seat = game.current_player
    card = game.hands[seat][0]
    place = game.find_placements(seat, card, limit=1)[0]
    cx, cy = centre_for_corner(game.card(card).corner(place.corner), place.x * 10, place.y * 10, place.rotation or 0)
    ok = conex_live.preview(game, seat, {"card": card, "x": cx, "y": cy, "rotation": place.rotation}, "en")
    assert ok["legal"] and ok["corner"] == place.corner and ok["points"] == game.points_for(place)

    tries = [(6, -4, 20), (10, 10, 45), (-8, 5, 90), (15, 0, 180), (0, 12, 270)]
    refused = None
    for dx, dy, turn in tries:  # a pose a little off the legal one: refused, snapped back to a legal pose
        near = {"card": card, "x": cx + dx, "y": cy + dy, "rotation": (place.rotation or 0) + turn, "snap": True}
        answer = conex_live.preview(game, seat, near, "en")
        if not answer["legal"]:
            refused = answer
            break
    assert refused is not None and refused["error"] and "**" not in refused["error"]
    snapped = refused["snap"]
    again = conex_live.preview(game, seat, {"card": card, **snapped["pose"]}, "en")
    assert again["legal"] and again["points"] == snapped["points"], "the snapped pose is legal as shown"

    far = conex_live.preview(game, seat, {"card": card, "x": 330.0, "y": 230.0, "rotation": 0, "snap": True}, "es")
    assert not far["legal"] and far.get("snap") is None and far["error"]


def test_actions_map_to_the_commands_actions() -> None:
    game = conex_game()
    snap = snapshot("conex", game)
    seat = game.current_player
    card = game.hands[seat][0]
    place, _ = conex_live.action(
        snap, seat, {"type": "place", "card": card, "corner": 1, "x": 1.04, "y": 2, "rotation": 359.6}
    )
    assert place.card == card and place.rotation == 0.0 and str(place).startswith(f"place {card} c1 at ")
    assert conex_live.action(snap, seat, {"type": "draw"})[0] == "draw"
    assert conex_live.action(snap, seat, {"type": "lightning", "card": 9})[0] == "lightning 9"
    for bad in ({"type": "place", "card": card, "corner": 1, "x": "1", "y": 0, "rotation": 0}, {"type": "place"}):
        with pytest.raises((InvalidInputError, RuleError)):
            conex_live.action(snap, seat, bad)


def test_constructo_view_lists_legal_moves_only_for_the_seat_to_act() -> None:
    match = Match.new()
    snap = snapshot("constructo", match)
    to_act = match.current_player
    mine = constructo_live.view(snap, to_act, "en")
    theirs = constructo_live.view(snap, 1 - to_act, "en")
    assert sorted(mine["legal"]) == sorted(str(m) for m in match.current_round.legal_moves())
    assert theirs["legal"] == [] and len(mine["cells"]) == 9 and mine["totals"] == [0, 0]
    assert constructo_live.action(snap, to_act, {"type": "move", "move": "L5"}) == ("L5", {})


def test_the_page_gets_every_word_in_both_languages() -> None:
    en, es = page_words("en"), page_words("es-ES")
    assert set(en) == set(es) and en["confirm"] != es["confirm"]
