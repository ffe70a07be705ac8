"""``python -m engine.conex verify <seed> <hash> [--players N] [--deck VERSION]``: recompute a CONEX deal from
its revealed seed and check it against the commitment shown at the game's start (``engine/conex/fair.py``).

Prints the commitment scheme, the deck version, the shuffled deck, the hands and the draw pile (for ``--players``,
else for 2, 3 and 4 seats), then ``OK`` (exit code 0) or ``MISMATCH`` (exit code 1). Bad arguments: exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine.conex import fair


def _ids(ids: Sequence[int]) -> str:
    return " ".join(str(i) for i in ids)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.conex", description="CONEX tools")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = sub.add_parser("verify", help="check a revealed seed against the commitment and print the deal")
    cmd.add_argument("seed", type=int, help="the revealed seed (a whole number)")
    cmd.add_argument("hash", help="the SHA-256 commitment shown at the game's start (64 hex digits)")
    cmd.add_argument("--players", type=int, choices=(2, 3, 4), help="seats in the game (default: show 2, 3 and 4)")
    cmd.add_argument("--deck", help="the deck version the game showed (default: this program's deck)")
    args = parser.parse_args(argv)
    deck = args.deck or fair.deck_version()
    print(f"scheme: {fair.COMMITMENT_SCHEME}  deck: {deck}  seed: {args.seed}")
    print(f"committed text: {fair.canonical_text(args.seed, deck)}")
    print(f"shuffled deck (top first): {_ids(fair.shuffled(args.seed))}")
    for players in [args.players] if args.players else [2, 3, 4]:
        hands, pile = fair.deal(args.seed, players)
        print(f"deal for {players} seats:")
        for seat, hand in enumerate(hands, start=1):
            print(f"  seat {seat}: {_ids(hand)}")
        print(f"  draw pile ({len(pile)}, top first): {_ids(pile)}")
    if deck != fair.deck_version():
        print(f"note: this program's deck is {fair.deck_version()}; the deal above uses it")
    ok = fair.verify(args.seed, args.hash, deck)
    print(f"commitment {fair.commitment(args.seed, deck)}")
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
