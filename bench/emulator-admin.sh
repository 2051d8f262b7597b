#!/usr/bin/env bash
# Emulator admin reads as the account count grows (target: each < 5 ms at 100,000 accounts):
#   Supabase GET /admin/users?filter=EMAIL, page 1 of GET /admin/users, GET /admin/users/{id};
#   Firebase page 1 of accounts:batchGet, accounts:lookup by e-mail; and the emulator's RSS.
# Usage: bench/emulator-admin.sh                 (builds release first; sizes 1000 10000 100000)
#        SKIP_BUILD=1 SIZES="1000 10000" bench/emulator-admin.sh   (or AUTHSH_BIN=path: that binary, no build)
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-1000 10000 100000}
if [ -z "${AUTHSH_BIN:-}" ] && [ "${SKIP_BUILD:-0}" != 1 ]; then
  swift build -c release --product authsh
fi
BIN=${AUTHSH_BIN:-${BIN:-"$(swift build -c release --show-bin-path)/authsh"}}

. bench/start-emulator.sh

# shellcheck disable=SC2086
python3 bench/emulator_admin.py "http://127.0.0.1:$PORT" "$EMULATOR_PID" $SIZES
