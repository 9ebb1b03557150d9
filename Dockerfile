# Table Referee: the app under gunicorn, as a non-root user. Settings come from the environment
# (.env.example); compose.yaml starts it with PostgreSQL, migrated once before the app servers.
#   docker build -t table-referee .
#   docker run -p 8000:8000 -e SECRET_KEY=… -v referee-instance:/app/instance table-referee
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so that a change to the code does not reinstall them. gunicorn is pinned
# as in requirements-dev.txt.
COPY requirements.txt ./
RUN pip install -r requirements.txt gunicorn==27.0.1

# The app: everything .dockerignore does not leave out (tests, benchmarks, docs, local state),
# so that a folder added later comes along (the translation catalogs are in referee/).
COPY . .

# The instance folder holds the SQLite database and the generated secret key when neither
# DATABASE_URL nor SECRET_KEY is set: the only place the app writes.
RUN useradd --system --uid 10001 --home-dir /app referee \
    && mkdir -p /app/instance \
    && chown referee /app/instance
USER referee
VOLUME ["/app/instance"]

# gunicorn reads gunicorn.conf.py from /app (2 gevent workers: a page's poll waits for its table
# to change) and GUNICORN_CMD_ARGS on top of it.
ENV GUNICORN_CMD_ARGS="--bind 0.0.0.0:8000 --access-logfile -"
EXPOSE 8000
CMD ["gunicorn", "app:create_app()"]
