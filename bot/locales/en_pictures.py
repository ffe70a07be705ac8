"""English words shared by every game's after-game pictures (the leaderboard, any replay's move list) under
``img.<key>``: the renderers' own English from ``render/record_words.py``, so every word has its Spanish checked like
any message (``bot.i18n.image_words`` hands them to the renderers)."""

from render.record_words import EN as _IMAGE_WORDS

MESSAGES: dict[str, str] = {f"img.{key}": template for key, template in _IMAGE_WORDS.items()}
