#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on loopback for the test suite and print
# its SQLAlchemy URL. Installs Debian's postgresql package when it is missing.
set -euo pipefail
PORT="${REFEREE_PG_PORT:-54329}"
DIR="${REFEREE_PG_DIR:-/tmp/referee-pg}"
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi
BIN=$(dirname "$(ls /usr/lib/postgresql/*/bin/pg_ctl | sort -V | tail -n 1)")
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ -f "$DIR/postmaster.pid" ] && as_pg "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
  :
else
  rm -rf "$DIR"; mkdir -p "$DIR"
  [ "$(id -u)" = 0 ] && chown postgres "$DIR"
  as_pg "$BIN/initdb" -D "$DIR" -A trust -U postgres >/dev/null
  as_pg "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w \
    -o "-h 127.0.0.1 -p $PORT -k /tmp" start >/dev/null
  psql -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE ROLE referee LOGIN PASSWORD 'referee'" >/dev/null
  psql -h 127.0.0.1 -p "$PORT" -U postgres -qc "CREATE DATABASE referee_test OWNER referee" >/dev/null
fi
echo "postgresql+psycopg://referee:referee@127.0.0.1:$PORT/referee_test"
