"""Entry point: ``python -m bot``. Placeholder until the bot lands (issue 6)."""

import os
import sys


def main() -> int:
    if not os.environ.get("DISCORD_TOKEN"):
        print("DISCORD_TOKEN is not set: export DISCORD_TOKEN=<your bot token> and run again.", file=sys.stderr)
        return 2
    print("The bot is not wired yet.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
