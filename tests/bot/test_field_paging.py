"""``bot.core.paging`` (issue 22): whole lines packed into pages within a limit, never cut mid-line."""

from __future__ import annotations

from bot.core.paging import clip, pages


def test_pages_keep_whole_lines_within_the_limit_and_the_count() -> None:
    lines = [f"{n:03d} " + "x" * (40 + n % 50) for n in range(300)]
    packed = pages(lines, limit=2000, head_room=60, per_page=20)
    assert [line for page in packed for line in page] == lines  # every line once, in order, whole
    for page in packed:
        assert len("\n".join(page)) <= 1940 and 1 <= len(page) <= 20
    assert pages([]) == [[]]


def test_a_line_longer_than_a_page_is_shortened_alone() -> None:
    packed = pages(["a", "b" * 5000, "c"], limit=100)
    assert packed == [["a"], ["b" * 99 + "…"], ["c"]]


def test_clip_keeps_whole_lines_then_an_ellipsis_line() -> None:
    text = "\n".join(f"line {n} " + "y" * 30 for n in range(200))
    out = clip(text, 500)
    assert len(out) <= 500 and out.endswith("\n…")
    assert all(line in text.split("\n") for line in out.split("\n")[:-1])
    assert clip("short") == "short"
    assert clip("z" * 3000, 100) == "z" * 99 + "…"
