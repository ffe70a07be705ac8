#!/usr/bin/env bash
# Build and check the Docker image on this machine (issue 23). NOT part of .ci/run: it takes 10+ minutes.
#
#   sudo bash tools/docker_check.sh            # everything: daemon, stand-in base, build, run, stop, compose
#   bash tools/docker_check.sh --base-only     # only the daemon and the stand-in base image
#
# What it does, in order (each step prints its figures; the last lines are a summary):
#  1. installs docker.io (apt-get) if `dockerd` is missing, and starts
#     `dockerd --storage-driver=vfs --iptables=false --bridge=none` if no daemon answers;
#  2. no image registry is reachable here, so the Dockerfile's FROM image (python:3.11-slim) is a LOCAL
#     STAND-IN when absent: `debootstrap --variant=minbase bookworm` + Debian's python3, python3-venv,
#     python3-dev (the official image ships the headers too) and python-is-python3, `docker import`ed under
#     the FROM name. It says so in its output. Debian's Python is 3.11.2 (the official image: 3.11.x);
#  3. builds the image (`docker build --network host`: pip and apt reach their registries through the host),
#     twice with a one-line source edit in between to show the dependency layers are cached;
#  4. starts `python -m devserver --no-bot --port N` on the host and the image with `--network host`,
#     waits for the bot's commands, plays a Nim game through the devserver's client API (tools/_docker_play.py),
#     reads the container's health, then measures `docker stop` (exit code, seconds) idle and mid-game;
#  5. `docker compose` with PostgreSQL is tried if a compose plugin exists; else the image is run against the
#     host's PostgreSQL (127.0.0.1:5432, trust auth, database `test`) as the compose file would run it.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
IMAGE=${IMAGE:-tablebot:check}
BASE=$(awk '/^FROM /{print $2; exit}' Dockerfile)
WORK=$(mktemp -d /tmp/docker_check.XXXXXX)
PY=${PYTHON:-$REPO/.venv/bin/python}
say() { printf '[docker_check %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
SUMMARY=()
note() { SUMMARY+=("$*"); say "$*"; }

# --- 1. the daemon -------------------------------------------------------------------------------------------
if ! command -v dockerd >/dev/null; then
    say "installing docker.io (apt-get)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null || exit 1
fi
if ! docker info >/dev/null 2>&1; then
    say "starting dockerd --storage-driver=vfs --iptables=false --bridge=none (log: /var/log/dockerd-check.log)"
    nohup dockerd --storage-driver=vfs --iptables=false --bridge=none >/var/log/dockerd-check.log 2>&1 &
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
    docker info >/dev/null 2>&1 || { say "dockerd did not start: see /var/log/dockerd-check.log"; exit 1; }
fi
say "docker $(docker version --format '{{.Server.Version}}') storage driver $(docker info --format '{{.Driver}}')"

# --- 2. the stand-in base image ------------------------------------------------------------------------------
if ! docker image inspect "$BASE" >/dev/null 2>&1; then
    note "NOTE: $BASE cannot be pulled here (no image registry reachable): building a LOCAL STAND-IN for it" \
         "from debootstrap bookworm + Debian's python3 (this is not the official image)"
    command -v debootstrap >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
    ROOTFS=$WORK/rootfs
    t0=$SECONDS
    debootstrap --variant=minbase --include=python3,python3-venv,python3-dev,python-is-python3,ca-certificates \
        bookworm "$ROOTFS" http://deb.debian.org/debian >"$WORK/debootstrap.log" 2>&1 \
        || { tail -20 "$WORK/debootstrap.log"; exit 1; }
    rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/archives/*.deb
    tar -C "$ROOTFS" -c . | docker import --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' - "$BASE" >/dev/null
    rm -rf "$ROOTFS"
    note "stand-in $BASE built in $((SECONDS - t0)) s: $(docker run --rm "$BASE" python --version 2>&1)"
fi
[ "${1:-}" = "--base-only" ] && exit 0
