#!/usr/bin/env bash
# Per-step cost of a .auth script : N × `whoami` run by `authsh run` against
# `authsh emulator`, minus the same script without them, per call — side by side with the
# official Python client (supabase-auth's SyncGoTrueClient.get_user()) doing N calls against the
# same emulator. Target: authsh at least 2× faster per call.
#
#   bench/script.sh                 # N=1000, REPEAT=7 rounds, release build
#   N=400 REPEAT=7 bench/script.sh
#   AUTHSH_BIN=.build/debug/authsh bench/script.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000}
REPEAT=${REPEAT:-7}
BIN=${AUTHSH_BIN:-.build/release/authsh}
[ -x "$BIN" ] || swift build -c release --product authsh
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/pip install -q -r Tests/python/requirements.txt
fi

WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" emulator --port "$PORT" > "$WORK/emulator.log" 2>&1 &
EMULATOR=$!
trap 'kill $EMULATOR 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$PORT/auth/v1/health" > /dev/null && break
  sleep 0.05
done
URL="http://127.0.0.1:$PORT/auth/v1"

# The same prologue in both scripts; only the whoami lines differ.
prologue() {
  cat <<AUTH
provider supabase --url http://127.0.0.1:$PORT --key bench-anon-key
let email = "bench-{{uuid}}@example.com"
secret pw = "bench-password-1"
signup {{email}} --name Bench --password {{pw}}
whoami
AUTH
}
prologue > "$WORK/without.auth"
{ prologue; for _ in $(seq "$N"); do echo whoami; done; } > "$WORK/with.auth"

# Wall time (ms) of one `authsh run FILE`.
run_ms() {
  local start end
  start=$(date +%s%N)
  "$BIN" run "$1" > /dev/null 2>&1 || { echo "authsh run $1 failed" >&2; "$BIN" run "$1" >&2; exit 1; }
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN { printf "%.3f", ns / 1e6 }'
}

# Rounds interleave both clients, so a noisy neighbour slows both alike; each round gives
# authsh's per-call cost (with − without, over N), the Python client's, and the floor.
ROUNDS="$WORK/rounds.txt"
for _ in $(seq "$REPEAT"); do
  with=$(run_ms "$WORK/with.auth")
  without=$(run_ms "$WORK/without.auth")
  .venv/bin/python bench/script_client.py --url "$URL" --n "$N" --repeat 1 > "$WORK/python.txt"
  python=$(awk '/python_ms_per_call/ { print $2 }' "$WORK/python.txt")
  floor=$(awk '/floor_ms_per_call/ { print $2 }' "$WORK/python.txt")
  echo "$with $without $python $floor" | awk -v n="$N" '{ printf "%s %s %.4f %s %s %.2f\n", $1, $2, ($1 - $2) / n, $3, $4, $3 / (($1 - $2) / n) }' >> "$ROUNDS"
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
column() { awk -v c="$1" '{ print $c }' "$ROUNDS" | median; }
WITH=$(column 1); WITHOUT=$(column 2); AUTHSH=$(column 3); PYTHON=$(column 4); FLOOR=$(column 5)
RATIO=$(column 6)
LOW=$(awk '{ print $6 }' "$ROUNDS" | sort -n | head -1); HIGH=$(awk '{ print $6 }' "$ROUNDS" | sort -n | tail -1)

echo "script step cost: $N × whoami against authsh emulator (Supabase side), medians of $REPEAT interleaved rounds"
printf '  %-44s %10s ms\n' "authsh run, with $N × whoami" "$WITH"
printf '  %-44s %10s ms\n' "authsh run, without them" "$WITHOUT"
printf '  %-44s %10s ms/call\n' "authsh per whoami" "$AUTHSH"
printf '  %-44s %10s ms/call\n' "supabase-auth SyncGoTrueClient.get_user()" "$PYTHON"
printf '  %-44s %10s ms/call\n' "floor: raw keep-alive GET /user (http.client)" "$FLOOR"
echo "  authsh is ${RATIO}× faster per call (median of per-round ratios, range ${LOW}–${HIGH}×; target ≥ 2×)"
awk -v r="$RATIO" 'BEGIN { exit (r >= 2) ? 0 : 1 }' || { echo "  below target" >&2; exit 1; }
