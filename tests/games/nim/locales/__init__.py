"""Nim's strings (merged by ``bot.i18n`` once the game is registered)."""
