"""Pure image rendering (Pillow) from engine states and views. Depends only on ``engine``.

Modules: :mod:`render.constructo` (board, layouts sheet), :mod:`render.conex` (table, hand, preview),
:mod:`render.results` (end-of-game cards, leaderboard). Every ``render_*`` function has a text twin.
"""

from render.common import to_png

__all__ = ["to_png"]
