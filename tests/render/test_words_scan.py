"""No English hard-coded where render/ draws text: an AST scan of every ``render/*.py`` for a string literal with a
word (two letters or more) inside the text argument of a drawing call (``draw_text``, ``stamp_text``, ``draw_fit``,
``draw_label``, ``wrap_text``, ``ellipsize``, ``fit_text``). Words come from ``render.words.Words`` templates, which
the bot fills in the viewer's language. Every module is scanned: none is exempt. The runtime checks (a
pseudo-language render) are in tests/render/test_conex_words.py (CONEX table, hand, hints, result) and
tests/render/test_record_words.py (result cards, leaderboard, layouts sheet, replays)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

RENDER = Path(__file__).resolve().parents[2] / "render"
TEXT_ARG = {
    "draw_text": 2,
    "stamp_text": 2,
    "draw_fit": 2,
    "draw_label": 2,
    "wrap_text": 0,
    "ellipsize": 0,
    "fit_text": 0,
}
WORD = re.compile(r"[A-Za-z]{2,}")


def _literal_words(node: ast.AST) -> list[str]:
    """Words of the string literals that ``node`` draws: not the arguments of a call inside it (a template key
    ``w("cn.title")``, a separator of ``" · ".join``), which are not drawn themselves."""
    if isinstance(node, ast.Constant):
        return WORD.findall(node.value) if isinstance(node.value, str) and not node.value.startswith("#") else []
    if isinstance(node, ast.Call):
        return _literal_words(node.func.value) if isinstance(node.func, ast.Attribute) else []
    return [w for child in ast.iter_child_nodes(node) for w in _literal_words(child)]


def drawn_literals(path: Path, source: str | None = None) -> list[str]:
    """``"line: words"`` for each drawing call of ``path`` (or of ``source``, named ``path``) whose text argument
    holds a literal word."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8") if source is None else source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name not in TEXT_ARG:
            continue
        args = list(node.args)
        text = args[TEXT_ARG[name]] if len(args) > TEXT_ARG[name] else None
        text = next((k.value for k in node.keywords if k.arg == "text"), text)
        if text is not None and (words := _literal_words(text)):
            found.append(f"{path.name}:{node.lineno}: {' '.join(words)}")
    return found


def test_no_render_module_draws_a_literal_word() -> None:
    found = [hit for path in sorted(RENDER.glob("*.py")) for hit in drawn_literals(path)]
    assert found == [], "words drawn from the code, not from Words:\n" + "\n".join(found)


def test_the_scan_finds_a_literal_word() -> None:
    """The scan can fail: the hard-coded words these (former) lines of render/ drew are found; a template key or
    a symbol is not."""
    drawn = """
draw_text(draw, (MARGIN, 20), "Constructo — match result", size=FS)
draw_fit(draw, (x, y), f"{names[p]} ({PLAYER_PATTERN[p]})", max_w=9, size=FS, fill=ink)
lines = wrap_text("Constructo layouts — pick one by name", WIDTH, FS, True)
ellipsize(head + f"game over · {who}{verb}", max_w, fs, True)
draw_text(draw, (x, y), w("ly.title"), size=FS)
draw_text(draw, (x, y), "★ " + w("ly.recommended") + f" #{n} · +{p}", size=FS)
"""
    found = drawn_literals(Path("sample.py"), drawn)
    assert [hit.split(": ", 1)[1] for hit in found] == [
        "Constructo match result",
        "Constructo layouts pick one by name",
        "game over",
    ], found


def test_the_constructo_board_draws_only_the_words_it_is_given() -> None:
    """A pseudo-language render of Constructo boards (playing, choosing round 2, over): no two-letter word drawn."""
    from engine.constructo import Match, Round
    from render.constructo import render_board
    from render.constructo_words import EN
    from render.text import record_labels
    from render.words import Words

    pseudo = Words("xx", {k: "¤" for k in EN})
    playing = Match(0, [Round.from_record("rombo: L5 M4 S1 4-5")])
    for match in (playing, Match.new("flor")):
        with record_labels() as labels:
            render_board(match, names=("Ω1", "Ω2"), words=pseudo)
        english = [lb.text for lb in labels if WORD.search(lb.text)]
        assert english == [], english
