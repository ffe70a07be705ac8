"""The layering rules of docs/interfaces.md: engine imports no discord, PIL, aiosqlite, asyncio; render no discord
or storage; above the engine a game is named only in its own folders; no source file (bot, engine, render, devserver,
bench, tools) over ~450 lines."""

import re
import subprocess
import sys
from pathlib import Path

FORBIDDEN = ("discord", "PIL", "aiosqlite", "sqlite3", "asyncio")


def _imported_after(module: str) -> set[str]:
    code = (
        "import sys\n"
        f"import {module}\n"
        "import pkgutil, importlib\n"
        f"pkg = importlib.import_module('{module}')\n"
        "for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return set(out.split())


def test_engine_imports_no_io_or_discord() -> None:
    mods = _imported_after("engine")
    bad = sorted(m for m in mods if m.split(".")[0] in FORBIDDEN)
    assert not bad, f"engine pulled in {bad}"


def test_render_imports_no_discord_or_storage() -> None:
    mods = _imported_after("render")
    bad = sorted(m for m in mods if m.split(".")[0] in ("discord", "aiosqlite", "bot"))
    assert not bad, f"render pulled in {bad}"


# -- the game layer: a game's name lives only in its own folders ------------------------------------------------
ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 450
"""A file in ``bot/`` over this many lines is split by job (house style)."""
RENDER_NAMING_GAMES = {"__init__.py", "hexgrid.py", "replay.py", "results.py"}
"""Render modules that still name games (the render engineers': ``results.py`` holds both games' cards, ``hexgrid.py``
is Constructo's geometry, ``replay.py``/``__init__.py`` mention them in docstrings). This list may
only shrink."""


def _game_names() -> set[str]:
    from bot.games import GAMES

    return {*GAMES, "nim"}


def _mentions(path: Path, names: set[str]) -> list[str]:
    pattern = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b", re.IGNORECASE)
    return [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]


def _own_folder(path: Path, names: set[str]) -> bool:
    parts = path.relative_to(ROOT).parts
    return parts[:2] == ("bot", "games") and len(parts) > 3 and parts[2] in names


def test_no_module_above_the_engine_names_a_game_outside_its_own_folders() -> None:
    """``bot/`` names a game only in ``bot/games/<game>/`` and the one registration line (``bot.games.GAMES``);
    ``render/`` only in ``render/<game>*`` (and the closed list above); storage never branches on a game."""
    names = _game_names()
    found: list[str] = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        rel = path.relative_to(ROOT).parts
        if _own_folder(path, names) or rel[:2] == ("bot", "storage"):
            continue
        found += [m for m in _mentions(path, names) if not m.startswith("bot/games/__init__.py") or "GAMES:" not in m]
    for path in sorted((ROOT / "render").glob("*.py")):
        if path.name.split("_")[0].removesuffix(".py") in names or path.name in RENDER_NAMING_GAMES:
            continue
        found += _mentions(path, names)
    assert found == [], "a game named outside its own folders:\n" + "\n".join(found)
    branch = re.compile(r"""kind\s*(==|!=|in)\s*[(\[]?\s*["'](""" + "|".join(sorted(names)) + ")")
    storage = [
        str(p.relative_to(ROOT)) for p in (ROOT / "bot" / "storage").rglob("*.py") if branch.search(p.read_text())
    ]
    assert storage == [], f"storage branches on a game: {storage}"


def test_the_registration_line_is_the_only_one() -> None:
    from bot.games import GAMES

    lines = [
        line
        for line in (ROOT / "bot" / "games" / "__init__.py").read_text().splitlines()
        if any(f'"{g}"' in line for g in GAMES)
    ]
    assert len(lines) == 1 and lines[0].startswith("GAMES:"), lines


def test_no_source_file_is_over_450_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for folder in ("bot", "engine", "render", "devserver", "bench", "tools")
        for p in (ROOT / folder).rglob("*.py")
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}, f"split these by job: {long}"


def test_render_files_naming_games_only_shrink() -> None:
    names = _game_names()
    for name in RENDER_NAMING_GAMES:
        path = ROOT / "render" / name
        assert path.exists() and _mentions(path, names), f"render/{name} no longer names a game: drop it from the list"


# -- the shape of bot/: core at the bottom, services above it, UI on top, one wiring root (issue 20) ---------------
LAYERS = ("core", "services", "ui")
"""``bot/<layer>/``, bottom first: a module may import its own layer and the ones below, never one above; the game
plug-ins (``bot/games/<game>/``), the commands (``bot/cogs``), ``bot/app.py`` and ``bot/wiring.py`` sit on top."""
ABOVE_ALL = ("bot.games.", "bot.cogs", "bot.app", "bot.wiring")
"""(``bot.games`` itself, the package's ``__init__``, only names the game packages and imports nothing: the registry
reads it.)"""


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports (top level, in functions, under ``TYPE_CHECKING``), with its line."""
    import ast

    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
    return out


def test_no_module_of_bot_imports_a_layer_above_its_own() -> None:
    bad = []
    for level, layer in enumerate(LAYERS):
        above = tuple(f"bot.{upper}" for upper in LAYERS[level + 1 :]) + ABOVE_ALL
        for path in sorted((ROOT / "bot" / layer).rglob("*.py")):
            bad += [
                f"{path.relative_to(ROOT)}:{n}: {mod}"
                for n, mod in _imports(path)
                if (mod + ".").startswith(above) and mod != "bot.games"
            ]
    assert bad == [], "imports pointing up:\n" + "\n".join(bad)


def test_the_layers_below_the_ui_import_no_discord_ui_of_the_games() -> None:
    """The storage, the engine and render know nothing of the layers of bot/ (they sit below it)."""
    bad = []
    for folder in ("bot/storage", "engine", "render"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            bad += [
                f"{path.relative_to(ROOT)}:{n}: {mod}"
                for n, mod in _imports(path)
                if mod.startswith(("bot.core", "bot.services", "bot.ui", "bot.games", "bot.app"))
            ]
    assert bad == [], "\n".join(bad)
