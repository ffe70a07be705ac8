"""Where the project's data files live: this package's own folder, inside the installed wheel too.

``DATA_DIR`` holds ``constructo_layouts.json`` (the six named layouts of the rulings), ``conex_deck.json`` and
its ``conex_deck.schema.json`` (the project's 52-card CONEX deck, ``tools/gen_conex_deck.py``) and ``fonts/``
(DejaVu Sans and the Noto fallback chain, SIL OFL 1.1 / DejaVu licences: ``fonts/README.md``). The files are
package data (``pyproject.toml`` ``[tool.setuptools.package-data]``), so a non-editable ``pip install .`` ships
them and this path is found through :mod:`importlib.resources` relative to the installed package, never
relative to a source checkout.
"""

from importlib.resources import files
from pathlib import Path

DATA_DIR: Path = Path(str(files(__name__)))
