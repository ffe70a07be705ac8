"""Issue 23 point 4: the wheel built from the repository is complete. Installed NON-editable into a fresh venv
and used from another directory, the engine loads its layouts and deck, render draws a board and a hand with the
shipped fonts, the optional C search core is built (when a C compiler exists), the font licences are in the
wheel's metadata, ``devserver`` is not shipped and ``python -m bot --help`` runs.

To stay fast and offline the wheel is built without build isolation (setuptools comes from the test extra) and
installed with ``--no-deps``; the fresh venv reaches the test venv's dependencies through a ``.pth`` line (a
plain path: the test venv's own ``.pth`` files, among them the editable install of this checkout, are not run),
so ``engine``/``render``/``bot`` can only come from the installed wheel. Everything lives in ``tmp_path``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow

# What a source checkout holds that must not reach a build (tests, benchmarks, host builds, venvs, secrets).
IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*.so",
    "*.pyc",
    ".env",
    "tests",
    "bench",
    ".pytest_cache",
    ".ruff_cache",
    ".mypy_cache",
)

CHECK = r"""
import json, sys
from importlib import metadata
from pathlib import Path

import bot, engine, render
venv = Path(sys.prefix).resolve()
for mod in (bot, engine, render):
    assert venv in Path(mod.__file__).resolve().parents, (mod.__name__, mod.__file__, venv)

from engine.data import DATA_DIR
from engine.constructo.layout import LAYOUTS, RECOMMENDED
from engine.constructo.match import Match
from engine.conex.deck import load_deck
from engine.conex.game import Game
from engine.constructo import core
from render.constructo import render_board
from render.conex_hand import render_hand

assert venv in DATA_DIR.resolve().parents, DATA_DIR
board = render_board(Match.new(RECOMMENDED[0]), names=("Ana", "Bo"))
game = Game.new(players=2, seed=7)
hand = render_hand(game, 0)
licences = sorted(Path(p).name for p in metadata.metadata("tablebot").get_all("License-File") or [])
try:
    import devserver  # noqa: F401
    shipped_devserver = True
except ImportError:
    shipped_devserver = False
print(json.dumps({"layouts": len(LAYOUTS), "deck": len(load_deck()), "board": board.size, "hand": hand.size,
                  "core": core.CORE, "licences": licences, "devserver": shipped_devserver}))
"""


def _run(args: list[str | Path], cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_wheel_installed_non_editable_loads_data_and_draws(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(REPO, src, ignore=IGNORED)
    dist = tmp_path / "dist"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            dist,
            src,
        ],
        cwd=tmp_path,
    )
    (wheel,) = dist.glob("tablebot-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "engine/data/constructo_layouts.json" in names and "engine/data/conex_deck.json" in names
    assert "engine/data/conex_deck.schema.json" in names and "engine/data/fonts/DejaVuSans.ttf" in names
    assert not [n for n in names if n.startswith(("devserver/", "data/", "tests/"))]
    assert "bot/web/static/discord-sdk.js" in names, "the live table's prebuilt SDK bundle is package data"
    assert not [n for n in names if n.startswith("web/")], "the bundle's build inputs stay in the checkout"

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp_path)
    python = venv / "bin" / "python"
    purelib = Path(
        _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp_path).stdout.strip()
    )
    (purelib / "zz_test_venv_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run(
        [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel],
        cwd=tmp_path,
    )

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = _run([python, "-c", CHECK], cwd=elsewhere).stdout.strip().splitlines()[-1]
    import json

    seen = json.loads(out)
    assert seen["layouts"] >= 6 and seen["deck"] == 52
    assert seen["board"][0] >= 800 and seen["hand"][0] >= 800
    assert seen["licences"] == ["LICENSE-DejaVu.txt", "LICENSE-OFL.txt"]
    assert seen["devserver"] is False
    if shutil.which("cc") or shutil.which("gcc"):
        assert seen["core"] == "c", "the optional C search core was not built into the wheel"
    helped = _run([python, "-m", "bot", "--help"], cwd=elsewhere).stdout
    assert "DISCORD_TOKEN" in helped and "migrate-db" in helped
