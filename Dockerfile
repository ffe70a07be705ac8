# Self-hosting image: docker build -t tablebot . && docker run -e DISCORD_TOKEN=... -v tablebot:/data tablebot
# Same entry point as the README's run command: python -m bot.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATA_DIR=/data \
    LOG_LEVEL=INFO

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
# Editable install: the engines read their data files (layouts, deck, fonts) from /app/data.
RUN python -m pip install -e . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin tablebot \
    && mkdir -p /data && chown tablebot /data

USER tablebot
VOLUME ["/data"]
# The bot touches $DATA_DIR/heartbeat every 30 s while connected to Discord.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "healthcheck"]
STOPSIGNAL SIGINT
CMD ["python", "-m", "bot"]
