"""The chaos driver of issue 20 (used by ``test_chaos.py`` and ``bench/bench_chaos.py``): many Constructo games at
once, between humans and against the AI, players who click twice, and the real bot process SIGKILLed or SIGTERMed
again and again and started again; then what players were told is compared with what was stored.

Every move a player sends is an **intent** ``(game, player, action, base)``: ``base`` is the stored version the
player saw when choosing it, so the only place it may be logged is seq ``base + 1``. A duplicate click sends the
same intent twice at once. After the chaos the bot runs in peace until no effect is owed, and :func:`verdict`
counts:

- **lost**: an intent whose answer showed its board (the player was told it was saved) missing from the log;
- **doubled**: a human's logged action that is no intent at that place (applied twice, or never asked for), or
  the same board (text and image) posted twice in one game, or more result cards in a channel than finished games;
- **without result card**: a finished game whose recorded board is not its final version (or the message is
  missing);
- **without board**: a game whose recorded board is older than its log;
- **lied**: an answer saying "nothing was changed" about an intent that is in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from devserver import DevServer
from devserver.models import Channel, User, fixed_id
from devserver.process import BotProcess
from devserver.result import InteractionResult
from engine.constructo import Match

from .outage_kit import Stored, StoredGame

NOTHING_CHANGED = ("nothing was changed", "no se ha cambiado nada")


@dataclass(frozen=True)
class Intent:
    game_id: int
    player: int
    action: str
    base: int


@dataclass
class Tally:
    """What happened during a chaos run (see the module docstring)."""

    intents: list[Intent] = field(default_factory=list)
    told_saved: list[Intent] = field(default_factory=list)
    told_nothing_changed: list[Intent] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    kills: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    finished_by_resign: int = 0


def add_players(server: DevServer, channel: Channel, n: int) -> list[str]:
    """``n`` users of the channel's own (one pending challenge per pair of players: a second is refused)."""
    names = [f"{channel.name}-{i}" for i in range(n)]
    for i, name in enumerate(names):
        server.users[name] = User(id=fixed_id(6_000_000 + 4 * (channel.id % 1_000_000) + i), name=name)
    return names


def classify(res: InteractionResult, action: str) -> str:
    """``saved`` (the answer shows the move's board), ``refused`` (a private refusal), ``nothing`` ("nothing was
    changed"), ``other`` (e.g. "saved, but...", "cannot tell yet") or ``silent`` (no answer: the bot was down)."""
    if res.failed or res.response_type is None:
        return "silent"
    text = res.text
    if any(n in text.lower() for n in NOTHING_CHANGED):
        return "nothing"
    if not res.ephemeral and res.images and action in text:
        return "saved"
    return "refused" if res.ephemeral else "other"


class Chaos:
    """One chaos run against ``server`` + ``proc`` (the bot, started) storing into ``stored``."""

    def __init__(self, server: DevServer, proc: BotProcess, stored: Stored, *, seed: int = 20) -> None:
        self.server, self.proc, self.stored = server, proc, stored
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.channels: list[Channel] = []
        self.stop = asyncio.Event()
        self.killed = asyncio.Event()  # set after every kill and start again (run's ``min_kills``)

    async def open_games(self, humans: int, ai: int, prefix: str = "chaos") -> None:
        """``humans`` games between two players and ``ai`` games against the easy AI, one channel each."""
        for n in range(humans + ai):
            ch = self.server.add_channel(f"{prefix}-{n}")
            self.channels.append(ch)
            a, b = add_players(self.server, ch, 2)
            alice = self.server.as_user(a, ch.id)
            if n < humans:
                res = await (await alice.slash("constructo challenge", opponent=b)).wait(60)
                assert res.message is not None, res.text
                await (await self.server.as_user(b, ch.id).click(res.message, "Accept")).wait(60, followups=1)
            else:
                await (await alice.slash("constructo challenge", opponent="bot", level="easy")).wait(60)

    async def _game(self, ch: Channel) -> StoredGame | None:
        try:
            return await self.stored.game(ch.id)
        except Exception:  # the database is being written by the restarting bot (SQLite read-only may wait)
            return None

    async def play(self, ch: Channel, *, moves_before_resign: int, think: float, duplicate_p: float) -> None:
        """Play the channel's game until :attr:`stop` (or the game ends), resigning after
        ``moves_before_resign`` moves of the match (a final move), then open the next game in the channel."""
        while not self.stop.is_set():
            game = await self._game(ch)
            if game is None or game.status not in ("active", "finished"):
                await asyncio.sleep(0.5)
                continue
            if game.status == "finished":
                await self._rematch(ch, game)
                continue
            match = Match.from_dict(game.state["engine"])
            seat = match.current_player
            if seat is None or seat >= len(game.players) or game.players[seat] == self.server.application_id:
                await asyncio.sleep(0.5)  # the AI is to move
                continue
            user = self.server.as_user(game.players[seat], ch.id)
            if game.version >= moves_before_resign:
                await self._resign(user, game)
                continue
            legal = [m for m in match.current_round.legal_moves() if m.is_place]
            if not legal:
                await asyncio.sleep(0.5)
                continue
            move = self.rng.choice(legal)
            action = str(move)
            intent = Intent(game.id, game.players[seat], action, game.version)
            self.tally.intents.append(intent)
            copies = 2 if self.rng.random() < duplicate_p else 1
            self.tally.duplicates += copies - 1
            sent = [
                await user.slash("constructo place", tile=move.tile, size=move.size.word)  # type: ignore[union-attr]
                for _ in range(copies)
            ]
            await self._told(intent, sent)
            await asyncio.sleep(self.rng.uniform(0.3, 1.0) * think)

    async def _told(self, intent: Intent, sent: list[InteractionResult]) -> None:
        for res in sent:
            with contextlib.suppress(Exception):
                await res.wait(20)
            verdict = classify(res, intent.action)
            self.tally.answers[verdict] += 1
            if verdict == "saved":
                self.tally.told_saved.append(intent)
            elif verdict == "nothing":
                self.tally.told_nothing_changed.append(intent)

    async def _resign(self, user: Any, game: StoredGame) -> None:
        self.tally.intents.append(Intent(game.id, user.id, "forfeit", game.version))
        with contextlib.suppress(Exception):
            ask = await (await user.slash("constructo resign")).wait(20)
            if ask.message is not None and ask.ephemeral and not ask.failed:
                await (await user.click(ask.message, "Yes, resign")).wait(20)
                self.tally.finished_by_resign += 1
        await asyncio.sleep(0.5)

    async def _rematch(self, ch: Channel, game: StoredGame) -> None:
        """A finished game: its first player challenges again (a new game in the channel)."""
        with contextlib.suppress(Exception):
            user = self.server.as_user(game.players[0], ch.id)
            other = game.players[1]
            if other == self.server.application_id:
                await (await user.slash("constructo challenge", opponent="bot", level="easy")).wait(20)
            else:
                res = await (await user.slash("constructo challenge", opponent=self.server.user(other).name)).wait(20)
                if res.message is not None and not res.ephemeral:
                    await (await self.server.as_user(other, ch.id).click(res.message, "Accept")).wait(20)
        await asyncio.sleep(1.0)

    async def killer(self, every: tuple[float, float], *, sigterm_p: float | None = 0.3) -> None:
        """Until :attr:`stop`: wait ``every`` (uniform, s), then SIGTERM (probability ``sigterm_p``; ``None``: SIGKILL
        and SIGTERM in turn) or SIGKILL the bot and start it again."""
        n = 0
        while not self.stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), self.rng.uniform(*every))
            if self.stop.is_set():
                return
            n += 1
            if (n % 2 == 0) if sigterm_p is None else self.rng.random() < sigterm_p:
                self.tally.kills["SIGTERM"] += 1
                await self.proc.stop()
            else:
                self.tally.kills["SIGKILL"] += 1
                await self.proc.kill()
            await self.proc.start()
            self.killed.set()

    async def run(
        self,
        seconds: float,
        *,
        kill_every: tuple[float, float] | None,
        moves_before_resign: int = 8,
        think: float = 1.0,
        duplicate_p: float = 0.25,
        sigterm_p: float | None = 0.3,
        min_kills: int = 0,
    ) -> None:
        """Play every channel for ``seconds``, and on until the killer has killed and restarted the bot
        ``min_kills`` times (a loaded machine restarts the bot slower: the run is longer, the evidence the same)."""
        players = [
            asyncio.create_task(
                self.play(ch, moves_before_resign=moves_before_resign, think=think, duplicate_p=duplicate_p)
            )
            for ch in self.channels
        ]
        killer = asyncio.create_task(self.killer(kill_every, sigterm_p=sigterm_p)) if kill_every else None
        await asyncio.sleep(seconds)
        while killer is not None and not killer.done() and sum(self.tally.kills.values()) < min_kills:
            self.killed.clear()
            with contextlib.suppress(TimeoutError):  # the next kill, or the killer's end (a failure) within 1 s
                await asyncio.wait_for(self.killed.wait(), 1.0)
        self.stop.set()
        if killer is not None:
            await killer
        await asyncio.gather(*players, return_exceptions=True)
        if not self.proc.running:
            await self.proc.start()

    async def settle(self, timeout: float = 120.0) -> None:  # noqa: ASYNC109
        """Wait until no effect is owed and every game shows its latest board (or ``timeout``)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                owed = await self.stored.effects()
                games = [g for ch in self.channels for g in await self.stored.games(ch.id)]
                if not owed and all(_board_ok(g) for g in games if g.status in ("active", "finished")):
                    return
            except Exception:
                pass
            await asyncio.sleep(0.5)


def _board_ok(game: StoredGame) -> bool:
    return game.messages.get("board.version") == game.version


@dataclass
class Verdict:
    lost: list[Intent]
    doubled: list[str]
    finished_without_card: list[int]
    without_board: list[int]
    lied: list[Intent]
    games: int
    finished: int
    actions: int

    @property
    def clean(self) -> bool:
        return not (self.lost or self.doubled or self.finished_without_card or self.without_board or self.lied)


async def verdict(chaos: Chaos) -> Verdict:
    """Compare what players were told with the logs (see the module docstring)."""
    server, stored, tally = chaos.server, chaos.stored, chaos.tally
    by_place = {(i.game_id, i.base + 1, i.player, i.action) for i in tally.intents}
    lost, doubled, no_card, no_board, lied = [], [], [], [], []
    logged: set[tuple[int, int, str, int]] = set()
    games = finished = actions = 0
    for ch in chaos.channels:
        for game in await stored.games(ch.id):
            if game.status not in ("active", "finished"):
                continue
            games += 1
            log = await stored.actions(game.id)
            actions += len(log)
            if [s for s, _p, _a in log] != list(range(1, game.version + 1)):
                doubled.append(f"game {game.id}: log seqs {[s for s, _p, _a in log]} vs version {game.version}")
            for seq, player, action in log:
                logged.add((game.id, player or 0, action, seq - 1))
                if player in (None, server.application_id) or action in ("accept", "join", "start"):
                    continue
                if (game.id, seq, player, action) not in by_place:
                    doubled.append(f"game {game.id} seq {seq}: {action} by {player} was not asked for there")
            if not _board_ok(game):
                (no_card if game.status == "finished" else no_board).append(game.id)
            elif game.status == "finished":
                finished += 1
                board = server.message(game.messages["board"]) if game.messages.get("board") else None
                if board is None or board.deleted or not (board.images or board.content):
                    no_card.append(game.id)
        seen: dict[tuple[str, bytes], int] = {}
        cards = 0
        for m in server.messages(ch.id):
            if m.ephemeral or m.deleted:
                continue
            if "Match over" in m.content:  # a result card: resigned games can end on the same card
                cards += 1
                continue
            it = server.interactions.get(m.interaction_id) if m.interaction_id else None
            if it is not None and it.key == "constructo challenge":
                seen = {}  # a new game
            for img in m.images:
                if (m.content, img) in seen:
                    doubled.append(f"#{ch.name}: message {m.id} repeats {seen[m.content, img]}: {m.content[:80]!r}")
                seen[m.content, img] = m.id
        ended = sum(1 for g in await stored.games(ch.id) if g.status == "finished")
        if cards > ended:
            doubled.append(f"#{ch.name}: {cards} result cards for {ended} finished games")
    for intent in tally.told_saved:
        if (intent.game_id, intent.player, intent.action, intent.base) not in logged:
            lost.append(intent)
    for intent in tally.told_nothing_changed:
        if (intent.game_id, intent.player, intent.action, intent.base) in logged:
            lied.append(intent)
    return Verdict(lost, doubled, no_card, no_board, lied, games, finished, actions)
