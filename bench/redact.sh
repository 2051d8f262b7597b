#!/usr/bin/env bash
# Secret masking time on near misses (issue: a 4,000-character key and a 16,000-character line
# took 9.5 s, 100,000 characters over a minute). `bench/redact.sh --baseline` also times the
# former per-secret replacingOccurrences (minutes for the long line).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product redact-bench >/dev/null
.build/release/redact-bench "$@"
