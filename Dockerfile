# Self-hosting image: docker build -t tablebot . && docker run -e DISCORD_TOKEN=... -v tablebot:/data tablebot
# Same entry point as the README's run command: python -m bot. With PostgreSQL and shards: docker-compose.yml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATA_DIR=/data \
    LOG_LEVEL=INFO \
    DRAIN_TIMEOUT=8

WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
# Editable install: the engines read their data files (layouts, deck, fonts) from /app/data.
# asyncpg and the other compiled dependencies come as manylinux wheels; gcc is needed only for the
# Constructo AI's optional C search core (setup.py), and is removed again in the same layer.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && python -m pip install -e . \
    && python -c "import engine.constructo.core as c; assert c.CORE == 'c', c.CORE" \
    && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin tablebot \
    && mkdir -p /data && chown tablebot /data

USER tablebot
# SQLite database (default), its guard and lock files, and the heartbeat. Back it up with
# `docker exec <container> python -m bot backup /data/backup.sqlite3` (README "Operating the bot").
VOLUME ["/data"]
# The bot touches $DATA_DIR/heartbeat every 30 s while connected to Discord.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "healthcheck"]
# `docker stop` sends SIGTERM: the bot drains in-flight interactions (DRAIN_TIMEOUT s), closes and
# checkpoints storage, exits 0. Keep docker's stop timeout (10 s default) above DRAIN_TIMEOUT.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
