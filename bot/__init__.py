"""The Discord bot (discord.py): cogs, views, storage, the game service and the dev server."""
