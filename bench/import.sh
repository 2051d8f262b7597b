#!/usr/bin/env bash
# `authsh user import` into each backend of the emulator, beside the official admin SDKs doing the
# same work on the same emulator, as the project's targets state them:
#   Supabase, 20,000 accounts: authsh (default --jobs) vs supabase-auth admin.create_user in a loop
#             (target: 6x faster)
#   Firebase, 100,000 accounts: authsh (batchCreate, 1,000 a call) vs a firebase-admin script doing
#             the whole job (read the file, build the records, import_users in batches of 1,000),
#             both timed from the start of the process (target: 1.5x faster); the SDK's calls alone
#             are printed for information
# The accounts carry bcrypt hashes (cost 4), so no side hashes anything on the way in. Exits 1 when
# a target is missed.
# Usage: bench/import.sh                  (builds release first)
#        AUTHSH_BIN=.build/debug/authsh COUNT=20000 FIREBASE_COUNT=100000 bench/import.sh
#        (a given binary is not rebuilt)
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-20000}
FIREBASE_COUNT=${FIREBASE_COUNT:-100000}
if [ -z "${AUTHSH_BIN:-}" ] && [ "${SKIP_BUILD:-0}" != 1 ]; then
  swift build -c release --product authsh
fi
BIN=${AUTHSH_BIN:-${BIN:-"$(swift build -c release --show-bin-path)/authsh"}}
PYTHON=${PYTHON:-.venv/bin/python}
[ -x "$PYTHON" ] || { echo "bench/import.sh: run scripts/setup.sh first (needs firebase-admin and supabase-auth)" >&2; exit 1; }

. bench/start-emulator.sh

"$PYTHON" bench/import_bench.py "$BIN" "127.0.0.1:$PORT" "$COUNT" "$WORK" "$FIREBASE_COUNT"
