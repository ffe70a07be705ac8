# Self-hosting image: docker build -t tablebot . && docker run -e DISCORD_TOKEN=... -v tablebot:/data tablebot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATA_DIR=/data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY data ./data
RUN python -m pip install -e . \
    && useradd --system --uid 10001 --home-dir /app tablebot \
    && mkdir -p /data && chown tablebot /data

USER tablebot
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
