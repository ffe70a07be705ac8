"""Message catalogues of the game, one module per language (``MESSAGES``, ``COMMANDS``)."""
