"""CONEX's provably fair deals at the table (issue 16.3; the scheme is ``engine/conex/fair.py``).

- **Commitment** (start): the seed, hence its SHA-256 commitment (with the deck version), is fixed by the start
  commit itself; the first table message carries the commitment (:func:`commitment_line`, in the start headline
  and in the lobby message's last edit; a table recovered before any was recorded adds it to its headline). Nobody
  sees a card before it: My hand and Hints open as soon as the start commit exists (issue 22: no window where a
  true request is refused) and, while no table is recorded yet (:func:`deal_public`), carry the commitment line
  themselves (:func:`commitment_first`).
- **Reveal** (end): the result card says in words that the deal can be checked now; the proof itself is behind the
  button **How do I know the deal was fair?** (:func:`proof_text`, privately: two sentences, the fingerprint, and
  once the game is over the seed and the exact command that recomputes the deal and checks the commitment). An
  aborted game that had started reveals the seed in the abort message (:func:`abort_reveal`, issue 22): a re-deal
  is never free of a trace.

The seed is drawn by ``ConexRules.new_seed`` from ``secrets.randbits(128)``; die rolls and random discards derive from
it (``engine/conex/fair.py``), so the commitment covers every chance of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n import t
from bot.services.publish import board_version
from engine.conex import Game, fair

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.storage.records import GameRecord


def seed_of(game: Game) -> int:
    """The deal's seed (the engine setup's ``seed``)."""
    return int(game.setup["seed"])


def verify_command(game: Game) -> str:
    """``python -m engine.conex verify <seed> <hash> --players N``: recomputes the deal, checks the commitment."""
    seed = seed_of(game)
    return f"python -m engine.conex verify {seed} {fair.commitment(seed)} --players {game.players}"


def commitment_line(game: Game, locale: Any) -> str:
    """The commitment shown at the start, in words: the fingerprint (SHA-256 of the seed and deck version), never
    the seed itself, and the button that explains it."""
    return t("cn.commitment", locale, hash=fair.commitment(seed_of(game)), deck=fair.deck_version())


def reveal_line(game: Game, locale: Any) -> str:
    """The result card's line: the deal can be checked now (the proof is behind the fairness button)."""
    return t("cn.reveal", locale)


def seed_line(game: Game, locale: Any) -> str:
    """The seed revealed, with its fingerprint and the command that checks one against the other."""
    seed = seed_of(game)
    return t("cn.reveal_seed", locale, seed=seed, hash=fair.commitment(seed), command=verify_command(game))


def proof_text(game: Game, locale: Any, *, revealed: bool = False) -> str:
    """The private answer of **How do I know the deal was fair?**: the scheme in two sentences, the fingerprint
    posted at the start, and the seed with its check once the game is over or aborted (``revealed``; before: when it
    will be revealed)."""
    lines = [t("cn.fair_explain", locale), t("cn.fair_hash", locale, hash=fair.commitment(seed_of(game)))]
    lines.append(seed_line(game, locale) if game.is_over or revealed else t("cn.fair_pending", locale))
    return "\n".join(lines)


def deal_public(record: GameRecord) -> bool:
    """True once a table of the game is recorded (so its commitment is posted): hands may be shown."""
    return board_version(record) is not None


def commitment_first(snap: Snapshot, locale: Any) -> str:
    """``commitment line + "\n"`` while no table of the running game is recorded yet (a private answer showing
    cards then shows the commitment first), else ``""``."""
    if snap.status != "active" or snap.state is None or deal_public(snap.record):
        return ""
    return commitment_line(snap.state, locale) + "\n"  # type: ignore[arg-type]


def abort_reveal(snap: Snapshot, locale: Any) -> str:
    """For an aborted game that had started (an engine state exists): ``"\n"`` + the reveal line (seed, commitment,
    verify command), else ``""`` (a lobby never dealt)."""
    if snap.state is None:
        return ""
    return "\n" + t("abort.reveal", locale, reveal=seed_line(snap.state, locale))  # type: ignore[arg-type]
