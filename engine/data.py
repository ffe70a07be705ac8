"""Where the project's data files (layouts, the CONEX deck, fonts) live."""

from pathlib import Path

DATA_DIR: Path = Path(__file__).resolve().parent.parent / "data"
