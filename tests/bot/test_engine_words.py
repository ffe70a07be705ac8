"""The engine's refusals in plain words: an engine error a player can meet (``IllegalMoveError``,
``IllegalActionError``, ``NotYourTurnError``, ``InvalidInputError``) is shown to English players with its own
message (``bot.errors.describe``), so no such message may cite rule codes in its sentence ("only medium onto large
(K1)"): the code travels in ``rule=`` and at most as the refusal's bold detail. ``StateError`` (a corrupt record,
never a player's action) is exempt. The raise sites are found by scanning engine/ with ``ast``, so a new one is
checked the day it is written."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.bot.test_plain_words import codes_in

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SHOWN = {"IllegalMoveError", "IllegalActionError", "NotYourTurnError", "InvalidInputError"}


def _message_text(node: ast.expr) -> str:
    """The literal parts of a message (a string, an f-string's constant parts, implicit concatenations)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp):
        return _message_text(node.left) + _message_text(node.right)
    return ""


def _sites() -> list[tuple[str, str]]:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args:
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in SHOWN:
                    where = f"{path.relative_to(ENGINE.parent)}:{node.lineno}"
                    found.append((where, _message_text(node.args[0])))
    return found


SITES = _sites()


def test_the_scan_finds_the_refusals() -> None:
    assert len(SITES) > 100 and sum(bool(text) for _w, text in SITES) > 100, len(SITES)


def test_the_scan_would_see_a_code_in_a_sentence() -> None:
    call = ast.parse('IllegalMoveError(f"only medium onto large (K1), not {x}", rule="K5")').body[0]
    assert isinstance(call, ast.Expr) and isinstance(call.value, ast.Call)
    assert codes_in(_message_text(call.value.args[0])) == ["(K1)"]


@pytest.mark.parametrize(("where", "text"), SITES, ids=[w for w, _t in SITES])
def test_no_engine_refusal_cites_a_rule_code_in_its_sentence(where: str, text: str) -> None:
    assert codes_in(text) == [], f"{where}: {text!r}"
