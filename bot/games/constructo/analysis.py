"""Constructo's post-match analysis (issue 16.4): the **Analysis** button of a finished match's record (result card,
``/replay``, a record opened from ``/history``), answered privately.

Each round is analysed by ``engine.constructo.analysis.analyse_round`` (every position valued exactly where the
solver proves it within the node budget, else by the hard search), off the event loop through the layer's CPU seam,
at most :data:`MAX_ANALYSES` at once, only on demand (a click), once per match: the result (codes and numbers) is
stored with the game in storage meta ``constructo.analysis:<game id>`` and every later click reads it. The text is
written from the codes in the reader's language: the turning point ("move 7 by Bob: 3-4 lost a tower; best was
M5"), from which move the result was proven, and one mark per move; estimates are marked ``≈``.

Custom id: ``cx:ana:<game>``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.core.names import shown
from bot.i18n import t
from bot.services.looks import DEFAULT, Look, look_of
from bot.ui.common import GameButton, defer, fill, games, png_file, reply
from engine.constructo import Match

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

ANALYSIS_NODES: int | None = None
"""Search nodes per position (``None``: the engine's default, 250,000 with the compiled core, 15,000 without; a
round then takes 1-2 s, BENCHMARKS.md). A node budget, not a clock: the same match always gets the same analysis."""
MAX_ANALYSES = 1
"""Analyses computed at the same time in one process (each keeps one core busy for a few seconds)."""
META_KEY = "constructo.analysis:{game}"
FORMAT = 2
"""Version of the stored analysis (a stored analysis of another version is computed again; 2: codes by change of
outcome first, the turning point is the first change)."""
PAGE_LIMIT = 1900


def _code_keys() -> tuple[str, ...]:
    from engine.constructo.analysis import CODES

    return (*(f"cx.an_{code}" for code in CODES), "hist.win", "hist.draw", "hist.loss")


CODES_KEYS: tuple[str, ...] = _code_keys()
"""The message keys the analysis text builds from codes (every ``analyse_round`` code, every outcome)."""


def analyse_match(match: Match, max_nodes: int | None) -> list[dict[str, Any]]:
    """Every round of ``match`` with at least one move, analysed (``RoundAnalysis.to_dict()`` plus ``"round"``,
    1-based, ``"layout"``, its name or ``"custom"``, and ``"over"``: false for a round cut short by a resignation).
    The CPU job: module level, picklable arguments."""
    from engine.constructo.analysis import analyse_round

    out = []
    for number, rnd in enumerate(match.rounds, start=1):
        if not rnd.history:
            continue
        found = analyse_round(rnd, max_nodes=max_nodes).to_dict()
        found.update(round=number, layout=rnd.layout.name or "custom", over=rnd.is_over)
        out.append(found)
    return out


@dataclass
class _Jobs:
    pending: dict[int, asyncio.Future[list[dict[str, Any]]]] = field(default_factory=dict)
    slots: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(MAX_ANALYSES))
    computed: int = 0


_JOBS: weakref.WeakKeyDictionary[Any, _Jobs] = weakref.WeakKeyDictionary()


def jobs(layer: GameLayer) -> _Jobs:
    """The analyses running for ``layer`` (``.computed`` counts the analyses actually computed)."""
    found = _JOBS.get(layer)
    if found is None:
        found = _JOBS[layer] = _Jobs()
    return found


async def analysis_of(layer: GameLayer, snap: Snapshot) -> list[dict[str, Any]]:
    """The analysis of a finished match: stored with the game if computed before, else computed off the loop
    (one computation per game even when clicked many times at once) and stored."""
    key = META_KEY.format(game=snap.id)
    stored = await layer.storage.get_meta(key)
    if stored:
        try:
            data = json.loads(stored)
            if data.get("format") == FORMAT:
                return list(data["rounds"])
        except (ValueError, KeyError, AttributeError):
            log.warning("stored analysis of game %s unreadable; computing it again", snap.id)
    running = jobs(layer)
    pending = running.pending.get(snap.id)
    if pending is None:
        state = snap.require_state()
        assert isinstance(state, Match)
        pending = asyncio.ensure_future(_compute(layer, state.copy(), key))
        running.pending[snap.id] = pending
        pending.add_done_callback(lambda _f: running.pending.pop(snap.id, None))
    return await asyncio.shield(pending)


async def _compute(layer: GameLayer, match: Match, key: str) -> list[dict[str, Any]]:
    running = jobs(layer)
    async with running.slots:
        rounds: list[dict[str, Any]] = await layer.cpu_background(analyse_match, match, ANALYSIS_NODES)
    running.computed += 1
    await layer.storage.set_meta(key, json.dumps({"format": FORMAT, "rounds": rounds}, separators=(",", ":")))
    return rounds


# -- text -----------------------------------------------------------------------------------------------------
def _towers(value: int, scale: int) -> str:
    return f"{abs(value) / scale:.1f}".removesuffix(".0")


def _verdict(value: int, mover: int, names: list[str], scale: int, locale: Any) -> str:
    """The result a value points to, for the player to move (``mover``)."""
    towers = round(value / scale)
    if towers == 0:
        return t("cx.an_even", locale)
    winner = mover if towers > 0 else 1 - mover
    key = "cx.an_ahead_one" if abs(towers) == 1 else "cx.an_ahead"
    return t(key, locale, name=names[winner], towers=abs(towers))


def _certainty(exact: bool, locale: Any) -> str:
    return t("cx.an_exact" if exact else "cx.an_estimate", locale)


def _what(move: dict[str, Any], scale: int, locale: Any) -> str:
    """The code of a move in words (``"lost a tower"``), with the change of result if it made one."""
    from engine.constructo.analysis import OUTCOME_CODES

    code = move["code"]
    text = t(f"cx.an_{code}", locale, towers=_towers(move["loss"], scale))
    order = {"loss": 0, "draw": 1, "win": 2}
    if code in OUTCOME_CODES:  # the words already say which result it threw
        return text
    if order.get(move["outcome_after"], 1) < order.get(move["outcome_before"], 1):
        text += " " + t(
            "cx.an_threw",
            locale,
            before=t(f"hist.{move['outcome_before']}", locale),
            after=t(f"hist.{move['outcome_after']}", locale),
        )
    return text


def round_lines(rnd: dict[str, Any], names: list[str], locale: Any) -> list[str]:
    """One round's analysis: title, start value, turning point, where it was decided, one line per move."""
    scale = int(rnd.get("scale", 100))
    moves = rnd["moves"]
    safe = [shown(n) for n in names]  # escaped once here (plain str: t() leaves them), f-strings below use them too
    lines = [
        t("cx.an_round", locale, round=rnd["round"], layout=rnd["layout"]),
        t(
            "cx.an_start",
            locale,
            verdict=_verdict(rnd["start_value"], rnd["first"], safe, scale, locale),
            certainty=_certainty(rnd["start_exact"], locale),
        ),
    ]
    tp = rnd.get("turning_point")
    if tp is not None:
        m = moves[tp]
        lines.append(
            t(
                "cx.an_turning",
                locale,
                n=tp + 1,
                name=safe[m["player"]],
                move=m["move"],
                what=_what(m, scale, locale),
                best=m["best"],
                certainty=_certainty(m["exact"], locale),
            )
        )
    else:
        lines.append(t("cx.an_no_turning", locale))
    decided = rnd.get("decided_at", len(moves))
    if rnd.get("over", True) and decided < len(moves):  # a round cut short has no result to be decided
        lines.append(t("cx.an_decided", locale, n=decided) if decided else t("cx.an_decided_start", locale))
    for i, m in enumerate(moves):
        mark = "" if m["exact"] else " ≈"
        best = "" if m["code"] in ("best", "forced") else " " + t("cx.an_best_was", locale, best=m["best"])
        lines.append(f"`{i + 1:>2}.` {safe[m['player']]} **{m['move']}** — {_what(m, scale, locale)}{best}{mark}")
    return lines


def analysis_pages(rounds: list[dict[str, Any]], names: list[str], locale: Any) -> list[str]:
    """The analysis of every round in messages of at most :data:`PAGE_LIMIT` characters, with the legend."""
    from render.replay_moves import split_pages

    if not rounds:
        return [t("cx.an_nothing", locale)]
    lines: list[str] = []
    for rnd in rounds:
        lines += [*round_lines(rnd, names, locale), ""]
    lines.append(t("cx.an_legend", locale))
    lines.append(t("cx.an_pictures", locale))
    return split_pages(lines, PAGE_LIMIT)


def analysis_pictures(
    match: Match, rounds: list[dict[str, Any]], names: list[str], titles: list[str], look: Look = DEFAULT
) -> list[tuple[str, bytes]]:
    """The pictures of an analysis, as ``(name, PNG bytes)``: ``"values"``, the value graph of every round, then
    ``"round<n>-turning"``, the board right after each round's turning point, in ``look`` (the reader's). The CPU job
    (module level)."""
    from render import to_png
    from render.constructo_analysis import render_turning_board, render_value_graph

    out = [("values", to_png(render_value_graph(rounds, names=names, titles=titles, **look.kwargs())))]
    for rnd in rounds:
        tp = rnd.get("turning_point")
        if tp is not None:
            board = render_turning_board(match, int(rnd["round"]) - 1, int(tp), names=names, **look.kwargs())
            out.append((f"round{rnd['round']}-turning", to_png(board)))
    return out


async def send_analysis(interaction: discord.Interaction, game_id: int) -> None:
    """Answer privately with the analysis of finished match ``game_id`` of the interaction's guild."""
    layer = games(interaction)
    snap = await layer.records.finished(game_id, interaction.guild_id)
    layer.fair.check(interaction, "analysis")
    await defer(interaction, ephemeral=True)
    rounds = await analysis_of(layer, snap)
    first, *more = analysis_pages(rounds, snap.names, interaction.locale)
    head = t("cx.an_head", interaction.locale, game_id=snap.id)
    none = discord.AllowedMentions.none()
    files = []
    if rounds:
        titles = [t("cx.an_graph", interaction.locale, round=r["round"], layout=r["layout"]) for r in rounds]
        look = await look_of(layer.storage, interaction.user.id)  # a private answer: the reader's look
        pictures = await layer.cpu(analysis_pictures, snap.require_state(), rounds, list(snap.names), titles, look)
        files = [png_file(png, f"analysis-{snap.id}-{name}.png") for name, png in pictures]
    await fill(interaction, f"{head}\n{first}"[:2000], ephemeral=True, files=files, allowed_mentions=none)
    for page in more:
        await reply(interaction, page, ephemeral=True, allowed_mentions=none)


class AnalysisButton(GameButton, template=r"cx:ana:(?P<game>[0-9]+)"):
    """Analysis of a finished match (rounds, turning point, a mark per move), privately to whoever clicks."""

    prefix, verb, label_key, style = "cx", "ana", "cx.analysis_button", discord.ButtonStyle.secondary

    async def run(self, interaction: discord.Interaction) -> None:
        await send_analysis(interaction, self.game_id)
