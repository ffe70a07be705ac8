# Self-hosting image: README "Run the bot" (docker run) and docker-compose.yml (PostgreSQL, shards).
# Two stages. `build`: the locked dependencies first (requirements.lock, hashes checked), then the bot's own
# wheel from its sources, with gcc for the Constructo AI's optional C search core; a source edit re-runs only
# the source steps, a lock change the dependency step. Few steps: each costs a full copy on some storage drivers. The runtime stage copies the finished venv only (no
# compiler, no sources, no pip cache). Regenerate the lock: README "Operating the bot" > "The image".
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/tablebot
COPY requirements.lock /tmp/requirements.lock
# Optional extra CA certificates (PEM text) for a TLS-intercepting proxy between this build and PyPI: trusted by
# pip in this stage only, never copied into the runtime image (tools/docker_check.sh passes the host's own).
ARG EXTRA_CA_CERTS=""
RUN printf '%s\n' "$EXTRA_CA_CERTS" | cat /etc/ssl/certs/ca-certificates.crt - > /tmp/ca.pem \
    && PIP_CERT=/tmp/ca.pem /opt/tablebot/bin/pip install --no-deps --require-hashes -r /tmp/requirements.lock \
    && rm /tmp/ca.pem

# The sources: .dockerignore lets in only pyproject.toml, setup.py, README.md, requirements.lock, engine/,
# render/ and bot/ (no tests, host builds, venvs or .env). A regular (non-editable) install: the data files
# (layouts, deck, fonts) travel inside the engine package.
COPY . /src
RUN cd /src && /opt/tablebot/bin/pip install --no-deps --no-index --no-build-isolation . \
    && cd / && /opt/tablebot/bin/python -c "import engine.constructo.core as c; assert c.CORE == 'c', c.CORE" \
    && /opt/tablebot/bin/python -m compileall -q /opt/tablebot

FROM python:3.11-slim

ENV PATH=/opt/tablebot/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATA_DIR=/data \
    LOG_LEVEL=INFO \
    DRAIN_TIMEOUT=8
# The bot runs as uid:gid 10001:10001 (numeric, so a runtime never has to look the name up). A bind mount on
# /data must be writable by that uid: `chown 10001:10001 <dir>` on the host.
RUN groupadd --system --gid 10001 tablebot \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin tablebot \
    && mkdir -p /data && chown 10001:10001 /data
USER 10001:10001
WORKDIR /data
# SQLite database (default), its guard and lock files, and the heartbeat. Back it up with
# `docker exec <container> python -m bot backup /data/backup.sqlite3` (README "Operating the bot").
VOLUME ["/data"]
# The bot touches $DATA_DIR/heartbeat every 30 s while connected to Discord.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "healthcheck"]
# `docker stop` sends SIGTERM (the default STOPSIGNAL): the bot drains in-flight interactions (DRAIN_TIMEOUT s),
# closes and checkpoints storage, exits 0. Keep docker's stop timeout (10 s default) above DRAIN_TIMEOUT.
CMD ["python", "-m", "bot"]
# Last, so that a source edit re-runs only this step of the runtime stage.
COPY --from=build /opt/tablebot /opt/tablebot
