"""Every ``InvalidInputError`` the engine can raise reaches a player in their language: each raise site (found by
scanning engine/ with ``ast``, so a new one is checked the day it is written) names a literal ``reason``, both
catalogues have ``rule.<code>.<reason>``, and every placeholder of both sentences is a keyword the raise passes."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from bot.errors import describe
from bot.i18n import MESSAGES
from engine.conex.finder import validate
from engine.conex.position import Position
from engine.constructo.layout import Layout
from engine.constructo.move import Move
from engine.errors import InvalidInputError

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GENERIC_ES = MESSAGES["es"]["rule.Input"]


def _raise_sites() -> list[tuple[str, int, ast.Call]]:
    sites = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name == "InvalidInputError":
                    sites.append((str(path.relative_to(ENGINE.parent)), node.lineno, node))
    return sites


SITES = _raise_sites()


def test_the_scan_finds_the_raise_sites() -> None:
    assert len(SITES) > 60, SITES  # the scan itself works: the engine has dozens of them


@pytest.mark.parametrize(("where", "line", "call"), SITES, ids=[f"{w}:{n}" for w, n, _c in SITES])
def test_every_engine_input_error_has_a_sentence_in_both_languages(where: str, line: int, call: ast.Call) -> None:
    kw = {k.arg: k.value for k in call.keywords if k.arg is not None}
    reason = kw.get("reason")
    assert isinstance(reason, ast.Constant) and isinstance(reason.value, str), (
        f"{where}:{line}: an InvalidInputError without a literal reason= reaches Spanish players as a vague refusal"
    )
    rule = kw.get("rule")
    code = rule.value if isinstance(rule, ast.Constant) else "Input"
    key = f"rule.{code}.{reason.value}"
    for lang in ("en", "es"):
        template = MESSAGES[lang].get(key)
        assert template, f"{where}:{line}: {key} missing from the {lang} catalogue"
        fields = {f for _t, f, _s, _c in string.Formatter().parse(template) if f}
        missing = fields - set(kw) - {"message"}
        assert not missing, f"{where}:{line}: {lang} {key} uses {missing}, which the raise does not pass"


def _fails(fn, *args):  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidInputError) as info:
        fn(*args)
    return info.value


@pytest.mark.parametrize(
    ("err", "en_part", "es_part"),
    [
        (lambda: _fails(Layout.parse, "rombito"), "Unknown layout “rombito”", "«rombito»"),
        (lambda: _fails(Layout.parse, "(0,0) (1,0)"), "exactly 9 cells, got 2", "has dado 2"),
        (lambda: _fails(Layout.parse, "(0,0) " * 9), "(0,0) appears twice", "(0,0) aparece dos veces"),
        (lambda: _fails(Layout.parse, "(a,b)"), "“(a,b)”", "«(a,b)»"),
        (lambda: _fails(Move.step, 5, 5), "two different tiles", "dos casillas distintas"),
        (lambda: _fails(Move.parse, "pass"), "passing is not allowed", "no se puede pasar"),
    ],
)
def test_real_refusals_read_specifically_in_both_languages(err, en_part: str, es_part: str) -> None:  # type: ignore[no-untyped-def]
    e = err()
    en, es = describe(e, "en-US"), describe(e, "es-ES")
    assert en_part in en, en
    assert es_part in es, es
    assert GENERIC_ES not in es


def test_a_missing_corner_is_named_in_spanish() -> None:
    game = Position.new({"players": 2, "seed": 7})
    card = next(c for c in game.hands[0] if len(game.card(c).corners) == 2)
    e = _fails(validate, game, 0, card, 3, None)
    assert "1-2" in describe(e, "en-US")
    assert f"La carta #{card} tiene las esquinas 1-2" in describe(e, "es-ES")


def _coded_refusals() -> list[tuple[str, int, str, str | None]]:
    """Every engine error raised with a literal rule code (IllegalMoveError, IllegalActionError...): where, code and
    reason (``None`` without one)."""
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = (
                (getattr(node.func, "id", None) or getattr(node.func, "attr", None))
                if isinstance(node, ast.Call)
                else None
            )
            if not isinstance(name, str) or not name.endswith("Error") or name in ("StateError", "InvalidInputError"):
                continue
            kw = {k.arg: k.value for k in node.keywords if k.arg is not None}
            rule, reason = kw.get("rule"), kw.get("reason")
            if isinstance(rule, ast.Constant):
                why = reason.value if isinstance(reason, ast.Constant) and isinstance(reason.value, str) else None
                out.append((str(path.relative_to(ENGINE.parent)), node.lineno, rule.value, why))
    return out


def test_every_coded_engine_refusal_has_a_spanish_sentence() -> None:
    """English falls back to the engine's own specific message; Spanish needs ``rule.<code>`` (or its reason's)."""
    coded = _coded_refusals()
    assert len(coded) > 40, coded
    missing = [
        f"{where}:{line} rule {code}"
        for where, line, code, why in coded
        if f"rule.{code}" not in MESSAGES["es"] and (why is None or f"rule.{code}.{why}" not in MESSAGES["es"])
    ]
    assert not missing, missing
