#!/usr/bin/env bash
# Install assista-odoo into ./.venv with the exact, known-good dependency set (constraints.txt).
# Usage: bash scripts/install.sh [EXTRAS]   e.g. "test"
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
say() { printf 'install: %s\n' "$*"; }

if [ ! -x .venv/bin/python ]; then
  say "creating .venv with $(python3 --version 2>&1)"
  if ! python3 -m venv .venv 2>/dev/null; then
    # Debian/Ubuntu ship venv separately.
    rm -rf .venv
    say "python3-venv is missing: installing it with apt"
    as_root apt-get update -qq
    as_root apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv .venv
  fi
fi
spec="."
[ -n "$extras" ] && spec=".[${extras}]"
pins=$(grep -cvE '^\s*(#|$)' constraints.txt)
say "installing assista-odoo${extras:+ with [$extras]} and its $pins pinned packages (about 2 minutes the first time)..."
.venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt -e "$spec"
say "done: $(.venv/bin/assista-odoo --version) at .venv/bin/assista-odoo"
