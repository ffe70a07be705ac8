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

# --- 3. build (twice: the second after a one-line source edit, to show the cached dependency layers) ---------
CTX=$WORK/context
mkdir -p "$CTX"
git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$CTX"
CA_ARGS=()
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    # a TLS-intercepting proxy between this machine and PyPI: let the build stage's pip trust the host's local CAs
    CA_ARGS=(--build-arg "EXTRA_CA_CERTS=$(cat /usr/local/share/ca-certificates/*.crt)")
    say "passing the host's local CA certificates to the build stage's pip (EXTRA_CA_CERTS)"
fi
build() {  # build <log>: prints seconds
    local t0=$SECONDS
    (cd "$CTX" && docker build --network host "${CA_ARGS[@]}" -t "$IMAGE" . >"$1" 2>&1) || { tail -30 "$1"; exit 1; }
    echo $((SECONDS - t0))
}
say "building $IMAGE (log $WORK/build1.log) ..."
B1=$(build "$WORK/build1.log")
[[ "$B1" =~ ^[0-9]+$ ]] || { echo "$B1"; say "the build failed"; exit 1; }
note "build: $B1 s ($(grep -c 'Using cache' "$WORK/build1.log") of $(grep -c '^Step ' "$WORK/build1.log") steps from cache)"
echo "# docker_check: a one-line edit" >> "$CTX/bot/__init__.py"
B2=$(build "$WORK/build2.log")
[[ "$B2" =~ ^[0-9]+$ ]] || { echo "$B2"; say "the rebuild failed"; exit 1; }
CACHED=$(grep -c 'Using cache' "$WORK/build2.log"); STEPS=$(grep -c '^Step ' "$WORK/build2.log")
FIRST_RUN=$(grep -B1 -m1 'Running in' "$WORK/build2.log" | head -1 | cut -c1-60)
note "rebuild after a source edit: $B2 s ($CACHED of $STEPS steps from cache; first step run: ${FIRST_RUN:-none})"
SIZE=$(docker image inspect -f '{{.Size}}' "$IMAGE")
note "image size: $((SIZE / 1000000)) MB ($IMAGE; base $BASE: $(( $(docker image inspect -f '{{.Size}}' "$BASE") / 1000000 )) MB)"
note "image user: $(docker image inspect -f '{{.Config.User}}' "$IMAGE")"
LOCKED=$(grep -E '^[a-z0-9._-]+==' "$CTX/requirements.lock" | sed 's/ .*//' | tr 'A-Z_.' 'a-z--' | sort)
INSTALLED=$(docker run --rm --network none "$IMAGE" python -m pip list --format=freeze 2>/dev/null | tr 'A-Z_.' 'a-z--' \
            | grep -v '^pip==\|^tablebot==' | sort)
if [ "$LOCKED" = "$INSTALLED" ]; then note "installed packages == requirements.lock pins ($(echo "$LOCKED" | wc -l) packages)"
else note "FAIL: installed packages differ from requirements.lock:"; diff <(echo "$LOCKED") <(echo "$INSTALLED"); fi
LEAKED=$(docker run --rm --network none "$IMAGE" sh -c 'ls /opt/tablebot/lib/python3*/site-packages | grep -c "^devserver$\|^tests$"; \
         find / -xdev -name "ca.pem" -path "/tmp/*" 2>/dev/null | wc -l; command -v gcc || true')
note "devserver/tests in the image, build CA left, gcc in the runtime image: $(echo $LEAKED)"

# --- 4. run against the devserver: health, CPU default, a game, docker stop idle and mid-move (SQLite) --------
say "running the image against the local devserver (SQLite in a bind mount)"
"$PY" tools/docker_check_play.py --image "$IMAGE" | tee "$WORK/play-sqlite.log"
PLAY1=${PIPESTATUS[0]}

# --- 5. PostgreSQL ------------------------------------------------------------------------------------------
PLAY2=skipped
if command -v psql >/dev/null && psql -h 127.0.0.1 -U postgres -d postgres -qc 'select 1' >/dev/null 2>&1; then
    DB=tablebot_docker_check
    psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" >/dev/null
    say "the same on the host's PostgreSQL (database $DB, as docker-compose.yml runs the bot: DATABASE_URL + PGPASSWORD)"
    "$PY" tools/docker_check_play.py --image "$IMAGE" --database-url "postgresql://postgres@127.0.0.1:5432/$DB" \
        | tee "$WORK/play-postgres.log"
    PLAY2=${PIPESTATUS[0]}
    psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS $DB" >/dev/null
else
    note "PostgreSQL at 127.0.0.1:5432 not reachable: the PostgreSQL run is skipped"
fi
if docker compose version >/dev/null 2>&1; then COMPOSE=(docker compose)
elif command -v docker-compose >/dev/null; then COMPOSE=(docker-compose)
else COMPOSE=(); fi
if [ ${#COMPOSE[@]} -gt 0 ]; then
    CDIR=$WORK/compose; mkdir -p "$CDIR"; cp docker-compose.yml docker-compose.shards.yml "$CDIR/"
    NOENV=$(cd "$CDIR" && "${COMPOSE[@]}" config 2>&1 >/dev/null | tail -1)
    note "compose without .env refuses to start: ${NOENV:0:160}"
    printf 'DISCORD_TOKEN=x\nPOSTGRES_PASSWORD=p@ss:w/rd#%%1\n' > "$CDIR/.env"
    ONE=$(cd "$CDIR" && "${COMPOSE[@]}" config 2>&1 | grep -c 'PGPASSWORD: p@ss:w/rd#%1')
    TWO=$(cd "$CDIR" && "${COMPOSE[@]}" -f docker-compose.yml -f docker-compose.shards.yml config 2>&1 \
          | grep "SHARD_" | tr -d " '" | sort | uniq -c | tr -s ' \n' ' ')
    note "compose config ok (${COMPOSE[*]}): password passed verbatim as PGPASSWORD: $ONE service(s); shards: $TWO"
    note "compose up is not run here: the postgres:16-alpine image cannot be pulled (no registry); the bot image" \
         "was run on the host's PostgreSQL instead, with the environment the compose file gives it"
fi

echo
echo "=== docker_check summary ($(date -u +%F) load $(cut -d' ' -f1-3 /proc/loadavg)) ==="
printf '%s\n' "${SUMMARY[@]}"
grep -h '^  \(ok\|FAIL\)' "$WORK/play-sqlite.log" | sed 's/^/sqlite: /'
[ -f "$WORK/play-postgres.log" ] && grep -h '^  \(ok\|FAIL\)' "$WORK/play-postgres.log" | sed 's/^/postgres: /'
echo "play runs: sqlite exit $PLAY1, postgres exit $PLAY2"
[ "$PLAY1" = 0 ] && { [ "$PLAY2" = 0 ] || [ "$PLAY2" = skipped ]; }
