"""English strings of Nim (``nm.*``, ``ui.nm_*``)."""

MESSAGES: dict[str, str] = {
    "nm.challenge": "{opponent}, **{challenger}** challenges you to Nim with heaps {heaps}. Accept or decline below.",
    "nm.thread_title": "Nim: {a} vs {b}",
    "nm.started": "Nim started: heaps {heaps}; whoever takes the last stone wins.",
    "nm.took": "{name} took {count} from heap {heap} ({left} left there).",
    "nm.left": "{name} gave up.",
    "nm.to_take": "{who} to take. Heaps: {heaps}.",
    "nm.over": "Game over: **{winner}** wins.",
    "nm.aborted": "This game was aborted.",
    "nm.board": "The heaps:",
    "nm.last": "Last action — {name}: `{action}`.",
    "nm.ai_name": "AI (perfect)",
    "nm.help": "**Nim** (2 players, tests only): `/nim challenge`, then `/nim take` or the select.\n",
    "ui.nm_take": "Take from a heap…",
    "ui.nm_option": "Heap {heap}: take {count}",
}
