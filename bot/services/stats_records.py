"""The lines ``/stats`` adds for a player's records (issue 25): head-to-head against an opponent, the best win
streak against people, and results broken down by the game's :attr:`~bot.core.kind.GameKind.stats_option`
(e.g. a game's first layout), from ``bot.storage.player_records``."""

from __future__ import annotations

from typing import Any

from bot.core.kind import GameKind
from bot.i18n import has, t
from bot.storage import WDL, Storage

__all__ = ["record_lines"]


def _add(a: WDL, b: WDL) -> WDL:
    return WDL(a.wins + b.wins, a.draws + b.draws, a.losses + b.losses)


async def record_lines(
    storage: Storage,
    kind: GameKind,
    guild_id: int,
    user_id: int,
    opponent: tuple[int, str] | None,
    locale: Any,
) -> list[str]:
    """The record lines of ``user_id`` in ``kind`` (each a whole line of at most ~120 characters, indented under
    the kind's ``/stats`` row): against ``opponent`` (``(user id, display name)``) when given, the best win streak
    when there is one, and the results by option (stored values that read the same, such as every
    custom layout, are added up). Raises the storage's ``InvalidDataError`` for malformed ids."""
    lines: list[str] = []
    if opponent is not None:
        by_place = kind.seating.max_seats > 2  # a game of places: ahead of / behind them, never "lost" a 2nd place
        read = storage.places_against if by_place else storage.head_to_head
        with_them = await read(guild_id, kind.name, user_id, opponent[0])
        key = (
            ("stats.records_places" if by_place else "stats.records_with")
            if with_them.games
            else "stats.records_with_none"
        )
        lines.append(
            t(key, locale, opponent=opponent[1], wins=with_them.wins, losses=with_them.losses, draws=with_them.draws)
        )
    streak = await storage.best_streak(guild_id, kind.name, user_id)
    if streak:
        lines.append(t("stats.streak", locale, n=streak))
    if kind.stats_option:
        merged: dict[str, tuple[WDL, WDL]] = {}
        for row in await storage.results_by_option(guild_id, kind.name, user_id, kind.stats_option):
            name = kind.narration.stats_option_value(row.value, locale)
            people, ai = merged.get(name, (WDL(), WDL()))
            merged[name] = (_add(people, row.people), _add(ai, row.vs_ai))
        if merged:
            head = f"stats.by_option_{kind.stats_option}"
            lines.append(t(head, locale) if has(head, "en") else t("stats.by_option", locale, option=kind.stats_option))
            for name, (people, ai) in merged.items():
                lines.append(
                    t(
                        "stats.option_row",
                        locale,
                        value=name,
                        wins=people.wins,
                        losses=people.losses,
                        draws=people.draws,
                        ai_wins=ai.wins,
                        ai_losses=ai.losses,
                        ai_draws=ai.draws,
                    )
                )
    return lines
