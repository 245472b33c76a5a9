#!/usr/bin/env bash
# Everything the test suite needs on a fresh Debian/Ubuntu machine: the package with its test
# extras, and a running PostgreSQL with a role for the current user that may create databases.
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

bash scripts/install.sh test

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h 2>/dev/null | grep -q .; then
  as_root pg_createcluster "$version" main >/dev/null
fi
cluster=$(pg_lsclusters -h | head -n 1)
read -r cl_version cl_name _port cl_status _rest <<<"$cluster"
if [ "$cl_status" != "online" ]; then
  as_root pg_ctlcluster "$cl_version" "$cl_name" start
fi
me=$(id -un)
as_root su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='$me'\"" | grep -q 1 \
  || as_root su postgres -c "psql -qc 'CREATE ROLE \"$me\" LOGIN CREATEDB'"
echo "setup-tests: PostgreSQL $cl_version/$cl_name online; role $me may create databases"
