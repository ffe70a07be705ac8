"""A memory probe for benches, not part of the bot: what grows in a ``python -m bot`` process.

Usage (with ``bench/bench_chaos.py``, whose bot processes inherit the environment)::

    PYTHONPATH=bench/memprobe MEMPROBE=1 MEMPROBE_OUT=/tmp/probe .venv/bin/python bench/bench_chaos.py ...

Every ``MEMPROBE_EVERY`` seconds (default 60) a thread of each bot process appends one JSON line to
``$MEMPROBE_OUT/<pid>.jsonl``: ``t`` (minutes since start), ``top`` (the 40 most numerous object types, from
``gc.get_objects()``, garbage not yet collected included) and ``maps`` (the summed length of every dict/list/set/deque
attribute of ``bot.*`` and ``discord.*`` objects, by ``Class.attribute``, and of ``bot`` modules' globals). Compare two
lines of one file to see which objects and maps grow. Other processes (the bench itself) are left alone.
"""

from __future__ import annotations

import collections
import gc
import json
import os
import sys
import threading
import time
from typing import Any

_CONTAINERS = (dict, list, set, collections.deque)
_WEAK = ("WeakValueDictionary", "WeakKeyDictionary", "WeakSet")


def _sizes() -> tuple[collections.Counter[str], dict[str, int]]:
    counts: collections.Counter[str] = collections.Counter()
    maps: dict[str, int] = {}
    for obj in gc.get_objects():
        tp = type(obj)
        mod = getattr(tp, "__module__", "")
        mod = mod if isinstance(mod, str) else ""
        counts[f"{mod}.{getattr(tp, '__qualname__', tp.__name__)}"] += 1
        if not mod.startswith(("bot.", "discord.")) or isinstance(obj, type) or not hasattr(obj, "__dict__"):
            continue
        try:
            attrs = list(vars(obj).items())
        except TypeError:
            continue
        for name, value in attrs:
            if isinstance(value, _CONTAINERS) or type(value).__name__ in _WEAK:
                key = f"{tp.__qualname__}.{name}"
                maps[key] = maps.get(key, 0) + len(value)
    for name, module in list(sys.modules.items()):
        if name.startswith("bot"):
            for attr, value in list(vars(module).items()):
                if isinstance(value, (dict, set, list)) and not attr.startswith("__"):
                    maps[f"{name}:{attr}"] = len(value)
    return counts, maps


def _probe() -> None:
    out = os.environ.get("MEMPROBE_OUT", ".")
    path = os.path.join(out, f"{os.getpid()}.jsonl")
    every = float(os.environ.get("MEMPROBE_EVERY", "60"))
    start = time.monotonic()
    while True:
        time.sleep(every)
        record: dict[str, Any]
        try:
            counts, maps = _sizes()
            record = {
                "t": round((time.monotonic() - start) / 60, 2),
                "top": counts.most_common(40),
                "maps": {k: v for k, v in maps.items() if v},
            }
        except Exception as err:  # a probe never stops the bot
            record = {"error": repr(err)}
        with open(path, "a") as f:
            f.write(json.dumps(record) + "\n")


if getattr(sys, "orig_argv", [])[1:3] == ["-m", "bot"] and os.environ.get("MEMPROBE") == "1":
    threading.Thread(target=_probe, daemon=True, name="memprobe").start()
