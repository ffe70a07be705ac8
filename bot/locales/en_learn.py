"""English messages of the tutorials (``/learn <game>``, ``bot/services/tutorial.py``): the shared ``learn.*`` texts
and each game's step sentences (``<game prefix>.learn.<step>``: one sentence per rule, in the players' words).
``COMMANDS`` is empty for English (the cog's own words are the msgids)."""

MESSAGES: dict[str, str] = {
    "learn.help": "**New here?** {commands}: a guided first game against a gentle AI, one rule at a time.",
    "learn.step": "**Tutorial, step {n} of {of}:** {text}",
    "learn.none": "{game} has no tutorial yet: `/help` explains its rules.",
    "learn.no_channel": "I cannot open a tutorial in this kind of channel: try it in a text channel of the server.",
    "learn.started": (
        "Your {game} tutorial starts in {where}: a real first game against a gentle AI, with one rule explained "
        "at a time under the board. Only the board of the moment stays there; take your time (24 hours per move)."
    ),
    "learn.running": "Your {game} tutorial is still going on in {where}: carry on there (`/abandon` ends it).",
    "learn.thread_title": "{game} tutorial: {name}",
    "learn.thread_vs": "{game}: {a} vs {b}",
    "learn.thread_open": "{game}: {name} vs anyone",
    "learn.done": "**Tutorial over!** On the way you met {met} of the {total} rules of {game}.",
    "learn.recap": "Rules this game did not bring up:",
    "learn.offer": (
        "Ready for a real game? Play the AI at the level you choose, open a challenge anyone here may accept, "
        "or join the quick match to be paired with other players."
    ),
    "learn.btn_ai": "Play the AI ({level})",
    "learn.btn_challenge": "Open a challenge",
    "learn.btn_queue": "Quick match",
    # -- the chips and towers game (prefix cx) ------------------------------------------------------------------
    "cx.learn.layout": (
        "The board is a layout of 9 hexagonal tiles numbered 1 to 9 in reading order; you and the AI each have 3 "
        "large, 3 medium and 3 small chips."
    ),
    "cx.learn.place": (
        "On your turn, put one chip from your reserve on any empty tile: choose it in the selects under the board."
    ),
    "cx.learn.stack": (
        "Instead of placing, you may move one of your chips that stands alone onto a neighbouring tile whose top "
        "chip is the AI's and one size bigger: a medium onto a large, a small onto a medium (never a small onto a "
        "large)."
    ),
    "cx.learn.swallow": (
        "A large chip of yours standing alone may swallow a neighbouring lone small chip of the AI's by moving on "
        "top of it: that tile is no tower and scores nothing, but a medium may later climb onto it."
    ),
    "cx.learn.tower": (
        "A tile with two or more chips is blocked (none of its chips moves again) and, unless it is only a large "
        "on a swallowed small, it is a tower: when the round ends it scores 1 point for whoever owns its top chip, "
        "however tall it is."
    ),
    "cx.learn.round_end": (
        "A round ends as soon as the player to move can do nothing (no empty tile or chip to place and no move), "
        "even if the other player still could; then the towers are counted."
    ),
    "cx.learn.match": (
        "A match is two rounds: the other player starts round 2 and chooses its layout, and the higher total of "
        "towers over both rounds wins (equal totals are a draw)."
    ),
    # -- the card game (prefix cn) ------------------------------------------------------------------------------
    "cn.learn.hand": (
        "You hold 5 cards that only you can see: press **My hand** under the board to look at them (and "
        "**Hints** to see placements that fit)."
    ),
    "cn.learn.corners": (
        "To place a card, choose one of its coloured corners: that corner must lie on an area of the same colour, "
        "on the first turn the square of that colour at a corner of the scoring board, later the background of a "
        "card."
    ),
    "cn.learn.no_touch": (
        "The new card may touch nothing but what its corner lies on: no other card, no part of the scoring board "
        "when it lies on a card, no coloured corner at all (not even its target's), and it must lie wholly on the "
        "table."
    ),
    "cn.learn.score": (
        "A placement scores the points of the corner you used, 2 more when that corner lies on a +2 card; scores "
        "add up from turn to turn."
    ),
    "cn.learn.die": (
        "After you place a die card, the die is rolled: it gives you one or two cards from the pile, or one of the "
        "two stars."
    ),
    "cn.learn.stars": (
        "A star you roll is yours to use from your next turn until you use it or someone else rolls it: the "
        "2x star doubles one placement's points, the lightning star takes a free card off the table (at the "
        "start or end of your turn) and makes everyone else put a card from their hand under the pile."
    ),
    "cn.learn.draw": (
        "Instead of placing you may always draw two cards from the pile; only when the pile is empty may you pass."
    ),
    "cn.learn.goal": (
        "Once someone reaches the goal ({goal} points here), the round is played to its end and the game stops (it "
        "also stops when everyone passes in a row or the cards run out); the highest score wins."
    ),
}

COMMANDS: dict[str, str] = {}
