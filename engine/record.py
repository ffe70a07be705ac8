"""Game records (issue 16): a game as small JSON that the engine replays, and a step-by-step replay for move lists
and animated replays. Game-agnostic: it knows games only through ``engine.protocol.GameState``.

A record holds what rebuilds the game, never a state snapshot (``to_dict`` of a 52-card CONEX table is ~12 KB; its
record is ~3 KB)::

    {"format": "tablebot-record", "version": 1, "game": "conex", "state_version": 2,
     "setup": {...},                      # state.setup: the options the game was created with
     "history": [[seat, "text"], ...],    # state.history: every applied action, resolved, in order
     "players": ["Alice", "Bob"],         # display names by seat (when the game ended)
     "outcome": Outcome.to_dict() | null, # how it ended (null: exported unfinished)
     "meta": {...}}                       # optional, JSON-ready, never read by the engine (game id, dates...)

``load_record`` replays ``history`` from ``setup`` through the game's own rules (every action validated again), so a
record whose history does not replay, or whose outcome disagrees with the replay, is refused (``StateError``).
``state_version`` is the ``STATE_VERSION`` of the engine that wrote the record: a record from a newer engine is
refused, an older one is replayed (action texts are stable across state versions).

The game class is never found by importing a name the record holds: the caller passes the state classes a record
may be of (``games=``), or the record's game is looked up in :data:`GAMES`, the registry the bot fills from each
game's plug-in (``kind.engine``, :func:`register_game`). A record can therefore never make the loader import anything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import RuleError, StateError
from engine.protocol import Event, Outcome

__all__ = [
    "FORMAT",
    "GAMES",
    "GAME_NAME",
    "MAX_ACTIONS",
    "VERSION",
    "Record",
    "Step",
    "export_record",
    "game_class",
    "load_record",
    "parse_record",
    "register_game",
    "replay_steps",
    "verify_final",
]

FORMAT = "tablebot-record"
"""The ``"format"`` field of every record."""
VERSION = 1
"""The record format version this module writes and reads."""
GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
"""A game's registry name (its state class's ``game``); matched in full."""
GAMES: dict[str, type] = {}
"""The state classes records are read with by default, by game name: filled by :func:`register_game` (the bot's
registry registers each game's ``kind.engine``)."""
MAX_ACTIONS = 10_000
"""Most history entries a record may hold (a long CONEX game has ~150; refusing more bounds a replay's cost)."""
MAX_ACTION_CHARS = 200
"""Longest action text accepted in a record (a CONEX place with rotation is ~40 characters)."""
MAX_NAME_CHARS = 100
"""Longest display name accepted in a record (Discord allows 32 characters; room for fallbacks)."""


@dataclass(frozen=True)
class Record:
    """A record's fields, checked for shape (:func:`parse_record`) but not replayed.

    Attributes:
        game: the registry name (``"constructo"``, ``"conex"``).
        state_cls: the game's ``GameState`` class.
        state_version: the ``STATE_VERSION`` of the engine that wrote it (<= the current one).
        setup: the game's setup dict.
        history: ``(seat, text)`` pairs in order.
        players: display names by seat.
        outcome: the recorded :class:`Outcome`, or ``None`` (exported unfinished).
        meta: the optional free-form JSON dict (``{}`` when absent).
    """

    game: str
    state_cls: type
    state_version: int
    setup: dict[str, Any]
    history: tuple[tuple[int, str], ...]
    players: tuple[str, ...]
    outcome: Outcome | None
    meta: dict[str, Any]


@dataclass(frozen=True)
class Step:
    """One position of a replay: the start (``index`` 0) or the state after the ``index``-th action (1-based).

    Attributes:
        index: 0 for the start position, else the 1-based number of the action just applied.
        seat: the acting seat (``None`` at the start).
        text: the action's text as recorded (``None`` at the start).
        action: the resolved action (``None`` at the start).
        events: the typed events the action caused, in order (full, not redacted: a record is read after the game).
        state: the **live** game state after this step; :func:`replay_steps` mutates it for the next step, so use it
            before advancing (or ``state.copy()`` it).
    """

    index: int
    seat: int | None
    text: str | None
    action: Any
    events: tuple[Event, ...]
    state: Any


def register_game(cls: type) -> type:
    """Add the ``GameState`` class ``cls`` to :data:`GAMES` under its ``game`` name (idempotent); returns ``cls``.

    Raises:
        ValueError: ``cls.game`` is not a name matching :data:`GAME_NAME`, ``cls`` lacks ``STATE_VERSION``/``new``/
            ``parse_action``, or another class is registered under that name.
    """
    name = getattr(cls, "game", None)
    if not isinstance(name, str) or not GAME_NAME.fullmatch(name):
        raise ValueError(f"a game's state class needs a name like 'conex' in .game, not {name!r}")
    if not all(hasattr(cls, a) for a in ("STATE_VERSION", "new", "parse_action")):
        raise ValueError(f"{cls!r} is not a GameState (STATE_VERSION, new, parse_action)")
    if GAMES.setdefault(name, cls) is not cls:
        raise ValueError(f"another state class is registered as {name!r}: {GAMES[name]!r}")
    return cls


def game_class(name: object, games: Iterable[type] | None = None) -> type:
    """The ``GameState`` class of the game called ``name``: the one of ``games`` whose ``game`` is ``name``, or
    (``games`` omitted) the one registered in :data:`GAMES`.

    Raises:
        StateError: ``name`` is not a string matching :data:`GAME_NAME`, or no such class is given/registered
            (``field="game"``). Nothing is imported.
    """
    if not isinstance(name, str) or not GAME_NAME.fullmatch(name):
        raise StateError(f"a record's game must be a name like 'conex', not {name!r}", field="game")
    known = GAMES if games is None else {getattr(cls, "game", None): cls for cls in games}
    cls = known.get(name)
    if cls is None:
        raise StateError(f"there is no game called {name!r}", field="game", game=name)
    return cls


def export_record(
    state: Any, *, names: Sequence[str], meta: Mapping[str, Any] | None = None, unfinished: bool = False
) -> dict[str, Any]:
    """The record of ``state`` (a ``GameState``) as a JSON-ready dict (see the module docstring).

    Args:
        state: the game, normally finished.
        names: display names by seat (``len == state.num_players``; any script).
        meta: optional JSON-ready extras stored under ``"meta"`` (game id, guild, finish date...).
        unfinished: allow a game still running (its setup may hold what the players must not see yet, e.g. a
            shuffle seed: export a running game only for an aborted table or a moderator).

    Raises:
        ValueError: the game is still running and ``unfinished`` is false; ``names`` is not one string (at most
            :data:`MAX_NAME_CHARS` characters) per seat;
            ``meta`` is not a JSON-ready dict.
    """
    if not state.is_over and not unfinished:
        raise ValueError("the game is still running: export it with unfinished=True only if its setup may be shown")
    names = list(names)
    if len(names) != state.num_players or not all(isinstance(n, str) and len(n) <= MAX_NAME_CHARS for n in names):
        raise ValueError(
            f"names must be {state.num_players} strings of at most {MAX_NAME_CHARS} characters, one per "
            f"seat, not {names!r:.200}"
        )
    outcome = state.outcome
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game,
        "state_version": state.STATE_VERSION,
        "setup": state.setup,
        "history": [[seat, text] for seat, text in state.history],
        "players": names,
        "outcome": outcome.to_dict() if outcome is not None else None,
    }
    if meta:
        try:
            record["meta"] = json.loads(json.dumps(dict(meta)))
        except (TypeError, ValueError) as err:
            raise ValueError(f"meta must be JSON-ready: {err}") from None
    return record


def _refuse(message: str, **details: Any) -> StateError:
    return StateError(message, **details)


def parse_record(d: object, games: Iterable[type] | None = None) -> Record:
    """Check a record's shape (format, version, game, types and bounds of every field) without replaying it.
    ``games``: the state classes the record may be of (default: the registered ones, :data:`GAMES`).

    Raises:
        StateError: not a dict; wrong ``format`` or ``version``; unknown game; ``state_version`` newer than the
            engine's; a setup that is no dict; a history that is no list of ``[seat, text]`` (seat an int, text at
            most :data:`MAX_ACTION_CHARS` characters, at most :data:`MAX_ACTIONS` entries); players that are no list
            of strings; a malformed outcome; ``meta`` that is no dict. ``details["field"]`` names the field.
    """
    if not isinstance(d, Mapping):
        raise _refuse("a game record is a JSON object", field="record")
    if d.get("format") != FORMAT:
        raise _refuse(f"not a game record (format {d.get('format')!r}, expected {FORMAT!r})", field="format")
    if type(d.get("version")) is not int or d["version"] != VERSION:
        raise _refuse(
            f"record version {d.get('version')!r} is not supported (this engine reads {VERSION})", field="version"
        )
    cls = game_class(d.get("game"), games)
    sv = d.get("state_version")
    if type(sv) is not int or not 1 <= sv <= cls.STATE_VERSION:  # type: ignore[attr-defined]
        raise _refuse(
            f"state_version {sv!r}: this engine knows versions 1..{cls.STATE_VERSION}",  # type: ignore[attr-defined]
            field="state_version",
        )
    setup = d.get("setup")
    if not isinstance(setup, Mapping):
        raise _refuse("a record's setup must be an object", field="setup")
    raw = d.get("history")
    if not isinstance(raw, list) or len(raw) > MAX_ACTIONS:
        raise _refuse(f"a record's history must be a list of at most {MAX_ACTIONS} [seat, text] pairs", field="history")
    history: list[tuple[int, str]] = []
    for i, entry in enumerate(raw):
        if (
            not isinstance(entry, list | tuple)
            or len(entry) != 2
            or type(entry[0]) is not int
            or not isinstance(entry[1], str)
            or len(entry[1]) > MAX_ACTION_CHARS
        ):
            raise _refuse(f"history entry {i} must be [seat, text], not {entry!r:.80}", field="history", index=i)
        history.append((entry[0], entry[1]))
    players = d.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(isinstance(n, str) and len(n) <= MAX_NAME_CHARS for n in players)
    ):
        raise _refuse("a record's players must be a list of display names", field="players")
    outcome = None
    if d.get("outcome") is not None:
        try:
            outcome = Outcome.from_dict(d["outcome"])
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise _refuse(f"malformed outcome: {err}", field="outcome") from None
    meta = d.get("meta", {})
    if not isinstance(meta, Mapping):
        raise _refuse("a record's meta must be an object", field="meta")
    return Record(str(d["game"]), cls, sv, dict(setup), tuple(history), tuple(players), outcome, dict(meta))


def replay_steps(state_cls: type, setup: Mapping[str, Any], history: Sequence[tuple[int, str]]) -> Iterator[Step]:
    """Replay ``history`` from ``state_cls.new(setup)``, yielding the start (:class:`Step` index 0) and then the
    state after each action with the action's events. The yielded ``state`` is one live object, advanced in place.

    Raises:
        StateError: the setup is refused (``field="setup"``) or a history entry does not replay (``details["index"]``
            is its 0-based position, ``details["refused"]`` the rule that refused it).
    """
    try:
        state = state_cls.new(dict(setup))  # type: ignore[attr-defined]
    except (RuleError, TypeError, ValueError, KeyError) as err:
        raise _refuse(f"the record's setup is refused: {err}", field="setup") from None
    yield Step(0, None, None, None, (), state)
    for i, (seat, text) in enumerate(history):
        try:
            applied = state.apply(state.parse_action(text, seat))
        except (RuleError, TypeError, ValueError, KeyError) as err:
            rule = err.rule if isinstance(err, RuleError) else "Input"
            raise _refuse(
                f"history entry {i} ({seat}, {text!r}) does not replay: {err}", field="history", index=i, refused=rule
            ) from None
        yield Step(i + 1, seat, text, applied.action, tuple(applied.events), state)


def load_record(d: object, games: Iterable[type] | None = None) -> Any:
    """The finished (or exported unfinished) game a record describes, rebuilt by replaying its history through the
    game's rules (``GameState.replay`` semantics: every action validated). ``games``: the state classes the record
    may be of (e.g. ``[kind.engine]``; default: the registered ones, :data:`GAMES`).

    Returns:
        the game's ``GameState`` after the last action; its ``to_dict()`` equals the exported game's.

    Raises:
        StateError: everything :func:`parse_record` refuses; a setup or history entry the rules refuse; a player
            list whose length is not the game's seat count; an outcome that disagrees with the replay (a recorded
            outcome for a game the replay leaves running, or none for a game the replay ends, or different
            ranking, reason, results, scores or forfeits).
    """
    rec = parse_record(d, games)
    state: Any = None
    for step in replay_steps(rec.state_cls, rec.setup, rec.history):
        state = step.state
    verify_final(rec, state)
    return state


def verify_final(rec: Record, state: Any) -> None:
    """Check the replayed ``state`` (the game after the record's last action) against the record: as many players
    as seats, and the recorded outcome equal to the replayed one. Raises ``StateError`` (``field`` =
    ``"players"`` or ``"outcome"``) as :func:`load_record` does."""
    if len(rec.players) != state.num_players:
        raise _refuse(
            f"the record names {len(rec.players)} players for a {state.num_players}-seat game", field="players"
        )
    replayed = state.outcome
    if (replayed is None) != (rec.outcome is None) or (replayed is not None and replayed != rec.outcome):
        raise _refuse(
            "the record's outcome disagrees with its history: recorded "
            f"{rec.outcome.to_dict() if rec.outcome else None}, replayed {replayed.to_dict() if replayed else None}",
            field="outcome",
        )
