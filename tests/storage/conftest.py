"""Fixtures: a real SQLite file in a fresh temp dir per test (no mocks)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tablebot.sqlite3"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[Storage]:
    s = await Storage.open(db_path)
    try:
        yield s
    finally:
        await s.close()
