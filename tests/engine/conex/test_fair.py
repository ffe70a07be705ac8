"""Provably fair deals (issue 16 part 3): the commitment is a pure function of (seed, deck version), a tampered
seed or commitment fails, the deal is recomputed from the seed, 128-bit seeds work everywhere."""

from __future__ import annotations

import json
import secrets

import pytest

from engine.conex import Draw, Game, fair
from engine.conex.__main__ import main


def test_commitment_is_a_pure_function_of_seed_and_deck() -> None:
    seed = 0x1F2E3D4C5B6A798812345678ABCDEF01
    c = fair.commitment(seed)
    assert c == fair.commitment(seed) and len(c) == 64 and int(c, 16) >= 0
    assert fair.canonical_text(seed) == f"conex-deal:v1:deck={fair.deck_version()}:seed={seed}"
    assert fair.commitment(seed, "0" * 16) != c  # another deck, another commitment
    assert fair.commitment(seed + 1) != c
    assert fair.verify(seed, c) and fair.verify(seed, f"  {c.upper()} ")


def test_a_tampered_seed_or_commitment_fails() -> None:
    seed = secrets.randbits(128)
    c = fair.commitment(seed)
    assert not fair.verify(seed ^ 1, c)
    flipped = ("0" if c[0] != "0" else "1") + c[1:]
    assert not fair.verify(seed, flipped)
    assert not fair.verify(seed, c[:-1])
    assert not fair.verify(seed, c, "ffffffffffffffff")


def test_the_deal_is_recomputed_from_the_seed_and_128_bit_seeds_work_everywhere() -> None:
    seed = (1 << 127) + 12345
    g = Game.new(players=3, seed=seed)
    hands, pile = fair.deal(seed, 3)
    assert g.hands == hands and g.pile == pile and sorted(fair.shuffled(seed)) == list(range(1, 53))
    assert fair.shuffled(seed)[:5] == hands[0]
    g.play(Draw(0))
    back = Game.from_dict(json.loads(json.dumps(g.to_dict())))
    assert back.seed == seed and back.to_dict() == g.to_dict()
    assert Game.replay(back.setup, back.history).to_dict() == g.to_dict()
    assert str(seed) not in json.dumps(g.view_for(1))


def test_verify_cli_prints_the_deal_and_exits_0_or_1(capsys: pytest.CaptureFixture[str]) -> None:
    seed = 987654321987654321987654321
    c = fair.commitment(seed)
    assert main(["verify", str(seed), c, "--players", "3"]) == 0
    out = capsys.readouterr().out
    hands, pile = fair.deal(seed, 3)
    assert out.strip().endswith("OK") and "seat 1: " + " ".join(map(str, hands[0])) in out
    assert f"draw pile ({len(pile)}, top first): " + " ".join(map(str, pile)) in out
    assert main(["verify", str(seed + 1), c]) == 1
    out = capsys.readouterr().out
    assert out.strip().endswith("MISMATCH") and "deal for 4 seats" in out
