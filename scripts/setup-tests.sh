#!/usr/bin/env bash
# Everything the test suite needs on a fresh Debian/Ubuntu machine: the package with its test
# extras, and a PostgreSQL with a role for the current user that may create databases. A server the
# PG* variables (or libpq's defaults) already reach is used as it is; otherwise Debian's is set up.
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
say() { printf 'setup-tests: %s\n' "$*"; }

bash scripts/install.sh test

# Can we already create databases on the server libpq reaches (PGHOST/PGPORT/PGUSER/PGPASSWORD)?
usable_server() {
  .venv/bin/python - <<'PY' 2>/dev/null
import psycopg2
with psycopg2.connect(dbname="postgres", connect_timeout=3) as conn, conn.cursor() as cur:
    cur.execute("SELECT rolcreatedb OR rolsuper, current_user, version() FROM pg_roles WHERE rolname = current_user")
    ok, user, version = cur.fetchone()
    print(f"{user} on {version.split(',')[0]}")
    raise SystemExit(0 if ok else 1)
PY
}
if found=$(usable_server); then
  say "using the PostgreSQL server already running: role $found may create databases"
  exit 0
fi

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  say "installing Debian's postgresql with apt"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h 2>/dev/null | grep -q .; then
  as_root pg_createcluster "$version" main >/dev/null
fi
cluster=$(pg_lsclusters -h | head -n 1)
read -r cl_version cl_name cl_port cl_status _rest <<<"$cluster"
if [ "$cl_status" != "online" ]; then
  if ! as_root pg_ctlcluster "$cl_version" "$cl_name" start 2>/tmp/setup-tests-pg.err; then
    say "could not start PostgreSQL $cl_version/$cl_name on port $cl_port: $(tail -n 1 /tmp/setup-tests-pg.err)"
    say "If another PostgreSQL already listens there, point the tests at it and run this again:"
    say "  export PGHOST=localhost PGPORT=$cl_port PGUSER=<a role with CREATEDB> PGPASSWORD=<its password>"
    say "or stop that server (or free port $cl_port) so Debian's cluster can start."
    exit 1
  fi
fi
me=$(id -un)
as_root su postgres -c "psql -p $cl_port -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='$me'\"" | grep -q 1 \
  || as_root su postgres -c "psql -p $cl_port -qc 'CREATE ROLE \"$me\" LOGIN CREATEDB'"
say "PostgreSQL $cl_version/$cl_name online on port $cl_port; role $me may create databases"
# The tests connect the way usable_server does: if that still fails they would all be skipped (or
# fail in CI) after minutes of work, so say it now and stop.
if ! found=$(usable_server); then
  say "ERROR: the tests would not reach this cluster with the current PG* variables (PGHOST=${PGHOST:-} PGPORT=${PGPORT:-})."
  [ "$cl_port" != "${PGPORT:-5432}" ] && say "It listens on port $cl_port: export PGPORT=$cl_port and run this again."
  exit 1
fi
say "the tests will connect as $found"
