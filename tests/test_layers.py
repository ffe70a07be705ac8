"""The layering rule of docs/interfaces.md: engine imports no discord, PIL, aiosqlite, asyncio."""

import subprocess
import sys

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
