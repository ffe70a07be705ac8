"""Persistent components (``discord.ui.DynamicItem``) and the one-response helpers."""
