"""``render_board(single_round=True)``: a puzzle's position is one round, not a match: the title names only the layout
and no round scores or match totals are drawn (the words used are recorded, in English and Spanish)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.constructo.match import Match
from render.constructo import render_board
from render.words import Words


@dataclass(frozen=True)
class Recording(Words):
    """Words that note every key asked for."""

    used: list[str] = field(default_factory=list)

    def __call__(self, key: str, /, **fields: Any) -> str:
        self.used.append(key)
        return super().__call__(key, **fields)

    def with_defaults(self, defaults: Any) -> Words:
        return Recording(self.lang, self.templates, defaults, self.used)


def _match() -> Match:
    match = Match.new({"layout": "flor", "first": 0})
    for move in ("M1", "S9", "S3"):
        match.play(move)
    return match


def test_a_single_round_board_has_no_round_of_two_nor_match_scores() -> None:
    whole, single = Recording(), Recording()
    tall = render_board(_match(), words=whole)
    short = render_board(_match(), words=single, single_round=True)
    assert {"ko.title", "ko.match", "ko.match_score"} <= set(whole.used)
    assert "ko.title_single" in single.used
    assert not {"ko.title", "ko.match", "ko.match_score", "ko.round"} & set(single.used), single.used
    assert short.width == tall.width == 800 and short.height < tall.height
