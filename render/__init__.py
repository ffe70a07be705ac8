"""Pure image rendering (Pillow) from engine states and views. Depends only on ``engine``."""
