"""E2E: a full 3-player CONEX game (alice, bob, carol) through the real bot process and the DevServer.

Lobby buttons (Join, Start), private hands (ephemeral: only the owner sees them), exact placements (x/y/rotation
from ``find_placements`` on an engine replay of the stored state), auto-fit (target only), hints (command and
button), draws (button and command), die cards, both stars used (V3 2x doubling; X3 lightning with the others'
discards), to the end (goal 20, small table). The deal is seeded by the bot at random, so the driver reads the
stored state (seed included) and plans with the engine: a die card is played whenever one fits (each roll either
hands out a star or moves the die on), and the stars are used as soon as X2 allows. Bounded, and asserted.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.client import DevUser
from devserver.models import Message
from devserver.result import InteractionResult
from engine.conex import DIE_FACES, Game, Place
from engine.conex import events as ev
from engine.protocol import Event

from .helpers import BotEnv, answered, assert_png, assert_stripped, bot_env, buttons, check_log_sequence, replay_conex

pytestmark = pytest.mark.asyncio(loop_scope="module")

GOAL = 30
MAX_ACTIONS = 160
MAX_DEALS = 12
STARS_WITHIN_ROLLS = 5
CHANNEL = "general"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("conex"))) as e:
        yield e


def die_faces(seed: int, n: int) -> list[str]:
    """The first ``n`` die faces of a game (documented in docs/conex-state.md: roll k uses
    ``random.Random(f"conex-die:{seed}:{k}")`` over ``DIE_FACES``)."""
    return [DIE_FACES[random.Random(f"conex-die:{seed}:{k}").randrange(len(DIE_FACES))] for k in range(n)]


def first_placements(game: Game, seat: int, cards: list[int], limit: int = 3) -> list[Place]:
    out: list[Place] = []
    for cid in cards:
        out += game.find_placements(seat, cid, limit=limit)
    return out


def simulate(game: Game, action: Place) -> list[Event]:
    """The typed events ``action`` would produce (on a copy of the game)."""
    return list(game.copy().apply(action).events)


class Driver:
    """Plays the game through the DevServer's users, planning with the engine on the stored state."""

    def __init__(self, env: BotEnv, game_id: int, users: dict[int, DevUser], table: Message) -> None:
        self.env = env
        self.server = env.server
        self.game_id = game_id
        self.users = users
        self.table = table
        self.used: dict[str, int] = {
            k: 0
            for k in (
                "exact",
                "autofit",
                "hint_button",
                "hints_command",
                "draw_button",
                "draw_command",
                "die",
                "2x",
                "lightning",
                "discard_select",
                "discard_command",
                "hand_button",
                "hand_command",
                "pass",
            )
        }
        self.faces: list[str] = []
        self.pending_seen = 0  # most discards owed at once after the lightning
        self.actions_seen = 0

    def state(self) -> tuple[Game, list[int], int]:
        row = self.env.game(self.game_id)
        return row.conex, row.players, row.version

    async def public(self, res: InteractionResult, *, image: bool = True) -> Message:
        """The new public table message the accepted action produced (image checked; ``image=False``: an action
        that changed nothing on the table, whose new board message has its text and buttons but no image)."""
        await answered(res)
        msgs = [m for m in res.messages if not m.ephemeral and bool(m.images) == image and m.components]
        assert msgs, f"no public table after the action: {res.text!r}"
        new = msgs[-1]
        for img in new.images:
            assert_png(img)
        await assert_stripped(self.server, self.table.id, "the previous table loses its buttons")
        self.table = new
        return new

    def last_logged(self) -> str:
        return self.env.actions(self.game_id)[-1][2]

    async def private_hand(self, user: DevUser, via_button: bool) -> None:
        """The hand is answered ephemerally and only its owner sees it."""
        if via_button:
            res = await answered(await user.click(self.table, "My hand"))
            self.used["hand_button"] += 1
        else:
            res = await answered(await user.slash("conex hand"))
            self.used["hand_command"] += 1
        msg = res.message
        assert msg is not None and msg.ephemeral and msg.visible_to == user.id
        game, players, _version = self.state()
        if not game.hands[players.index(user.id)]:  # an empty hand is said in words, with no blank picture
            await self.server.wait_until(lambda: "(0 cards)" in res.text, 30, "the empty hand's words")
            assert not res.images
        else:
            # the picture may land a moment after the private answer (a "thinking" message edited in, or a followup)
            await self.server.wait_until(lambda: bool(res.images), 30, "the hand's picture")
            assert_png(res.images[0], min_long_side=600)
        for other in ("alice", "bob", "carol"):
            seen = {m.id for m in self.server.messages(CHANNEL, visible_to=other)}
            assert (msg.id in seen) == (self.server.user(other).id == user.id), f"hand of {user.name} seen by {other}"

    async def discards(self) -> None:
        """Every seat with a pending discard (X3) makes it: one via the Discard button's private select, the
        others via ``/conex discard``."""
        game, players, _ = self.state()
        for n, seat in enumerate(sorted(game.pending_discards)):
            user = self.users[players[seat]]
            card = min(game.hands[seat])
            before = self.env.game(self.game_id).version
            self.pending_seen = max(self.pending_seen, len(game.pending_discards))
            if n == 0:
                prompt = await answered(await user.click(self.table, "Discard"))
                assert prompt.ephemeral and prompt.message.visible_to == user.id
                res = await answered(await user.select(prompt.message, str(card)))
                self.used["discard_select"] += 1
            else:
                res = await answered(await user.slash("conex discard", card=str(card)))
                self.used["discard_command"] += 1
            assert self.env.game(self.game_id).version == before + 1, res.text
            assert self.last_logged() == f"discard {card}"
            # a discard answers with a new public board message (its event never names the card) without a second
            # identical table image
            await self.public(res, image=False)
            assert str(card) not in self.table.content.split("\n")[0]
        game, _, _ = self.state()
        assert not game.pending_discards

    async def place(self, user: DevUser, place: Place, game: Game, mode: str) -> None:
        if mode == "autofit":
            placed = simulate(game, place)[0]
            assert isinstance(placed, ev.Placed)
            target = placed.target
            cards = await user.autocomplete("conex place", "card", "", corner=place.corner)
            assert [int(c["value"]) for c in cards] == game.hands[place.player], "card suggestions = the hand"
            targets = await user.autocomplete("conex place", "target", "", card=str(place.card), corner=place.corner)
            assert str(target) in [c["value"] for c in targets], (target, targets)
            res = await user.slash("conex place", card=str(place.card), corner=place.corner, target=str(target))
            await self.public(res)
            logged = self.last_logged()
            assert logged.startswith(f"place {place.card} c{place.corner} at "), logged
            self.used["autofit"] += 1
            return
        kw = {"double": True} if place.double else {}
        res = await user.slash(
            "conex place",
            card=str(place.card),
            corner=place.corner,
            x=place.x,
            y=place.y,
            rotation=place.rotation,
            **kw,
        )
        await self.public(res)
        assert self.last_logged() == str(place), (self.last_logged(), str(place))
        self.used["exact"] += 1

    async def hint(self, user: DevUser, via_button: bool) -> None:
        if via_button:
            res = await answered(await user.click(self.table, "Hints"))
            self.used["hint_button"] += 1
        else:
            res = await answered(await user.slash("conex hints"))
            self.used["hints_command"] += 1
        msg = res.message
        assert msg is not None and msg.ephemeral and msg.visible_to == user.id
        assert_png(msg.images[0], min_long_side=600)
        hint_ids = [cid for cid in buttons(msg) if cid.startswith("cn:hp:")]
        assert hint_ids, f"no hint buttons: {msg.content}"
        card = int(hint_ids[0].split(":")[4])
        await self.public(await user.click(msg, hint_ids[0]))
        assert self.last_logged().startswith(f"place {card} "), self.last_logged()

    async def draw(self, user: DevUser, via_button: bool) -> None:
        if via_button:
            label = next(c["label"] for c in self.table.buttons() if c.get("custom_id", "").startswith("cn:draw:"))
            await self.public(await user.click(self.table, label))
            self.used["draw_button"] += 1
        else:
            await self.public(await user.slash("conex draw"))
            self.used["draw_command"] += 1
        assert self.last_logged() == "draw"

    async def turn(self, k: int) -> bool:
        """Play one turn of the seat to move; False once the game is over."""
        game, players, _version = self.state()
        if game.is_over:
            return False
        seat = game.current_player
        user = self.users[players[seat]]
        need_stars = not (self.used["2x"] and self.used["lightning"])
        if k % 7 == 0:
            await self.private_hand(user, via_button=k % 14 == 0)
        if k < 4:  # a scripted opening: every way to act is used at least once
            if k in (0, 3):
                await self.hint(user, via_button=k == 0)
            else:
                await self.draw(user, via_button=k == 1)
            return True

        if need_stars and not self.used["lightning"] and game.can_lightning(seat):
            choices = await user.autocomplete("conex lightning", "card", "")
            free = [int(c["value"]) for c in choices]
            assert free == [tc.card.id for tc in reversed(game.table) if game.board.is_free(tc.card.id)]
            res = await user.slash("conex lightning", card=free[0])
            await self.public(res)
            assert self.last_logged() == f"lightning {free[0]}"
            self.used["lightning"] += 1
            game2, _, _ = self.state()
            assert free[0] not in [tc.card.id for tc in game2.table] and game2.pile[-1] == free[0], "X3: to the bottom"
            others = {s for s in range(game.players) if s != seat and game.hands[s]}
            assert game2.pending_discards == others, "X3: every other player holding cards must discard"
            await self.discards()
            return True  # the holder's main action follows in the next call (same seat still to move)

        hand = list(game.hands[seat])
        if need_stars and not self.used["2x"] and game.star_usable(seat, "2x"):
            safe = [
                p
                for p in first_placements(game, seat, hand, limit=2)
                if game.scores[seat] + 2 * game.points_for(p) <= GOAL - 2
            ]  # the game must go on
            for p in sorted(safe, key=game.points_for)[:1]:
                doubled = Place(p.player, p.card, p.corner, p.x, p.y, p.rotation, True)
                before = game.scores[seat]
                points = game.points_for(p)
                # a doubled die card can roll the 2x star straight back to its holder (X1)
                rolled = [e.face for e in simulate(game, doubled) if isinstance(e, ev.DieRolled)]
                await self.place(user, doubled, game, "exact")
                after, _, _ = self.state()
                assert after.scores[seat] - before == 2 * points, "V3: the placement's points are doubled"
                if rolled == ["2x"]:
                    assert after.stars["2x"] == seat, "X1: the roller takes the 2x star again"
                else:
                    assert after.stars["2x"] is None, "the 2x star returns to the supply"
                self.used["2x"] += 1
                return True

        if not self.used["autofit"]:  # auto-fit as soon as a cheap placement exists, so it never depends on the deal
            early = [
                p
                for p in first_placements(game, seat, hand, limit=2)
                if game.scores[seat] + game.points_for(p) <= GOAL - 6
            ]
            if early:
                await self.place(user, min(early, key=game.points_for), game, "autofit")
                return True

        die = [c for c in hand if game.deck[c].action == "die"]
        die_places = [
            p
            for p in first_placements(game, seat, die, limit=2)
            if not need_stars or game.scores[seat] + game.points_for(p) <= GOAL - 6
        ]
        if die_places:
            place = min(die_places, key=game.points_for)
            face = next(e.face for e in simulate(game, place) if isinstance(e, ev.DieRolled))
            await self.place(user, place, game, "exact")
            after, _, _ = self.state()
            self.faces.append(face)
            self.used["die"] += 1
            assert "die" in self.table.content.lower() or face in self.table.content, self.table.content
            if face in ("2x", "lightning"):
                assert after.stars[face] == seat, f"X1: rolling {face} hands the star to the roller"
            return True

        placements = first_placements(game, seat, hand, limit=2)
        cheap = [p for p in placements if game.scores[seat] + game.points_for(p) <= GOAL - 6]
        if need_stars:
            # keep the game going until both stars are used: build the table, draw for die cards
            if game.pile and (len(game.table) >= 4 or not cheap) and k % 3:
                await self.draw(user, via_button=k % 2 == 0)
            elif cheap:
                await self.place(user, min(cheap, key=game.points_for), game, "autofit" if k % 2 else "exact")
            elif game.pile:
                await self.draw(user, via_button=k % 2 == 0)
            else:
                await self.public(await user.slash("conex pass"))
                self.used["pass"] += 1
            return True
        if placements:
            mode = k % 4
            if mode in (0, 1):
                await self.hint(user, via_button=mode == 0)
            else:
                best = max(placements, key=game.points_for)
                await self.place(user, best, game, "autofit" if mode == 2 else "exact")
        elif game.pile:
            await self.draw(user, via_button=k % 2 == 0)
        else:
            await self.public(await user.slash("conex pass"))
            self.used["pass"] += 1
        return True


async def test_full_three_player_game_lobby_hands_placements_stars_to_the_end(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob, carol = (server.as_user(n, CHANNEL) for n in ("alice", "bob", "carol"))

    # The bot deals with a random seed. A deal whose first die rolls do not give out both stars cannot show
    # them being used (only 8 die cards exist), so such a game is aborted by the admin and a new one opened.
    for _deal in range(MAX_DEALS):
        res = await answered(await alice.slash("conex new", table="small", goal=GOAL))
        lobby = res.message
        assert not res.ephemeral and {"Join", "Start"} <= {c.get("label") for c in lobby.buttons()}
        row = env.latest_game("conex", server.channel(CHANNEL).id)
        assert row.status == "lobby" and row.players == [alice.id]

        for user in (bob, carol):
            await answered(await user.click(lobby, "Join"))
        assert f"<@{carol.id}>" in server.message(lobby.id).content
        refused = await answered(await bob.click(lobby, "Start"))
        assert refused.ephemeral, "only the host starts (U1)"
        res = await answered(await alice.click(lobby, "Start"), followups=1)
        table = res.followups[-1]
        assert_png(table.images[0])
        row = env.game(row.id)
        assert row.status == "active" and row.players == [alice.id, bob.id, carol.id]
        game = row.conex
        assert game.table_size == "small" and game.goal == GOAL and all(len(h) == 5 for h in game.hands)
        if {"2x", "lightning"} <= set(die_faces(game.seed, STARS_WITHIN_ROLLS)):
            break
        res = await answered(await server.as_user("mod", CHANNEL).slash("abort"))
        assert env.game(row.id).status == "aborted" and not res.ephemeral
    else:
        pytest.fail(f"no deal in {MAX_DEALS} gave out both stars within {STARS_WITHIN_ROLLS} die rolls")

    driver = Driver(env, row.id, {u.id: u for u in (alice, bob, carol)}, table)
    for k in range(MAX_ACTIONS):
        if not await driver.turn(k):
            break
    else:
        pytest.fail(f"the game did not end within {MAX_ACTIONS} turns: {driver.used}")

    used = driver.used
    final, _, _ = driver.state()
    assert used["die"] >= 1 and used["2x"] == 1 and used["lightning"] == 1, (
        used,
        driver.faces,
        final.scores,
        len(final.pile),
        final.history[-3:],
    )
    keys = ["exact", "autofit", "draw_button", "draw_command", "discard_select", "hand_button", "hand_command"]
    if driver.pending_seen >= 2:  # the second discard goes through the command (one lightning per game)
        keys.append("discard_command")
    for key in keys:
        assert used[key] >= 1, f"{key} never exercised: {used}"
    assert used["hint_button"] + used["hints_command"] >= 1, used

    row = env.game(row.id)
    assert row.status == "finished"
    log = env.actions(row.id)
    check_log_sequence(log, row.version)
    replayed = replay_conex(row.state, row.players, log)
    stored = row.conex
    assert replayed.is_over and replayed.scores == stored.scores and replayed.to_dict() == stored.to_dict()
    last = driver.table
    assert len(last.images) == 2, "the final table carries the result image"
    ranking = row.result["ranking"]
    best = max(stored.scores)
    assert set(ranking[0]) == {row.players[s] for s in range(3) if stored.scores[s] == best}
    assert row.result["rated"] is True
    ratings = env.ratings("conex")
    assert set(ratings) == set(row.players)
    for uid in row.players:
        assert ratings[uid][1] == 1 and ratings[uid][2] == (1 if uid in ranking[0] else 0)
    # hands were never posted publicly
    public_images = [m for m in server.messages(CHANNEL) if m.images and not m.ephemeral]
    assert all("hand" not in a.filename for m in public_images for a in m.attachments)
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
