"""Drive the built image against the local Discord-compatible server (``tools/docker_check.sh`` step 4).

Starts a ``DevServer`` on 127.0.0.1 (a free port), runs the image with ``--network host`` and the bot's
environment from an env file (the README's ``docker run`` way: the token is not on the command line), a bind
mount owned by the image's uid 10001 as ``/data``, and a 5-s health interval. Then, printing one line per figure:

- the seconds from ``docker run`` to the bot's commands synced, and to Docker's health status ``healthy``;
- the time of one ``docker exec ... python -m bot healthcheck`` (the exec probe);
- the default ``CPU_WORKERS`` inside ``--cpus=0.5``, ``--cpuset-cpus=0`` and an unlimited container;
- a Constructo game: alice challenges bob, bob accepts, moves through the board's select menus;
- ``docker stop`` while idle: exit code and seconds; the container started again, the game goes on;
- ``docker stop`` mid-game (SIGTERM right after a move is clicked): exit code, seconds, whether the move was
  answered; started again, the game goes on from the stored state.

``--database-url`` runs it all on PostgreSQL instead of the SQLite file in ``/data``. ``--local PYTHON`` runs
``PYTHON -m bot`` as a plain process instead of the image (e.g. the wheel installed into a fresh venv; the stops
are then SIGTERM) and skips the Docker-only checks. Exit status 0 only if every check passed. Not a test:
``bash tools/docker_check.sh`` runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from devserver import DevServer
from devserver.models import Message

TOKEN = "docker-check-token"
UID = 10001
FAILURES: list[str] = []


def report(name: str, value: Any, ok: bool = True) -> None:
    print(f"  {'ok  ' if ok else 'FAIL'} {name}: {value}", flush=True)
    if not ok:
        FAILURES.append(name)


async def sh(*args: str, check: bool = True, cwd: Path | None = None) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.PIPE, cwd=cwd, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await proc.communicate()
    text = out.decode(errors="replace").strip()
    if check and proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} -> {proc.returncode}: {text[-2000:]}")
    return proc.returncode or 0, text


async def health(name: str) -> str:
    return (await sh("docker", "inspect", "-f", "{{if .State.Health}}{{.State.Health.Status}}{{end}}", name))[1]


async def wait_for(predicate: Any, timeout: float, what: str) -> float:  # noqa: ASYNC109
    t0 = time.monotonic()
    while not await predicate():
        if time.monotonic() - t0 > timeout:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.5)
    return time.monotonic() - t0


def place_selects(board: Message) -> list[dict[str, Any]]:
    return [c for c in board.buttons() if c.get("type") == 3 and str(c.get("custom_id", "")).startswith("cx:pl:")]


async def move(server: DevServer, board: Message, *, wait: bool = True) -> tuple[Message, Any]:
    """One placement by whoever is to move (the other player is refused privately and nothing changes)."""
    for name in ("alice", "bob"):
        sels = place_selects(board)
        assert sels, f"no placement select on the board: {board.content[:200]}"
        sel = sels[0]
        res = await server.as_user(name).select(board, sel["options"][0]["value"], custom_id=sel["custom_id"])
        if not wait:
            return board, res
        await res.wait(30)
        assert not res.failed, f"interaction failed: {res!r}"
        if not res.ephemeral:
            assert res.message is not None
            return res.message, res
    raise AssertionError("neither player could place")


async def latest_board(server: DevServer, channel_id: int) -> Message:
    boards = [m for m in server.messages("games", visible_to=None) if place_selects(m)]
    assert boards, "no board with placement selects in #games"
    return boards[-1]


LOCAL: dict[str, Any] = {}  # --local: the python, env, cwd and the running process


def stop_word() -> str:
    return "SIGTERM" if LOCAL else "docker stop"


async def start_local() -> None:
    log = open(LOCAL["cwd"] / "bot.log", "ab")  # noqa: ASYNC230 (a local file; the child writes it)
    LOCAL["proc"] = await asyncio.create_subprocess_exec(
        LOCAL["python"], "-m", "bot", cwd=LOCAL["cwd"], env=LOCAL["env"], stdout=log, stderr=log
    )


async def stop_timed(name: str) -> tuple[int, float]:
    t0 = time.monotonic()
    if LOCAL:
        LOCAL["proc"].terminate()
        code = await asyncio.wait_for(LOCAL["proc"].wait(), 30)
        return code, time.monotonic() - t0
    running = (await sh("docker", "inspect", "-f", "{{.State.Running}}", name))[1]
    assert running == "true", f"the container was not running before the stop: {running}"
    await sh("docker", "stop", "-t", "10", name)
    seconds = time.monotonic() - t0
    code = int((await sh("docker", "inspect", "-f", "{{.State.ExitCode}}", name))[1])
    _, logs = await sh("docker", "logs", "--tail", "4", name)
    closed = [line for line in logs.splitlines() if "storage closed" in line or "SIGTERM" in line]
    print("       " + "\n       ".join(closed[-2:]), flush=True)
    return code, seconds


async def reconnect(server: DevServer, name: str) -> float:
    before = server.identify_count
    t0 = time.monotonic()
    if LOCAL:
        await start_local()
    else:
        await sh("docker", "start", name)
    await server.wait_until(
        lambda: server.identify_count > before and server.bot_connected, 120, "the restarted container's IDENTIFY"
    )
    print(f"       IDENTIFY #{server.identify_count}", flush=True)
    return time.monotonic() - t0


async def main(args: argparse.Namespace) -> int:
    image, name = args.image, args.name
    work = Path(tempfile.mkdtemp(prefix="docker_check_play."))
    data = work / "data"
    data.mkdir()
    if not args.local:
        os.chown(data, UID, UID)  # README: a bind mount must be writable by the image's uid
    server = await DevServer(token=TOKEN).start()
    print(f"devserver on {server.base_url}; data {data}", flush=True)
    env_file = work / "bot.env"
    env = {**server.env(TOKEN), "LOG_LEVEL": "INFO"}
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    env_file.write_text("".join(f"{k}={v}\n" for k, v in env.items()))
    if args.local:
        keep = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD"))}
        LOCAL.update(python=args.local, cwd=work, env={**keep, **env, "DATA_DIR": str(data)})
    else:
        await sh("docker", "rm", "-f", name, check=False)
    try:
        t0 = time.monotonic()
        if args.local:
            await start_local()
        else:
            await sh(
                "docker",
                "run",
                "-d",
                "--name",
                name,
                "--network",
                "host",
                "--env-file",
                str(env_file),
                "-v",
                f"{data}:/data",
                "--health-interval",
                "5s",
                "--health-start-period",
                "60s",
                "--health-retries",
                "3",
                image,
            )
        await server.wait_for_bot(timeout=180, synced=True)
        report("start to commands synced (s)", round(time.monotonic() - t0, 1))
        if args.local:
            where = (await sh(args.local, "-c", "import bot; print(bot.__file__)", cwd=work))[1]
            report("bot package used", where, "site-packages" in where)
        else:
            await docker_only_checks(name, image, work, env_file)

        alice, bob = server.as_user("alice"), server.as_user("bob")
        res = await (await alice.slash("constructo challenge", opponent="bob")).wait(30)
        assert not res.failed and not res.ephemeral and res.message is not None, res
        res = await (await bob.click(res.message, "Accept")).wait(30, followups=1)
        assert not res.failed, res
        board = res.followups[-1]
        moves = 0
        for _ in range(4):
            board, _res = await move(server, board)
            moves += 1
        report("Constructo moves played (alice vs bob, board selects)", moves, True)
        await asyncio.sleep(2)  # idle: nothing in flight
        code, seconds = await stop_timed(name)
        report(f"{stop_word()}, idle: exit code, seconds", f"{code}, {seconds:.1f}", code == 0 and seconds < 10)
        report("restart to reconnected (s)", round(await reconnect(server, name), 1))
        board = await latest_board(server, 0)
        board, _res = await move(server, board)
        report("move after the restart", "answered, game goes on", True)

        board, pending = await move(server, board, wait=False)
        stop = asyncio.create_task(stop_timed(name))
        await pending.wait(30)
        code, seconds = await stop
        answered = not pending.failed and pending.response_type is not None
        report(f"{stop_word()} mid-move: exit code, seconds", f"{code}, {seconds:.1f}", code == 0 and seconds < 10)
        report(
            "the move in flight during the stop", "answered" if answered else f"not answered ({pending!r})", answered
        )
        await reconnect(server, name)
        board = await latest_board(server, 0)
        board, _res = await move(server, board)
        report("move after the mid-move stop", "answered, game goes on", True)
        code, seconds = await stop_timed(name)
        report(f"final {stop_word()}: exit code, seconds", f"{code}, {seconds:.1f}", code == 0)
        report("Discord rule violations seen by the devserver", len(server.violations), not server.violations)
        if not args.database_url:
            files = sorted(p.name for p in data.iterdir())
            report("files in the bind mount", ", ".join(files), "tablebot.sqlite3" in files)
    except Exception as err:  # a check that could not run is a failure, with the container's log
        report("run", f"{type(err).__name__}: {err}", False)
        if LOCAL:
            print((work / "bot.log").read_text(errors="replace")[-3000:])
        else:
            print((await sh("docker", "logs", "--tail", "40", name, check=False))[1])
    finally:
        if LOCAL:
            proc = LOCAL.get("proc")
            if proc is not None and proc.returncode is None:
                proc.terminate()
                await proc.wait()
        else:
            await sh("docker", "rm", "-f", name, check=False)
        await server.stop()
    print(json.dumps({"failures": FAILURES}))
    return 1 if FAILURES else 0


async def docker_only_checks(name: str, image: str, work: Path, env_file: Path) -> None:
    t0 = time.monotonic()
    healthy = await wait_for(lambda: _is(name, "healthy"), 120, "health status healthy")
    report("then to Docker health 'healthy' (s)", round(time.monotonic() - t0, 1), healthy >= 0)
    p0 = time.monotonic()
    code, text = await sh("docker", "exec", name, "python", "-m", "bot", "healthcheck", check=False)
    report(
        "exec probe `python -m bot healthcheck`", f"exit {code} in {time.monotonic() - p0:.2f} s ({text})", code == 0
    )
    cpu = "from bot.config import default_cpu_workers as d; print(d())"
    _, inside = await sh("docker", "exec", name, "python", "-c", cpu)
    _, half = await sh("docker", "run", "--rm", "--network", "none", "--cpus", "0.5", image, "python", "-c", cpu)
    _, one = await sh("docker", "run", "--rm", "--network", "none", "--cpuset-cpus", "0", image, "python", "-c", cpu)
    report(
        "default CPU_WORKERS (unlimited / --cpus=0.5 / --cpuset-cpus=0)",
        f"{inside} / {half} / {one}",
        half == "1" and one == "1" and int(inside) == len(os.sched_getaffinity(0)),
    )
    _, user = await sh("docker", "exec", name, "id", "-u")
    report("container user", user, user == str(UID))
    rootdir = work / "root-owned"
    rootdir.mkdir()
    code, text = await sh(
        "docker",
        "run",
        "--rm",
        "--network",
        "host",
        "--env-file",
        str(env_file),
        "-e",
        "DATABASE_URL=",
        "-e",
        "DISCORD_TOKEN=wrong-token",
        "-v",
        f"{rootdir}:/data",
        image,
        check=False,
    )
    report(
        "bind mount not writable by uid 10001: exit code, message", f"{code}, {text.splitlines()[-1][:160]}", code == 5
    )


async def _is(name: str, status: str) -> bool:
    return await health(name) == status


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image", default="tablebot:check")
    parser.add_argument("--name", default="tablebot-check")
    parser.add_argument("--database-url", default="")
    parser.add_argument("--local", default="", help="run PYTHON -m bot instead of the image")
    raise SystemExit(asyncio.run(main(parser.parse_args())))
