"""Games used only in tests: registered with ``TABLEBOT_EXTRA_GAMES`` (``bot.games.EXTRA_GAMES_ENV``)."""
