"""The devserver and the bot are separate packages: neither imports the other (the devserver only starts
``python -m bot`` as a subprocess, ``devserver/process.py``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import devserver


def _imported_after(package: str) -> set[str]:
    """Every module in ``sys.modules`` after importing ``package`` and all its submodules (``__main__`` aside)."""
    code = (
        "import importlib, pkgutil, sys\n"
        f"pkg = importlib.import_module('{package}')\n"
        "for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return set(out.split())


def test_the_bot_never_imports_the_devserver() -> None:
    mods = _imported_after("bot")
    assert "bot.app" in mods  # the walk did import the bot
    bad = sorted(m for m in mods if m.split(".")[0] == "devserver")
    assert not bad, f"bot pulled in {bad}"


def test_the_devserver_imports_nothing_from_the_bot() -> None:
    mods = _imported_after("devserver")
    assert "devserver.routes.interactions" in mods
    bad = sorted(m for m in mods if m.split(".")[0] == "bot")
    assert not bad, f"devserver pulled in {bad}"


def test_no_devserver_source_names_the_bot_package_in_an_import() -> None:
    root = Path(devserver.__file__).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            offenders += [f"{path.relative_to(root)}: {n}" for n in names if n.split(".")[0] == "bot"]
    assert not offenders
