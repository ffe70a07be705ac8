"""Property test: random sequences of creates, actions (with stale versions), aborts and finishes
against a plain-Python model. Invariants: one open game per channel; version == log length ==
applied moves; refused operations change nothing; rated finishes are counted in the ratings."""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.storage import ChannelBusyError, GameClosedError, Storage, VersionConflictError

from .conftest import create_schema, drop_schema, pg_base_url, with_schema

GUILD = 3
PLAYERS = [11, 12]

op = st.one_of(
    st.tuples(st.just("create"), st.integers(0, 2), st.sampled_from(["lobby", "active"])),
    st.tuples(st.just("act"), st.integers(0, 5), st.sampled_from([0, 0, 0, -1, 1])),
    st.tuples(st.just("abort"), st.integers(0, 5), st.sampled_from([0, 0, 1])),
    st.tuples(st.just("finish"), st.integers(0, 5), st.booleans()),
)


async def run(ops: list[tuple[Any, ...]], target: str) -> None:
    s = await Storage.open(target)
    model: list[dict[str, Any]] = []  # per game: id, channel, status, version, moves, result
    rated_games: Counter[int] = Counter()
    try:
        for name, a, b in ops:
            if name == "create":
                busy = any(g["channel"] == a and g["status"] in ("lobby", "active") for g in model)
                try:
                    gid = await s.create_game("constructo", GUILD, a, {"moves": []}, PLAYERS, status=b)
                except ChannelBusyError:
                    assert busy
                else:
                    assert not busy
                    model.append({"id": gid, "channel": a, "status": b, "version": 0, "moves": []})
                continue
            if not model:
                continue
            g = model[a % len(model)]
            closed = g["status"] in ("finished", "aborted")
            expected = max(0, g["version"] + (b if name != "finish" else 0))
            stale = expected != g["version"]
            try:
                if name == "act":
                    moves = [*g["moves"], f"m{g['version'] + 1}"]
                    v = await s.apply_action(g["id"], expected, {"moves": moves}, player=11, action=moves[-1])
                elif name == "abort":
                    v = await s.abort_game(g["id"], expected, by_user=12)
                else:
                    moves = [*g["moves"], "end"]
                    ranking = {"ranking": [[11], [12]], "rated": b}
                    v = await s.apply_action(
                        g["id"], expected, {"moves": moves}, player=11, action="end", result=ranking
                    )
            except VersionConflictError:
                assert stale
            except GameClosedError:
                assert closed and not stale
            else:
                assert not stale and not closed and v == g["version"] + 1
                g["version"] = v
                if name == "abort":
                    g["status"] = "aborted"
                else:
                    g["moves"] = moves
                    if name == "finish":
                        g["status"] = "finished"
                        if b:
                            rated_games.update(PLAYERS)
        # Invariants against the stored data.
        open_channels = [g.channel_id for g in await s.list_active_games()]
        assert len(open_channels) == len(set(open_channels))
        for g in model:
            rec = await s.get_game(g["id"])
            log = await s.actions(g["id"])
            assert rec is not None and rec.status == g["status"] and rec.version == g["version"] == len(log)
            assert rec.state == {"moves": g["moves"]}
            assert [a.action for a in log if a.action != "abort"] == g["moves"]
        for uid in PLAYERS:
            row = await s.rating_of(GUILD, "constructo", uid)
            assert (row.games if row else 0) == rated_games[uid]
    finally:
        await s.close()


async def run_on_fresh_schema(ops: list[tuple[Any, ...]]) -> None:
    base = pg_base_url()
    schema = await create_schema(base)
    try:
        await run(ops, with_schema(base, schema))
    finally:
        await drop_schema(base, schema)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.lists(op, max_size=25))
def test_random_operation_sequences_keep_state_log_and_channel_invariants(
    backend: str, ops: list[tuple[Any, ...]]
) -> None:
    if backend == "postgresql":
        asyncio.run(run_on_fresh_schema(ops))
        return
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(ops, str(Path(tmp) / "model.sqlite3")))
