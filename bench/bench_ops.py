"""Operations benchmark (issue 23.2): wall time of the exec probe ``python -m bot healthcheck`` (what Docker's
``HEALTHCHECK`` runs every minute) against a fresh heartbeat of this process, beside a bare interpreter and
``import discord`` alone (what the old probe paid). Each command runs ``--runs`` times; the figures are the median
and the maximum wall seconds.

Run: ``.venv/bin/python bench/bench_ops.py [--runs 7]`` (prints a Markdown table and the load average; figures go
to BENCHMARKS.md, "Operations").
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.healthcheck import proc_start_ticks  # noqa: E402


def wall(cmd: list[str], env: dict[str, str], expect: int) -> float:
    started = time.perf_counter()
    code = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True).returncode
    took = time.perf_counter() - started
    assert code == expect, f"{cmd} exited {code}"
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        beat = {"pid": os.getpid(), "proc_start": proc_start_ticks(os.getpid()), "written": time.time()}
        (Path(tmp) / "heartbeat").write_text(json.dumps(beat))
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")} | {"DATA_DIR": tmp}
        cases = [
            ("`python -c pass` (the interpreter alone)", [sys.executable, "-c", "pass"], 0),
            ("`python -m bot healthcheck` (healthy)", [sys.executable, "-m", "bot", "healthcheck"], 0),
            ("`python -c 'import discord'` (the old probe's floor)", [sys.executable, "-c", "import discord"], 0),
        ]
        print("| command | median s | max s |\n|---|---|---|")
        for name, cmd, expect in cases:
            times = [wall(cmd, env, expect) for _ in range(args.runs)]
            print(f"| {name} | {statistics.median(times):.2f} | {max(times):.2f} |")
    print(
        f"\nload average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}, "
        f"{os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
