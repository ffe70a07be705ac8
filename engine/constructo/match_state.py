"""Loading a stored Constructo match: version 2 (setup + history replayed, redundant fields checked) and version 1
(the bot before the game protocol; its history rebuilt from the rounds). The format is in docs/interfaces.md.

Below ``engine/constructo/match.py``: ``Match.from_dict`` reads the stored setup and history with
:func:`setup_and_history`, replays them itself and checks the redundant fields with :func:`check_stored`; this
module never imports ``match``."""

from __future__ import annotations

from typing import Any

from engine.constructo.round import Round
from engine.errors import RuleError, StateError


def setup_and_history(d: Any, game: str, version_now: int) -> tuple[Any, list[tuple[int, str]], int]:
    """``(setup, history, version)`` of a stored match ``d`` of ``game`` in version 1 or ``version_now``.

    Raises ``StateError`` for a non-object, an unknown version, another game or a malformed setup or history."""
    if not isinstance(d, dict):
        raise StateError("a stored match must be an object")
    version = d.get("version")
    setup: Any
    history: Any
    if version == 1:
        setup, history = _v1_setup_and_history(d)
    elif version == version_now:
        if d.get("game", game) != game:
            raise StateError(f"not a Constructo state: game = {d.get('game')!r}")
        setup, history = d.get("setup"), d.get("history")
        if not isinstance(setup, dict):
            raise StateError("'setup' must be an object {layout, first}")
        if not isinstance(history, list) or not all(
            isinstance(h, list | tuple) and len(h) == 2 and h[0] in (0, 1) and isinstance(h[1], str) for h in history
        ):
            raise StateError("'history' must be a list of [player 0|1, action text]")
    else:
        raise StateError(f"unknown match state version {version!r} (this engine reads 1 and {version_now})")
    return setup, [(int(p), t) for p, t in history], version


def check_stored(d: dict[str, Any], version: int, replayed: dict[str, Any]) -> None:
    """Compare the redundant fields of stored ``d`` (version 1: phase, totals; later: phase, rounds, totals,
    outcome) with ``replayed`` (the replayed match's ``to_dict()``). Raises ``StateError`` on a disagreement."""
    checked = ("phase", "totals") if version == 1 else ("phase", "rounds", "totals", "outcome")
    for key in checked:
        if key in d and d[key] != replayed[key]:
            raise StateError(f"stored {key!r} {d[key]!r} disagrees with the replayed match ({replayed[key]!r})")


def _v1_setup_and_history(d: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """Setup and history of a version-1 match (``first``, ``rounds`` of ``Round.to_dict``, ``resigned``):
    each round's moves alternate from its starter, round 2's layout is the chooser's action, a resignation is
    the last action. Raises StateError like the version-1 loader did."""
    first = d.get("first")
    if first not in (0, 1) or isinstance(first, bool):
        raise StateError(f"bad 'first' {first!r}: must be 0 or 1")
    raw_rounds = d.get("rounds")
    if not isinstance(raw_rounds, list) or not 1 <= len(raw_rounds) <= 2:
        raise StateError("'rounds' must hold 1 or 2 rounds (M1)")
    rounds: list[Round] = []
    for i, raw in enumerate(raw_rounds, start=1):
        try:
            rnd = Round.from_dict(raw)
        except RuleError as err:
            raise StateError(f"round {i}: {err.message}") from err
        expected = first if i == 1 else 1 - first
        if rnd.first != expected:
            raise StateError(f"round {i} must be started by player {expected}, not {rnd.first} (M1)")
        rounds.append(rnd)
    if len(rounds) == 2 and not rounds[0].is_over:
        raise StateError("round 2 exists but round 1 is not over (M1)")
    resigned = d.get("resigned")
    if resigned is not None and (resigned not in (0, 1) or isinstance(resigned, bool)):
        raise StateError(f"bad 'resigned' {resigned!r}: must be null, 0 or 1")
    history = history_of(first, rounds)
    if resigned is not None:
        history.append((resigned, "forfeit"))
    return {"layout": rounds[0].layout.to_text(), "first": first}, history


def history_of(first: int, rounds: list[Round]) -> list[tuple[int, str]]:
    """The ``(player, text)`` actions that built ``rounds``: moves alternating from each round's starter, round 2's
    layout chosen by the player who did not start round 1 (M1)."""
    history: list[tuple[int, str]] = []
    for i, rnd in enumerate(rounds):
        if i == 1:
            history.append((1 - first, f"layout {rnd.layout.to_text()}"))
        history += [(rnd.first ^ (k & 1), str(m)) for k, m in enumerate(rnd.history)]
    return history
