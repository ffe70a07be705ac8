"""Message catalogues, one module per language (``MESSAGES``, ``COMMANDS``); English is complete."""
