FROM python:3.11-slim

WORKDIR /srv/emara
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 EMARA_DATA_DIR=/data

COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install --no-cache-dir .
COPY alembic.ini ./
COPY migrations ./migrations
COPY static ./static

EXPOSE 8000
# Migrate, then serve (the compose file says the same).
CMD ["sh", "-c", "alembic upgrade head && uvicorn app.main:app --host 0.0.0.0 --port 8000 --ws-per-message-deflate false"]
