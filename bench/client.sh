#!/usr/bin/env bash
# Client-side reliability figures: how long a refused connection and a timed-out
# request take to fail, and how long validation takes, measured with the real binary.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product authsh >/dev/null
bin="$PWD/.build/release/authsh"
export HOME; HOME=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

ms() { python3 -c 'import sys,time; print(int((time.time()-float(sys.argv[1]))*1000))' "$1"; }

start=$(python3 -c 'import time; print(time.time())')
SUPABASE_URL="http://127.0.0.1:$port" SUPABASE_ANON_KEY=k "$bin" login ada@example.com --password x >/dev/null 2>&1 || true
echo "connection refused → network_unreachable: $(ms "$start") ms   (target: < 1000 ms)"

"$bin" emulator --port "$port" --latency-ms 5000 >/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/emulator/v1/faults" >/dev/null && break; sleep 0.1; done
start=$(python3 -c 'import time; print(time.time())')
SUPABASE_URL="http://127.0.0.1:$port" SUPABASE_ANON_KEY=k "$bin" login ada@example.com --password x --timeout 1s >/dev/null 2>&1 || true
echo "5 s answer with --timeout 1s → timeout: $(ms "$start") ms   (target: ≈ 1000 ms)"

start=$(python3 -c 'import time; print(time.time())')
for _ in $(seq 20); do SUPABASE_URL="http://127.0.0.1:$port" SUPABASE_ANON_KEY=k "$bin" signup not-an-email --password short >/dev/null 2>&1 || true; done
echo "validation failure, whole process: $(( $(ms "$start") / 20 )) ms per run (validation itself is microseconds)"
