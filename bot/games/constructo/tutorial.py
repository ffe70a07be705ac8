"""Constructo's lesson (``/learn constructo``, ``bot/services/tutorial.py``): which rule matters when.

The tutorial is a real match on ``rombo`` against the easy AI; the learner (seat 0) starts round 1. Steps, in
teaching order, each taught on the first board where it matters for the learner (rules of
``docs/rules/constructo.md``):

- ``layout`` (C2-C4) and ``place`` (T1, T2): from the first board;
- ``stack`` (T1, K1, K2, K3): the learner has a move onto a bigger opponent chip, or a tower stands;
- ``swallow`` (K4): the learner's lone large can swallow a lone opponent small, or a swallow stands;
- ``tower`` (S1, S2, T4): a tower stands on the board;
- ``round_end`` (E1, E2) and ``match`` (M1, M2): round 1 is over.

The AI's gentle steer (:func:`steer`): until the learner has been able to stack, and then to swallow, the AI places
a chip that lets them when a placement does (once per rule); otherwise it plays its easy level.
"""

from __future__ import annotations

from bot.services.tutorial import Lesson
from engine.constructo import Match, Round, Size

STEPS: tuple[str, ...] = ("layout", "place", "stack", "swallow", "tower", "round_end", "match")


def reached(match: Match, learner: int) -> list[str]:
    """The steps whose rule matters in ``match`` for seat ``learner`` (see the module docstring). Pure."""
    out = ["layout", "place"]
    for rnd in match.rounds:
        for n in range(1, 10):
            if len(rnd.tile(n)) < 2:
                continue
            if rnd.is_swallow(n):
                out.append("swallow")
            else:
                out += ["stack", "tower"]
    if match.phase == "playing" and match.current_player == learner:
        rnd = match.current_round
        for move in rnd.legal_moves():
            if move.is_place or move.src is None:
                continue
            size = rnd.tile(move.src)[-1][1]
            out.append("swallow" if size == Size.LARGE else "stack")
    if len(match.rounds) > 1 or match.rounds[0].is_over:
        out += ["round_end", "match"]
    return out


def offers(rnd: Round) -> set[str]:
    """What the player to move in ``rnd`` may do with a lone chip: ``"swallow"`` (a large onto a lone small, K4)
    and/or ``"stack"`` (onto a bigger chip, K1/K2)."""
    out = set()
    for move in rnd.legal_moves():
        if not move.is_place and move.src is not None:
            out.add("swallow" if rnd.tile(move.src)[-1][1] == Size.LARGE else "stack")
    return out


def offered_before(match: Match, learner: int) -> set[str]:
    """What :func:`offers` gave ``learner`` on any of their turns so far (every round replayed)."""
    seen: set[str] = set()
    for rnd in match.rounds:
        trial = Round(rnd.layout, rnd.first)
        for move in rnd.history:
            if trial.current_player == learner:
                seen |= offers(trial)
            trial.play(move)
        if trial.current_player == learner and not trial.is_over:
            seen |= offers(trial)
    return seen


def steer(match: Match, seat: int, learner: int) -> str | None:
    """The easy AI's gentle steer: while the learner has never been able to stack (a chip one size bigger beside a
    lone chip of theirs) or then to swallow (a small beside their lone large), the AI places a chip that lets them,
    when one does; otherwise ``None`` (the AI plays its own easy move). At most one steered move per rule: once
    offered, a rule is not offered again. Pure; a replay of the match and a few position copies (the placements
    beside the learner's lone chips)."""
    if match.phase != "playing" or match.current_player != seat or seat == learner:
        return None
    seen = set(reached(match, learner)) | offered_before(match, learner)
    wanted = [k for k in ("stack", "swallow") if k not in seen]
    if not wanted:
        return None
    rnd = match.current_round
    lone = [n for n in range(1, 10) if len(rnd.tile(n)) == 1 and rnd.tile(n)[0][0] == learner]
    near = {b for a in lone for b in rnd.layout.neighbours(a) if not rnd.tile(b)}  # only these can offer a move
    trials = []
    for move in rnd.legal_moves():
        if not move.is_place or move.tile not in near:
            continue
        trial = rnd.copy()
        trial.play(move)
        if not trial.is_over:
            trials.append((move, offers(trial)))
    for kind in wanted:
        for move, offered in trials:
            if kind in offered:
                return str(move)
    return None


LESSON = Lesson(steps=STEPS, reached=reached, options={"layout": "rombo"}, level="easy", steer=steer)
