#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server, then stops it (also on failure).
#
#   scripts/with-postgres.sh .venv/bin/pytest
#
# The cluster lives in a temporary directory, listens on a free port of 127.0.0.1 only, and
# trusts local connections. Its URL is exported as FIVEDICE_TEST_POSTGRES_URL. Root cannot
# run postgres, so as root the server runs as the `postgres` user (created by the package).
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARG...]" >&2
  exit 2
fi

PGBIN=""
for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then PGBIN="$dir"; break; fi
done
if [ -z "$PGBIN" ] && command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
  PGBIN="$(dirname "$(command -v initdb)")"
fi
if [ -z "$PGBIN" ]; then
  echo "with-postgres: PostgreSQL is not installed (run scripts/system-deps.sh)" >&2
  exit 1
fi

as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  if command -v runuser >/dev/null; then as_pg=(runuser -u postgres --); else as_pg=(su postgres -s /bin/sh -c); fi
fi
run_pg() {
  if [ "${as_pg[0]:-}" = "su" ]; then "${as_pg[@]}" "$(printf '%q ' "$@")"; else "${as_pg[@]}" "$@"; fi
}

# As root the server runs as `postgres`, which must reach the directory: use /tmp then.
base="${TMPDIR:-/tmp}"; [ "$(id -u)" -eq 0 ] && base=/tmp
tmp="$(mktemp -d "$base/fivedice-pg.XXXXXX")"
chmod 755 "$tmp"
[ "$(id -u)" -eq 0 ] && chown postgres: "$tmp"

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

stop() {
  run_pg "$PGBIN/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap stop EXIT
trap 'exit 130' INT TERM

run_pg "$PGBIN/initdb" -D "$tmp/data" -U postgres --auth=trust -E UTF8 --no-sync >"$tmp/initdb.log" 2>&1 \
  || { cat "$tmp/initdb.log" >&2; exit 1; }
# fsync off: the cluster is thrown away, and the tests need not wait for the disk.
run_pg "$PGBIN/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 60 \
  -o "-p $port -k $tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null || { cat "$tmp/server.log" >&2; exit 1; }

export FIVEDICE_TEST_POSTGRES_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$PGBIN/pg_ctl" --version | awk '{print $3}') on port $port" >&2
"$@"
