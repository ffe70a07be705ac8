"""English messages of the puzzles (``/puzzle``, ``bot/games/*/puzzle_*.py``)."""

MESSAGES: dict[str, str] = {
    "pz.head": "**Puzzle #{id}**",
    "pz.daily_head": "**Daily puzzle** of {date}",
    "pz.level_easy": "easy",
    "pz.level_medium": "medium",
    "pz.level_hard": "hard",
    "pz.find_win": (
        "Your move (you are **You** on the board): find the only move that **wins the round** with best play."
    ),
    "pz.find_save": (
        "Your move (you are **You** on the board): find the only move that **does not lose**: it holds the draw."
    ),
    "pz.find_more": (
        "Your move (you are **You** on the board): find the move that **wins by the most towers**: only one does."
    ),
    "pz.how": "Answer with the selects below (a chip size and a tile, or a move).",
    "pz.you": "You",
    "pz.opponent": "Opponent",
    "pz.size_large": "a large chip",
    "pz.size_medium": "a medium chip",
    "pz.size_small": "a small chip",
    "pz.place_words": "{size} on tile {tile}",
    "pz.move_words": "tile {src} → tile {dst}",
    "pz.wins_by.one": "wins the round by 1 tower",
    "pz.wins_by.other": "wins the round by {n} towers",
    "pz.loses_by.one": "loses the round by 1 tower",
    "pz.loses_by.other": "loses the round by {n} towers",
    "pz.draws": "draws the round",
    "pz.towers.one": "1 tower",
    "pz.towers.other": "{n} towers",
    "pz.right": "✅ **Right!**",
    "pz.wrong": "❌ **Not this one**: {move} {result} with best play from both sides.",
    "pz.proof_win": (
        "The answer, {move}, {result} with best play from both sides; every other move draws or loses: it is "
        "{margin} better than any of them. Best play: {line}"
    ),
    "pz.proof_save": (
        "The answer, {move}, {result} with best play from both sides; every other move loses: it is {margin} better "
        "than any of them. Best play: {line}"
    ),
    "pz.proof_more": (
        "The answer, {move}, {result} with best play from both sides: {margin} more than any other move. "
        "Best play: {line}"
    ),
    "pz.next": "Another puzzle",
    "pz.gone": "This puzzle is no longer in the set: try `/puzzle play`.",
    "pz.not_legal": "“{value}” is not a legal move in this position: nothing was recorded.",
    "pz.not_counted": "(This is not this server's current daily puzzle: the answer does not count for a streak.)",
    "pz.already": "You already answered this daily puzzle with **{move}**: {verdict}. Only the first answer counts.",
    "pz.right_word": "right",
    "pz.wrong_word": "wrong",
    "pz.streak": "Your streak here: {n} in a row (best {best}).",
    "pz.streaks_title": "**Daily puzzle streaks** — {guild}",
    "pz.streaks_row": "{rank}. <@{user}> — {n} in a row (best {best}, solved {solved})",
    "pz.streaks_empty": "Nobody has solved a daily puzzle in this server yet.",
    "pz.streaks_past_end": "There is nobody more on this list.",
    "pz.page": "Page {page}",
    "pz.off_alone": "`off` stops the daily puzzle: give it without a channel or an hour.",
    "pz.daily_off": "Saved. No daily puzzle here any more.",
    "pz.daily_was_off": "There was no daily puzzle here: nothing changed.",
    "pz.daily_none": "No daily puzzle here yet: `/puzzle daily_channel channel:#channel` sets one.",
    "pz.daily_is": (
        "The daily puzzle is posted in <#{channel}> every day at {hour:02d}:00 UTC; the next one <t:{at}:R>."
    ),
    "pz.daily_same": (
        "The daily puzzle is already posted in <#{channel}> at {hour:02d}:00 UTC (the next one <t:{at}:R>): "
        "nothing changed."
    ),
}

COMMANDS: dict[str, str] = {}
