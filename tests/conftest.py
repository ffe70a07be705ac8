"""The suite's scheduling on pytest-xdist workers (``-n 6 --dist loadfile`` in ``pyproject.toml``).

xdist's ``loadfile`` keeps each test file on one worker, in order (the end-to-end files that share one bot process
for all their tests need that), and hands the files out largest first *by number of tests*. That puts the few long
end-to-end tests (one bot process, a whole game each) last, where one worker runs them alone for minutes. This
scheduler only changes the **order** files are handed out, longest first by the seconds measured, and lets the
files listed in :data:`INDEPENDENT` (each test starts bot, server and database of its own) spread their tests
over the workers. Which tests run, and what each proves, is unchanged; ``-n 0`` is not affected.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

# A machine with PYTHONDONTWRITEBYTECODE (CI's has it) would have every xdist worker compile and assert-rewrite the
# whole project at collection (~11.5 s of CPU each instead of ~4.3 s) and every bot a test starts compile its modules
# again: the suite writes bytecode like any developer's checkout (``__pycache__/`` is ignored by git). Set here, in
# the first conftest, before the workers and bots are started (they inherit the environment).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# No player text may show None ("Only <@None> can answer"): bot.i18n.t raises on one under this variable, here and
# in every bot process a test starts (they inherit the environment), so the test that makes one fails.
os.environ["TABLEBOT_STRICT_TEXT"] = "1"

MEASURED_S: dict[str, float] = {
    "tests/e2e/test_outbox_db_outage.py": 75.0,
    "tests/e2e/test_footprint.py": 150.0,
    "tests/e2e/test_lease.py": 80.0,
    "tests/e2e/test_delivery.py": 45.0,
    "tests/e2e/test_delivery_discord.py": 38.0,
    "tests/e2e/test_chaos.py": 60.0,
    "tests/e2e/test_shards.py": 60.0,
    "tests/e2e/test_outbox_rate_limits.py": 60.0,
    "tests/e2e/test_refused.py": 60.0,
    "tests/e2e/test_conex_game.py": 55.0,
    "tests/e2e/test_clock_step.py": 55.0,
    "tests/storage/test_model.py": 50.0,
    "tests/e2e/test_command_sync.py": 45.0,
    "tests/test_habits.py": 45.0,
    "tests/e2e/test_shutdown.py": 45.0,
    "tests/e2e/test_postgres.py": 40.0,
    "tests/engine/conex/test_finder_consistency.py": 40.0,
    "tests/e2e/test_lifecycle.py": 40.0,
    "tests/e2e/test_replay_stepper.py": 35.0,
    "tests/e2e/test_recovery.py": 35.0,
    "tests/e2e/test_constructo_match.py": 32.0,
    "tests/ops/test_wheel.py": 25.0,
    # files of unit tests with a few long ones: counted per test (0.1 s) they came last, one worker running a 16 s
    # test alone at the end
    "tests/engine/constructo/test_puzzles.py": 18.0,
    "tests/devserver/test_console.py": 16.0,
    "tests/bot/test_cpu_lanes.py": 14.0,
    "tests/engine/conex/test_ai_levels.py": 13.0,
    "tests/storage/test_cli.py": 8.0,
    "tests/render/test_replay.py": 7.0,
    "tests/render/test_replay_moves.py": 6.0,
    "tests/bot/test_admission.py": 6.0,
    "tests/bot/test_outbox.py": 6.0,
    "tests/bot/test_learn.py": 5.0,
}
"""Seconds a file took in a full run (``--durations``, 2 workers on a loaded machine), for the order only: the
longest are handed out first. Files not listed count ``E2E_PER_TEST_S`` per end-to-end test, ``UNIT_PER_TEST_S``
per other test. Stale figures only make the run slower, never wrong."""
E2E_PER_TEST_S = 12.0
UNIT_PER_TEST_S = 0.1

INDEPENDENT: frozenset[str] = frozenset(
    {
        "tests/e2e/test_outbox_db_outage.py",
        "tests/e2e/test_lease.py",
        "tests/e2e/test_chaos.py",
        "tests/e2e/test_clock_step.py",
        "tests/e2e/test_shutdown.py",
        "tests/e2e/test_recovery.py",
        "tests/e2e/test_smoke.py",
        "tests/e2e/test_ops_stop.py",
        "tests/e2e/test_ops_startup.py",
    }
)
"""Files with no module-scoped fixture: every test starts its own server and bot (and schema), so their tests may
run on different workers. A file that gains a module-scoped fixture must leave this set."""


def _weights(scopes: dict[str, dict[str, bool]]) -> dict[str, float]:
    per_file: dict[str, int] = {}
    for scope, nodeids in scopes.items():
        path = scope.split("::", 1)[0]
        per_file[path] = per_file.get(path, 0) + len(nodeids)
    out = {}
    for scope, nodeids in scopes.items():
        path = scope.split("::", 1)[0]
        if path in MEASURED_S:
            out[scope] = MEASURED_S[path] * len(nodeids) / per_file[path]
        else:
            out[scope] = len(nodeids) * (E2E_PER_TEST_S if path.startswith("tests/e2e/") else UNIT_PER_TEST_S)
    return out


def _scheduler_class() -> Any:
    from xdist.scheduler import LoadFileScheduling

    class LongestFirst(LoadFileScheduling):
        """``loadfile``, the longest work units first; the tests of an :data:`INDEPENDENT` file are units of
        their own."""

        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return nodeid if path in INDEPENDENT else path

        def schedule(self) -> None:
            if self.collection is not None or not self._check_nodes_have_same_collection():
                super().schedule()
                return
            self.collection = list(next(iter(self.registered_collections.values())))
            if not self.collection:
                return
            units: dict[str, dict[str, bool]] = {}
            for nodeid in self.collection:
                units.setdefault(self._split_scope(nodeid), {})[nodeid] = False
            weights = _weights(units)
            for scope in sorted(units, key=lambda s: -weights[s]):
                self.workqueue[scope] = units[scope]
            for _ in range(len(self.nodes) - len(self.workqueue)):
                unused, _assigned = self.assigned_work.popitem()
                unused.shutdown()
            for node in self.nodes:
                self._assign_work_unit(node)
            for node in self.nodes:
                self._reschedule(node)
            if not self.workqueue:
                for node in self.nodes:
                    node.shutdown()

    return LongestFirst


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Our ``loadfile`` (see the module docstring); any other ``--dist`` is xdist's own."""
    if config.getvalue("dist") != "loadfile":
        return None
    return _scheduler_class()(config, log)
