"""Build tests/render/data/conex_52.json: a real CONEX game played out with the engine's finder (3 seats,
seed 7, goal 100), then the cards left in hands laid along the table's top and bottom edges so all 52 cards are on
the table. Slow (about 10 s), so the render tests load the stored state with ``Game.from_dict``.

Run: ``.venv/bin/python -m tests.render.make_conex_fixture``
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.conex import Discard, Draw, Game, Pass

OUT = Path(__file__).resolve().parent / "data" / "conex_52.json"


def play_out(players: int = 3, seed: int = 7, goal: int = 100, max_turns: int = 400) -> Game:
    """Every turn: discard if owed, place the best-scoring finder placement, else draw, else pass."""
    g = Game.new(players=players, seed=seed, table="medium", goal=goal)
    for _ in range(max_turns):
        if g.is_over:
            break
        for q in sorted(g.pending_discards):
            g.play(Discard(q, g.hand(q)[0].id))
        if g.is_over:
            break
        p = g.current_player
        best = None
        for c in g.hand(p):
            found = g.find_placements(p, c.id, limit=1)
            if found and (best is None or g.points_for(found[0]) > g.points_for(best)):
                best = found[0]
        if best is not None:
            g.play(best)
        elif g.draw_pile:
            g.play(Draw(p))
        else:
            g.play(Pass(p))
    return g


def full_table_state() -> dict[str, Any]:
    g = play_out()
    d = g.to_dict()
    # spots along the top and bottom edges of the medium table (100 x 70 cm), alternating sides
    spots = [(x, y) for x in range(-455, 456, 70) for y in (-295.0, 295.0)]
    extra = [cid for h in d["hands"] for cid in h] + list(d["draw_pile"])
    assert len(extra) <= len(spots), f"{len(extra)} cards left, only {len(spots)} spots"
    for cid, (x, y) in zip(extra, spots, strict=False):
        d["table"].append(
            {
                "card": cid,
                "x_mm": float(x),
                "y_mm": y,
                "rotation": 0.0,
                "placed_by": 0,
                "points": 0,
                "corner": 1,
                "target": "board",
            }
        )
    d["hands"] = [[] for _ in d["hands"]]
    d["draw_pile"] = []
    return d


if __name__ == "__main__":
    state = full_table_state()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(state, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(state['table'])} table cards")
