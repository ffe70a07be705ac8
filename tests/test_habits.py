"""Habits that hold (issue 20, Deliver 7), run by the README's one test command: ``ruff check`` and
``ruff format --check`` are clean, ``mypy --strict`` is clean on engine/, render/ and bot/core/, the engine's value
objects carry doctest examples that pass, and the binding rulings in ``docs/rules/`` are the shared ones."""

import doctest
import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[1]

VALUE_MODULES = (
    "engine.protocol",
    "engine.constructo.move",
    "engine.constructo.actions",
    "engine.constructo.layout",
    "engine.conex.actions",
    "engine.conex.geometry",
    "engine.conex.handref",
)
"""Modules of the engine's value objects (actions, moves, layouts, coordinates, outcomes): each must hold examples."""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_check_is_clean() -> None:
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_check_is_clean() -> None:
    """Every file as ``ruff format`` writes it (the project's one style: run ``ruff format .`` before a commit)."""
    done = _run("ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean_on_engine_render_and_the_core() -> None:
    done = _run("mypy", "--strict", "engine", "render", "bot/core")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def _engine_modules() -> list[str]:
    names = ["engine"]
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if not info.name.rsplit(".", 1)[-1].startswith("_") and not info.name.endswith("__main__"):
            names.append(info.name)
    return names


def test_doctest_examples_of_the_engine_pass() -> None:
    """Every doctest in the engine's modules passes, and each value-object module has at least one example
    (so a module whose examples were deleted, or a run that found none, fails)."""
    attempted: dict[str, int] = {}
    failures: list[str] = []
    for name in _engine_modules():
        module = importlib.import_module(name)
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False, report=False)
        attempted[name] = result.attempted
        if result.failed:
            failures.append(f"{name}: {result.failed} of {result.attempted} examples failed")
    assert failures == [], "\n".join(failures)
    assert sum(attempted.values()) > 0, "no doctest example found in engine/"
    empty = [m for m in VALUE_MODULES if attempted.get(m, 0) == 0]
    assert empty == [], f"value-object modules without doctest examples: {empty}"


def _shared_rules() -> Path | None:
    """The shared rulings folder (``../shared/rules`` from the project root, or ``$TABLEBOT_SHARED_RULES``)."""
    env = os.environ.get("TABLEBOT_SHARED_RULES")
    path = Path(env) if env else ROOT.parent / "shared" / "rules"
    return path if path.is_dir() else None


def test_the_repository_holds_the_binding_rulings_the_engines_point_to() -> None:
    rules = ROOT / "docs" / "rules"
    assert sorted(p.name for p in rules.glob("*.md")) == ["conex.md", "constructo.md"]
    for game in ("conex", "constructo"):
        doc = importlib.import_module(f"engine.{game}").__doc__ or ""
        assert f"docs/rules/{game}.md" in doc


def test_docs_rules_equal_the_shared_rulings() -> None:
    shared = _shared_rules()
    if shared is None:
        pytest.skip("no ../shared/rules next to the project (CI has it)")
    ours = {p.name: p.read_bytes() for p in (ROOT / "docs" / "rules").glob("*.md")}
    theirs = {p.name: p.read_bytes() for p in shared.glob("*.md")}
    assert sorted(ours) == sorted(theirs)
    stale = [name for name in theirs if ours[name] != theirs[name]]
    assert stale == [], f"docs/rules differs from {shared} in {stale}: copy the shared rulings again"
