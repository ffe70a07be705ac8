"""Thin discord.py adapters: one ``commands.GroupCog`` per game plus the shared commands."""
