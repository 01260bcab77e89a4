#!/usr/bin/env bash
# Starts the local PostgreSQL server the adapter tests use, and prints its URL.
# Idempotent: installs the server only when missing, runs initdb only when there
# is no cluster yet, starts it only when it is not running. The server listens on
# 127.0.0.1:5433 only (5433 so it never collides with a system cluster on 5432),
# trusts local connections and runs with fsync=off: it holds throwaway test data.
#
#   export DATABASE_URL="$(test/adapters/support/start-postgres.sh)"
#
# Environment: PGTEST_DIR (default /tmp/gatehouse-postgres), PGTEST_PORT (default 5433).
set -euo pipefail

dir="${PGTEST_DIR:-/tmp/gatehouse-postgres}"
port="${PGTEST_PORT:-5433}"

# Everything but the URL goes to stderr, so `$(start-postgres.sh)` captures only the URL.
log() { echo "start-postgres: $*" >&2; }

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(bindir)" ] || ! [ -x "$(bindir)/initdb" ]; then
  log "installing postgresql"
  $sudo apt-get install -y postgresql >&2 \
    || { $sudo apt-get update >&2 && $sudo apt-get install -y postgresql >&2; }
fi
bin="$(bindir)"

# initdb and postgres refuse to run as root: run them as the postgres user.
as_postgres() {
  if [ "$(id -un)" = postgres ]; then bash -c "$1"
  elif [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/bash -c "$1"
  else sudo -u postgres bash -c "$1"
  fi
}

if ! [ -d "$dir" ]; then
  $sudo mkdir -p "$dir"
  $sudo chown postgres "$dir"
fi

if ! [ -f "$dir/data/PG_VERSION" ]; then
  log "initdb in $dir/data"
  as_postgres "'$bin/initdb' -D '$dir/data' -U postgres --auth=trust" >&2
fi

if as_postgres "'$bin/pg_ctl' -D '$dir/data' status" >/dev/null 2>&1; then
  log "already running"
else
  log "starting on 127.0.0.1:$port"
  as_postgres "'$bin/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off\" start" >&2
fi

echo "postgres://postgres@127.0.0.1:$port/postgres"
