"""Pure image rendering (Pillow) from engine states and views. Depends only on ``engine``.

Modules: :mod:`render.constructo` (board; layouts sheet in :mod:`render.constructo_layouts`), :mod:`render.conex`
(table; hand in :mod:`render.conex_hand`, hint tiles in :mod:`render.conex_hints`), :mod:`render.results`
(end-of-game cards, leaderboard); :mod:`render.text` and :mod:`render.fonts` set every label (font fallback, the
400 px legibility rule, the label recorder). Every ``render_*`` function has a text twin.
"""

from render.common import to_png

__all__ = ["to_png"]
