"""Opening storage at start-up (``python -m bot``): an unreachable PostgreSQL is waited for ``DATABASE_WAIT_S``."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from bot.config import Config
from bot.storage.errors import StorageError

log = logging.getLogger("bot")


class StorageOpenFailed(Exception):
    """Storage could not be opened at start-up (wraps the ``StorageError`` or ``OSError``)."""

    def __init__(self, err: BaseException) -> None:
        super().__init__(str(err))
        self.err = err


async def open_storage(config: Config, stop: asyncio.Event) -> Any:
    """Open storage; an unreachable PostgreSQL is retried with back-off (1, 2, 4... at most 10 s apart) for up to
    ``DATABASE_WAIT_S`` seconds. Returns ``None`` if ``stop`` (SIGTERM) is set meanwhile. Raises
    ``StorageOpenFailed``."""
    from bot.storage import DatabaseUnavailableError, Storage

    deadline = time.monotonic() + config.database_wait_s
    delay, attempt = 1.0, 0
    while True:
        attempt += 1
        opening = asyncio.ensure_future(Storage.open(config.storage_target, pool_size=config.database_pool_size))
        stopping = asyncio.ensure_future(stop.wait())
        await asyncio.wait([opening, stopping], return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if not opening.done():
            opening.cancel()
            await asyncio.gather(opening, return_exceptions=True)
            return None
        try:
            return opening.result()
        except DatabaseUnavailableError as err:
            left = deadline - time.monotonic()
            if not config.uses_postgresql or left <= 0:
                if attempt > 1:
                    log.error(
                        "PostgreSQL still unreachable after %d attempts in %.0f s (DATABASE_WAIT_S)",
                        attempt,
                        config.database_wait_s,
                    )
                raise StorageOpenFailed(err) from err
            wait = min(delay, left)
            log.warning(
                "%s; attempt %d, trying again in %.0f s (giving up in %.0f s, DATABASE_WAIT_S)",
                err.message,
                attempt,
                wait,
                left,
            )
            try:
                await asyncio.wait_for(stop.wait(), wait)
                return None
            except TimeoutError:
                pass
            delay = min(delay * 2, 10.0)
        except (StorageError, OSError) as err:
            raise StorageOpenFailed(err) from err
