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
        "at a time under the board. Only the board of the moment stays there; take your time (no clock)."
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
        "A tile with two or more chips is a tower: its chips never move again, and when the round ends it scores "
        "1 point for whoever owns its top chip, however tall it is."
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
        "The new card may touch only the card (or square) under its corner, never another card nor anybody's "
        "coloured corner, and it must stay on the table."
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
        "A star stays with its holder until someone else rolls it and can be used from the holder's next turn: "
        "the 2x star doubles one placement, the lightning star removes a free card from the table and makes "
        "everyone else put a card back under the pile."
    ),
    "cn.learn.draw": (
        "Instead of placing you may always draw two cards from the pile; only when the pile is empty may you pass."
    ),
    "cn.learn.goal": (
        "Once someone reaches the goal ({goal} points here), the round is played to its end and the game stops; "
        "the highest score wins."
    ),
}

COMMANDS: dict[str, str] = {}
