#!/usr/bin/env bash
# Per-step cost of a .auth script (issue 5, SPEC §9): N × `whoami` run by `authsh run` against
# `authsh emulator`, minus the same script without them, per call — side by side with the
# official Python client (supabase-auth's SyncGoTrueClient.get_user()) doing N calls against the
# same emulator. Target: authsh at least 2× faster per call.
#
#   bench/script.sh                 # N=1000 (SPEC §9), REPEAT=5, release build
#   N=400 REPEAT=7 bench/script.sh
#   AUTHSH_BIN=.build/debug/authsh bench/script.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000}
REPEAT=${REPEAT:-5}
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

# Median wall time (ms) of REPEAT runs of `authsh run FILE`.
median_ms() {
  local file=$1 times=()
  for _ in $(seq "$REPEAT"); do
    local start end
    start=$(date +%s%N)
    "$BIN" run "$file" > /dev/null 2>&1 || { echo "authsh run $file failed" >&2; "$BIN" run "$file" >&2; exit 1; }
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] / 1000 }'
}

WITH=$(median_ms "$WORK/with.auth")
WITHOUT=$(median_ms "$WORK/without.auth")
AUTHSH=$(awk -v a="$WITH" -v b="$WITHOUT" -v n="$N" 'BEGIN { printf "%.4f", (a - b) / n }')
.venv/bin/python bench/script_client.py --url "$URL" --n "$N" --repeat "$REPEAT" > "$WORK/python.txt"
PYTHON=$(awk '/python_ms_per_call/ { print $2 }' "$WORK/python.txt")
FLOOR=$(awk '/floor_ms_per_call/ { print $2 }' "$WORK/python.txt")
RATIO=$(awk -v a="$AUTHSH" -v p="$PYTHON" 'BEGIN { if (a > 0) printf "%.2f", p / a; else print "inf" }')
CLIENT=$(awk -v a="$AUTHSH" -v p="$PYTHON" -v f="$FLOOR" 'BEGIN { if (a > f) printf "%.2f", (p - f) / (a - f); else print "inf" }')

echo "script step cost: $N × whoami against authsh emulator (Supabase side), median of $REPEAT runs"
printf '  %-44s %10s ms\n' "authsh run, with $N × whoami" "$WITH"
printf '  %-44s %10s ms\n' "authsh run, without them" "$WITHOUT"
printf '  %-44s %10s ms/call\n' "authsh per whoami" "$AUTHSH"
printf '  %-44s %10s ms/call\n' "supabase-auth SyncGoTrueClient.get_user()" "$PYTHON"
printf '  %-44s %10s ms/call\n' "floor: raw keep-alive GET /user (http.client)" "$FLOOR"
echo "  authsh is ${RATIO}× faster per call (target ≥ 2×); ${CLIENT}× less client-side time above the floor"
awk -v r="$RATIO" 'BEGIN { exit (r == "inf" || r >= 2) ? 0 : 1 }' || { echo "  below target" >&2; exit 1; }
