"""What players read of a tournament: a round's pairings, the standings (paged within Discord's limits), the final
result. Texts are ``tourney.*`` keys (``bot/locales/*_tourney.py``); points are shown with ½ (``2½``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from bot.core.names import plain
from bot.core.paging import MESSAGE_LIMIT, pages
from bot.i18n import t, tn
from bot.services import pairing, tourney_forfeit
from bot.storage.tourneys import Entrant, Pairing, Tourney

PODIUM = 3
"""How many places the final message names."""


def pts(value: float) -> str:
    """``2.5`` -> ``"2½"``, ``0.5`` -> ``"½"``, ``3.0`` -> ``"3"``; quarter points (Sonneborn-Berger) as decimals."""
    whole, rest = divmod(value, 1.0)
    if rest == 0:
        return str(int(whole))
    if rest == 0.5:
        return f"{int(whole) if whole else ''}½"
    return f"{value:g}"


def fmt_name(fmt: str, locale: Any) -> str:
    """The format in words (``Swiss``, ``round robin``)."""
    return t(f"tourney.fmt_{fmt}", locale)


def head(tour: Tourney, title: str, locale: Any) -> str:
    """``<game> tournament (Swiss): round 2 of 3`` or its state before and after."""
    fmt = fmt_name(tour.format, locale)
    if tour.status == "open":
        return t("tourney.head_open", locale, game=title, format=fmt, rounds=tour.rounds)
    if tour.status == "running":
        return t("tourney.head_running", locale, game=title, format=fmt, round=tour.round, rounds=tour.rounds)
    return t(f"tourney.head_{tour.status}", locale, game=title, format=fmt, rounds=tour.rounds)


def round_text(
    tour: Tourney, title: str, rows: Sequence[Pairing], *, lead: str = "", gone: Collection[int] = ()
) -> list[tuple[str, list[int]]]:
    """The public messages of a round: ``lead`` (a line before it, e.g. the start's), one line per board (a bye
    last), mentioning the players; as one message per 2,000 characters (a field of 64 needs two in Spanish), each
    with whom it mentions. Every board is named: none is clipped. A board scored without a game says so
    (:func:`bot.services.tourney_forfeit.line`; ``gone``: the withdrawn players, whose boards say they withdrew)."""
    loc = tour.locale
    head = t("tourney.round_head", loc, game=title, round=rows[0].round if rows else tour.round, rounds=tour.rounds)
    lines: list[tuple[str, list[int]]] = [(x, []) for x in (lead, head) if x]
    for p in rows:
        if p.b is None:
            lines.append((t("tourney.bye_line", loc, player=f"<@{p.a}>"), [p.a]))
        elif (settled := tourney_forfeit.line(tour, p, gone)) is not None:
            lines.append((settled, []))
        elif p.outcome == "none" and p.game_id is None:
            lines.append((t("tourney.unplayed_line", loc, board=p.board, a=f"<@{p.a}>", b=f"<@{p.b}>"), []))
        else:
            lines.append((t("tourney.board_line", loc, board=p.board, a=f"<@{p.a}>", b=f"<@{p.b}>"), [p.a, p.b]))
    lines.append((t("tourney.round_foot", loc), []))
    out: list[tuple[str, list[int]]] = []
    used = 0
    for page in pages([text for text, _ in lines], limit=MESSAGE_LIMIT):  # the lines in order, page by page
        out.append(("\n".join(page), [m for _, mentioned in lines[used : used + len(page)] for m in mentioned]))
        used += len(page)
    return out


def standing_lines(entrants: Sequence[Entrant], games: Sequence[pairing.Game], locale: Any) -> list[str]:
    """One line per player, in standings order (the tie-break of :mod:`bot.services.pairing`)."""
    names = {e.user_id: plain(e.name) for e in entrants}  # also names stored before they were plain
    out_of = {e.user_id for e in entrants if e.withdrawn is not None}
    lines = []
    for s in pairing.standings([e.user_id for e in entrants], games):
        line = t(
            "tourney.standing_line",
            locale,
            place=s.place,
            name=names.get(s.player, str(s.player)),
            points=pts(s.points),
            buchholz=pts(s.buchholz),
            berger=pts(s.berger),
            played=s.played,
        )
        if s.player in out_of:
            line += " " + t("tourney.withdrawn_mark", locale)
        lines.append(line)
    return lines


def standings_page(
    tour: Tourney, title: str, entrants: Sequence[Entrant], games: Sequence[pairing.Game], page: int, locale: Any
) -> tuple[str, int]:
    """Page ``page`` (1-based, clamped) of the standings as one message (at most 2,000 characters), and the
    number of pages."""
    top = head(tour, title, locale)
    legend = t("tourney.legend", locale)
    foot_room = 40
    lines = standing_lines(entrants, games, locale) or [t("tourney.no_players", locale)]
    book = pages(lines, limit=MESSAGE_LIMIT, head_room=len(top) + len(legend) + foot_room, per_page=20)
    n = len(book)
    page = min(max(page, 1), n)
    body = [top, *book[page - 1], legend]
    if n > 1:
        body.append(t("tourney.page", locale, page=page, pages=n))
    return "\n".join(body), n


def final_text(
    tour: Tourney, title: str, entrants: Sequence[Entrant], games: Sequence[pairing.Game]
) -> tuple[str, list[int]]:
    """The public message when the tournament ends: the podium (mentioned) and where to read the rest."""
    loc = tour.locale
    table = pairing.standings([e.user_id for e in entrants], games)[:PODIUM]
    lines = [t("tourney.final_head", loc, game=title)]
    for s in table:
        one = 1 if s.points in (0.5, 1) else 2  # "½ point", "1 point", "2½ points"
        lines.append(tn("tourney.podium_line", one, loc, place=s.place, player=f"<@{s.player}>", points=pts(s.points)))
    lines.append(t("tourney.final_foot", loc))
    return "\n".join(lines), [s.player for s in table]
