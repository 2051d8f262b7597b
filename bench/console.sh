#!/usr/bin/env bash
# The web console's accounts page at growing account counts (target: the server renders a page in
# under 50 ms at 100,000 accounts): page 1 and the last page newest first, page 1 by last sign-in,
# a search that scans every account, on both backends.
# Usage: bench/console.sh                  (builds release first; sizes 1000 10000 100000)
#        SKIP_BUILD=1 SIZES="1000 10000" bench/console.sh   (or AUTHSH_BIN=path: that binary, no build)
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-1000 10000 100000}
if [ -z "${AUTHSH_BIN:-}" ] && [ "${SKIP_BUILD:-0}" != 1 ]; then
  swift build -c release --product authsh
fi
BIN=${AUTHSH_BIN:-${BIN:-"$(swift build -c release --show-bin-path)/authsh"}}

. bench/start-emulator.sh

# shellcheck disable=SC2086
python3 bench/console_bench.py "http://127.0.0.1:$PORT" $SIZES
