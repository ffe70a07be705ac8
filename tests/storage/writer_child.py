"""Child process for the kill-safety test: ``python writer_child.py DB GAME_ID PAD``.

Applies actions to one game forever; after each commit prints the committed seq on stdout
(flushed), so the parent knows what must survive a SIGKILL. ``PAD`` characters of filler make each
state large enough that a kill is likely to land in the middle of writing pages.
"""

from __future__ import annotations

import asyncio
import sys

from bot.storage import Storage


async def main(path: str, game_id: int, pad: int) -> None:
    storage = await Storage.open(path)
    game = await storage.get_game(game_id)
    assert game is not None
    version, moves = game.version, list(game.state["moves"])
    while True:
        text = f"a{version + 1}"
        moves.append(text)
        version = await storage.apply_action(
            game_id, version, {"moves": moves, "pad": "x" * pad}, player=1 + version % 2, action=text
        )
        sys.stdout.write(f"{version}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
