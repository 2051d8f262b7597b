#!/usr/bin/env bash
# `authsh user import` of a 1,000,000-account Firebase export (firebase-tools' JSON layout, Firebase
# scrypt hashes with the project's parameters) into the emulator's Supabase side: time, rate and
# peak resident memory (target: at most 150 MB whatever the file size), killed with SIGKILL halfway
# and finished with --resume (target: no account created twice). Beside it, on samples of the same
# accounts and the same emulator, the official clients doing the same work:
#   supabase-auth admin.create_user in a loop (target: authsh at least 6x its rate)
#   firebase-admin import_users in batches of 1,000, against authsh into Firebase (target: 1.5x)
# Usage: bench/import-scale.sh                       (builds release first; about 10 minutes)
#        COUNT=200000 SAMPLE=5000 bench/import-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-1000000}
SAMPLE=${SAMPLE:-20000}
if [ -z "${AUTHSH_BIN:-}" ] && [ "${SKIP_BUILD:-0}" != 1 ]; then
  swift build -c release --product authsh
fi
BIN=${AUTHSH_BIN:-${BIN:-"$(swift build -c release --show-bin-path)/authsh"}}
PYTHON=${PYTHON:-.venv/bin/python}
[ -x "$PYTHON" ] || { echo "bench/import-scale.sh: run scripts/setup.sh first" >&2; exit 1; }

. bench/start-emulator.sh

"$PYTHON" bench/import_scale.py "$BIN" "127.0.0.1:$PORT" "$COUNT" "$SAMPLE" "$WORK"
