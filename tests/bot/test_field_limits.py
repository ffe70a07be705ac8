"""``Storage.open_games`` (issue 22's caps, ``bot/storage/limits.py``) on SQLite: what counts for a member and for
the guild, and ``bot.services.caps.limits`` (settings in range, else the defaults)."""

from __future__ import annotations

from pathlib import Path

from bot.services import caps
from bot.storage import Storage

G, OTHER_G = 10, 11
ALICE, BOB, CAROL = 101, 102, 103


async def test_open_games_counts_seats_hosts_and_not_the_invited(tmp_path: Path) -> None:
    async with await Storage.open(tmp_path / "db.sqlite3") as s:
        await s.create_game("conex", G, 1, {}, [ALICE, BOB], "lobby")  # alice hosts, bob joined
        await s.create_game("constructo", G, 2, {}, [ALICE, CAROL], "lobby")  # alice challenges carol
        await s.create_game("constructo", G, 3, {}, [BOB, ALICE], "active")  # a running game
        await s.create_game("constructo", G, 4, {}, [ALICE, -1], "active")  # an AI game
        gone = await s.create_game("conex", G, 5, {}, [ALICE], "lobby")
        await s.abort_game(gone, 0, None)  # closed: not counted
        await s.create_game("conex", OTHER_G, 6, {}, [ALICE], "lobby")  # another guild
        alice = await s.open_games(G, ALICE, invited_kinds=["constructo"])
        assert (alice.member, alice.guild, sorted(alice.channels)) == (4, 4, [1, 2, 3, 4])
        assert (await s.open_games(G, BOB, invited_kinds=["constructo"])).member == 2
        assert (await s.open_games(G, CAROL, invited_kinds=["constructo"])).member == 0  # only invited
        assert (await s.open_games(G, CAROL)).member == 1  # without challenge kinds every seat counts
        assert (await s.open_games(OTHER_G, ALICE)).member == 1


def test_limits_take_stored_values_in_range_else_defaults() -> None:
    assert caps.limits({}) == {"games_per_member": 5, "games_per_server": 50, "threads": 20}
    got = caps.limits({"games_per_member": 7, "games_per_server": 0, "threads": True})
    assert got == {"games_per_member": 7, "games_per_server": 50, "threads": 20}
    assert caps.limits({"threads": 0})["threads"] == 0


def test_operator_defaults_come_from_the_environment() -> None:
    from bot.config import Config

    base = {"DISCORD_TOKEN": "t0ken", "DATA_DIR": "/tmp/x"}
    assert Config.from_env(base).game_caps == (5, 50, 20)
    env = {**base, "GAMES_PER_MEMBER": "8", "GAMES_PER_SERVER": "400", "GAME_THREADS": "0"}
    assert Config.from_env(env).game_caps == (8, 400, 0)
    assert caps.limits({}, (8, 400, 0)) == {"games_per_member": 8, "games_per_server": 400, "threads": 0}
    assert caps.limits({"threads": 3}, (8, 400, 0))["threads"] == 3
