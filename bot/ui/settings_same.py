"""What ``/settings`` says of an option that changes nothing: "already so" in words, one line per option, so that
"Saved." is said only when a setting really changed (an admin reads the truth: a game turned off twice, ``unblock``
of a member who is not blocked, ``remove_channel`` of a channel not listed).

:func:`same_core` sorts the clock, expiry, caps and ``thread_per_game`` options into the changes to store and the
lines of those already in force (the value in force: the stored one, else the operator's default).
:func:`same_house` gives the lines of the house-rule options (``bot/services/house.py``) already so, before the
command and in what it saves. :func:`refuse_contradictions` refuses a command whose options pull one setting both
ways (a game on and off, a channel allowed and removed, a member blocked and unblocked, any channel and a listed
one): nothing is saved, rather than the later option silently winning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core import clock as clocks
from bot.core.names import plain
from bot.errors import BotError
from bot.i18n import t
from bot.services import caps, footprint, house

if TYPE_CHECKING:
    from bot.core.layer import GameLayer


def _kind(value: object) -> type:
    """What a setting's value is, for "already so": ``True`` is not ``1``, but a typed text (``bot.core.names.Name``,
    a ``str`` subclass) is the stored text."""
    return bool if isinstance(value, bool) else str if isinstance(value, str) else type(value)


def same_core(
    layer: GameLayer, before: dict[str, Any], changes: dict[str, object], loc: Any
) -> tuple[dict[str, object], list[str]]:
    """``changes`` (setting name → value, as ``/settings`` builds them for ``clock``, ``expiry``, the caps and
    ``thread_per_game``) without those equal to the value in force under ``before``, and one "already" line in
    ``loc``'s language for each one left out."""
    in_force: dict[str, object] = {
        clocks.SETTING_CLOCK: clocks.preset_of(None, before),
        clocks.SETTING_EXPIRY: clocks.expiry_minutes(before),
        footprint.SETTING: footprint.enabled(before, footprint.operator_default(layer)),
        **caps.limits(before, caps.operator_caps(layer)),
    }
    options = {
        clocks.SETTING_CLOCK: "clock",
        clocks.SETTING_EXPIRY: "expiry",
        footprint.SETTING: "thread_per_game",
    }
    kept: dict[str, object] = {}
    lines: list[str] = []
    for name, value in changes.items():
        if name in in_force and in_force[name] == value and _kind(in_force[name]) is _kind(value):
            shown = t("settings.on" if value else "settings.off", loc) if isinstance(value, bool) else f"`{value}`"
            lines.append(t("same.option", loc, option=options.get(name, name), value=shown))
        else:
            kept[name] = value
    return kept, lines


def refuse_contradictions(layer: GameLayer, options: house.HouseOptions) -> None:
    """Raise ``BotError`` (``settings.both_game`` / ``both_channel`` / ``both_member`` / ``any_and_channel``) when two
    options of one ``/settings`` pull the same setting opposite ways; then nothing is saved."""
    if options.game_on is not None and options.game_on == options.game_off:
        kind = layer.kinds.get(options.game_on)
        raise BotError("settings.both_game", game=kind.title if kind is not None else plain(str(options.game_on)[:40]))
    if options.allow_channel is not None and options.allow_channel == options.remove_channel:
        raise BotError("settings.both_channel", channel=f"<#{options.allow_channel}>")
    if options.block is not None and options.block == options.unblock:
        raise BotError("settings.both_member", user=f"<@{options.block}>")
    if options.any_channel:
        for name in ("allow_channel", "remove_channel"):
            if getattr(options, name) is not None:
                raise BotError("settings.any_and_channel", option=name)


def same_house(
    layer: GameLayer,
    before: dict[str, Any],
    loc: Any,
    options: house.HouseOptions,
    after: dict[str, Any] | None = None,
) -> list[str]:
    """One line in ``loc``'s language per house-rule option that is already so under ``before`` (a channel already
    listed or not listed, games already allowed anywhere, a game already on or off, games already rated or not, a
    member already blocked or not blocked) and still so in ``after`` (the settings the command saves, when given):
    "nothing changed" is never said of what the command changes. Unknown games are left to ``house_changes`` (it
    refuses them)."""
    lines = _already(layer, before, loc, options)
    if after is None:
        return lines
    still = set(_already(layer, after, loc, options))
    return [line for line in lines if line in still]


def _already(layer: GameLayer, before: dict[str, Any], loc: Any, options: house.HouseOptions) -> list[str]:
    lines: list[str] = []
    listed = house.channels(before)
    if options.allow_channel is not None and options.allow_channel in listed:
        lines.append(t("same.channel_listed", loc, channel=f"<#{options.allow_channel}>"))
    if options.remove_channel is not None and options.remove_channel not in listed:
        lines.append(t("same.channel_not_listed", loc, channel=f"<#{options.remove_channel}>"))
    if options.any_channel and not listed:
        lines.append(t("same.anywhere", loc))
    off = house.games_off(before)
    for name, key, already in ((options.game_on, "same.game_on", False), (options.game_off, "same.game_off", True)):
        registered = layer.kinds.get(name) if name is not None else None
        if registered is not None and (name in off) == already:
            lines.append(t(key, loc, game=registered.title))
    if options.rated is not None and house.rated(before) == options.rated:
        lines.append(t("same.rated_on" if options.rated else "same.rated_off", loc))
    barred = house.blocked(before)
    if options.block is not None and options.block in barred:
        lines.append(t("same.blocked", loc, user=f"<@{options.block}>"))
    if options.unblock is not None and options.unblock not in barred:
        lines.append(t("same.not_blocked", loc, user=f"<@{options.unblock}>"))
    return lines
