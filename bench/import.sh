#!/usr/bin/env bash
# `authsh user import` of 20,000 accounts into each backend of the emulator, beside the official
# admin SDKs doing the same work on the same emulator, as the project's targets state them:
#   Supabase: authsh (default --jobs) vs supabase-auth admin.create_user in a loop (target: 6x faster)
#   Firebase: authsh (batchCreate, 1,000 a call) vs firebase-admin import_users in batches of 1,000,
#             timed around its calls alone (target: 1.5x faster)
# The accounts carry bcrypt hashes (cost 4), so no side hashes anything on the way in. Exits 1 when
# a target is missed.
# Usage: bench/import.sh                  (builds release first)
#        AUTHSH_BIN=.build/debug/authsh COUNT=20000 bench/import.sh   (a given binary is not rebuilt)
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-20000}
if [ -z "${AUTHSH_BIN:-}" ] && [ "${SKIP_BUILD:-0}" != 1 ]; then
  swift build -c release --product authsh
fi
BIN=${AUTHSH_BIN:-${BIN:-"$(swift build -c release --show-bin-path)/authsh"}}
PYTHON=${PYTHON:-.venv/bin/python}
[ -x "$PYTHON" ] || { echo "bench/import.sh: run scripts/setup.sh first (needs firebase-admin and supabase-auth)" >&2; exit 1; }

. bench/start-emulator.sh

"$PYTHON" bench/import_bench.py "$BIN" "127.0.0.1:$PORT" "$COUNT" "$WORK"
