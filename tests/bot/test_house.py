"""The house rules' one check (``bot.services.house.check_start``): the order of the refusals, threads counting as
their parent channel, hand-edited settings tolerated, and the settings changes ``/settings`` stores."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.errors import BotError
from bot.services import house
from bot.services.house import HouseOptions
from bot.ui.server_settings import house_changes
from bot.ui.settings_same import refuse_contradictions, same_house


def refusal(settings: dict[str, object], place: object = 10, user: int = 1, others: tuple[int, ...] = ()) -> str | None:
    err = house.check_start(settings, place, user, "nim", "Nim", others)
    return None if err is None else err.key


def test_nothing_set_allows_everything() -> None:
    assert refusal({}) is None
    assert house.rated({}) and house.rated({"rated": True}) and not house.rated({"rated": False})


def test_refusals_in_order_blocked_game_off_channel_then_invited() -> None:
    every = {"blocked": [1, 2], "games_off": ["nim"], "channels": [11]}
    assert refusal(every) == "house.blocked"
    assert refusal(every, user=3) == "house.game_off"
    assert refusal({**every, "games_off": []}, user=3) == "house.channel"
    assert refusal({**every, "games_off": []}, place=11, user=3, others=(2,)) == "house.blocked_other"
    assert refusal({**every, "games_off": []}, place=11, user=3, others=(4,)) is None


def test_a_thread_counts_as_its_parent_channel() -> None:
    settings = {"channels": [11]}
    assert refusal(settings, SimpleNamespace(id=99, parent_id=11)) is None
    assert refusal(settings, SimpleNamespace(id=99, parent_id=12)) == "house.channel"
    assert refusal(settings, SimpleNamespace(id=11)) is None


def test_the_channel_refusal_names_at_most_ten_channels() -> None:
    err = house.check_start({"channels": list(range(100, 115))}, 5, 1, "nim", "Nim")
    assert err is not None and err.kwargs["channels"].endswith("<#109> (+5)")


def test_hand_edited_values_are_ignored() -> None:
    assert house.channels({"channels": "everywhere"}) == []
    assert house.blocked({"blocked": [True, "x", 5, -1]}) == [5]
    assert house.games_off({"games_off": {"nim": 1}}) == []


LAYER = SimpleNamespace(kinds={"nim": SimpleNamespace(title="Nim"), "go": SimpleNamespace(title="Go")}, bot_user_id=999)


def test_changes_add_remove_and_clear_back_to_the_defaults() -> None:
    before = {"channels": [1], "blocked": [5], "games_off": ["go"], "rated": False}
    assert house_changes(LAYER, before, HouseOptions(allow_channel=2)) == {"channels": [1, 2]}
    assert house_changes(LAYER, before, HouseOptions(remove_channel=1)) == {"channels": None}
    assert house_changes(LAYER, before, HouseOptions(any_channel=True)) == {"channels": None}
    assert house_changes(LAYER, before, HouseOptions(game_on="go", game_off="nim")) == {"games_off": ["nim"]}
    assert house_changes(LAYER, before, HouseOptions(rated=True)) == {"rated": None}
    assert house_changes(LAYER, before, HouseOptions(block=6, unblock=5)) == {"blocked": [6]}
    assert house_changes(LAYER, before, HouseOptions()) == {}


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"game_off": "chess"}, "err.no_such_kind"),
        ({"block": 999}, "house.block_bot"),
        ({"allow_channel": 10_000}, "house.too_many_channels"),
    ],
)
def test_bad_changes_are_refused(options: dict[str, object], key: str) -> None:
    before = {"channels": list(range(1, house.MAX_CHANNELS + 1))}
    with pytest.raises(BotError) as info:
        house_changes(LAYER, before, HouseOptions(**options))  # type: ignore[arg-type]
    assert info.value.key == key


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"game_on": "go", "game_off": "go"}, "settings.both_game"),
        ({"allow_channel": 3, "remove_channel": 3}, "settings.both_channel"),
        ({"block": 5, "unblock": 5}, "settings.both_member"),
        ({"any_channel": True, "allow_channel": 3}, "settings.any_and_channel"),
        ({"any_channel": True, "remove_channel": 1}, "settings.any_and_channel"),
    ],
)
def test_options_that_pull_one_setting_both_ways_are_refused(options: dict[str, object], key: str) -> None:
    with pytest.raises(BotError) as info:
        refuse_contradictions(LAYER, HouseOptions(**options))  # type: ignore[arg-type]
    assert info.value.key == key
    for fine in (
        {"game_on": "go", "game_off": "nim"},
        {"allow_channel": 3, "remove_channel": 1},
        {"any_channel": True},
    ):
        refuse_contradictions(LAYER, HouseOptions(**fine))  # type: ignore[arg-type]


def test_already_so_is_said_only_of_what_is_so_before_and_after() -> None:
    before = {"channels": [1], "games_off": ["go"]}
    options = HouseOptions(game_off="go", allow_channel=1)
    assert len(same_house(LAYER, before, "en", options)) == 2  # both already so before the command
    after = {"channels": [1, 2]}  # what a command saved: "go" turned back on, channel 1 still listed
    lines = same_house(LAYER, before, "en", options, after)
    assert len(lines) == 1 and "already on the list" in lines[0], lines
