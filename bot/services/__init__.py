"""Services of the game layer: they subscribe to commits (the outbox) and do what a commit owes: publish
boards, deliver messages, play AI seats, run timers, keep records, check access. They import the core, never the UI."""
