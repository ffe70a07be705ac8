"""The README's screenshots, rendered by the project itself: ``python -m tools.screenshots [--out docs/screenshots]``.

Writes ``constructo-board.png`` (a round in progress), ``conex-table.png`` (a 3-player table after a few cards),
``conex-hand.png`` (that table's first hand) and ``conex-hints.png`` (its hint sheet), and the board and the hand
again in the light theme with the colour-blind palette (``*-light-colour-blind.png``), each as a player sees it in
Discord, from fixed positions (the same files every run on the same fonts and Pillow). ``tests/render`` checks that
the committed files are current (``test_screenshots.py``): after a visual change, run this and look at them.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from engine.conex import Game
from engine.conex.sample import first_fit_game
from engine.constructo import Match, Round
from render import to_png
from render.conex import render_table
from render.conex_hand import render_hand
from render.conex_hints import render_hints
from render.constructo import render_board
from render.palette import COLOUR_BLIND

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
CONSTRUCTO_RECORD = "rombo: S1 L2 M9 2-1 L5 M4 S6 4-5 L3 M7"
"""A round in progress: swallows, a move, towers of both players (the notation of ``engine/constructo``)."""


def constructo_board(**look: Any) -> Any:
    """The board of :data:`CONSTRUCTO_RECORD`; ``look``: ``theme=`` and ``palette=`` of the drawing."""
    return render_board(Match(0, [Round.from_record(CONSTRUCTO_RECORD)]), names=("Alice", "Bob"), **look)


def conex_game(placed_cards: int = 7, seed: int = 11) -> Game:
    """A real 3-player game after ``placed_cards`` first-fit poses (``engine.conex.sample``)."""
    return first_fit_game(placed_cards, seed=seed)


def conex_images() -> dict[str, Any]:
    game = conex_game()
    seat = game.current_player
    hints = [p for c in game.hand(seat) for p in game.find_placements(seat, c.id, limit=2)][:4]
    names = ("Alice", "Bob", "Cara")
    return {
        "conex-table.png": render_table(game, names=names),
        "conex-hand.png": render_hand(game, seat),
        "conex-hints.png": render_hints(game, hints),
        "conex-hand-light-colour-blind.png": render_hand(game, seat, theme="light", palette=COLOUR_BLIND),
    }


def images() -> dict[str, Any]:
    """Every screenshot by file name (PIL images)."""
    light = constructo_board(theme="light", palette=COLOUR_BLIND)
    return {
        "constructo-board.png": constructo_board(),
        "constructo-board-light-colour-blind.png": light,
        **conex_images(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, img in images().items():
        (args.out / name).write_bytes(to_png(img))
        print(f"{args.out / name}: {img.width}x{img.height}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
