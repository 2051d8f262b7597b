#!/usr/bin/env bash
# Per-step cost of a .auth script : N × `whoami` run by `authsh run` against
# `authsh emulator`, minus the same script without them, per call — side by side with the
# official Python client (supabase-auth's SyncGoTrueClient.get_user()) doing N calls against the
# same emulator, and beside the floor: the same GET /user as raw bytes on one keep-alive socket
# (bench/script_client.py; its own user CPU time per call is printed). Targets: an authsh step
# ≤ 1.5 × the floor and ≥ 3 × faster than the Python client.
#
#   bench/script.sh                 # N=1000, REPEAT=7 rounds, static release build (as installed)
#   N=400 REPEAT=7 bench/script.sh
#   AUTHSH_BIN=.build/debug/authsh bench/script.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-1000}
REPEAT=${REPEAT:-7}
BIN=${AUTHSH_BIN:-.build/release/authsh}
[ -x "$BIN" ] || swift build -c release --static-swift-stdlib --product authsh
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/pip install -q -r Tests/python/requirements.txt
fi

. bench/start-emulator.sh
EMULATOR=$EMULATOR_PID
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
  floor_cpu=$(awk '/floor_client_cpu_us_per_call/ { print $2 }' "$WORK/python.txt")
  echo "$with $without $python $floor $floor_cpu" | awk -v n="$N" '{ step = ($1 - $2) / n
    printf "%s %s %.4f %s %s %.2f %.2f %s\n", $1, $2, step, $3, $4, $3 / step, step / $4, $5 }' >> "$ROUNDS"
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
column() { awk -v c="$1" '{ print $c }' "$ROUNDS" | median; }
WITH=$(column 1); WITHOUT=$(column 2); AUTHSH=$(column 3); PYTHON=$(column 4); FLOOR=$(column 5)
RATIO=$(column 6); OVER_FLOOR=$(column 7); FLOOR_CPU=$(column 8)
range() { awk -v c="$1" '{ print $c }' "$ROUNDS" | sort -n | awk 'NR == 1 { low = $1 } { high = $1 } END { print low "–" high }'; }

echo "script step cost: $N × whoami against authsh emulator (Supabase side), medians of $REPEAT interleaved rounds"
printf '  %-44s %10s ms\n' "authsh run, with $N × whoami" "$WITH"
printf '  %-44s %10s ms\n' "authsh run, without them" "$WITHOUT"
printf '  %-44s %10s ms/call\n' "authsh per whoami" "$AUTHSH"
printf '  %-44s %10s ms/call\n' "supabase-auth SyncGoTrueClient.get_user()" "$PYTHON"
printf '  %-44s %10s ms/call\n' "floor: raw keep-alive GET /user (one socket)" "$FLOOR"
printf '  %-44s %10s µs/call\n' "    of which the floor loop's own user CPU" "$FLOOR_CPU"
verdict() { awk -v v="$1" -v t="$2" -v d="$3" 'BEGIN { ok = d == "le" ? v <= t : v >= t; print (ok ? "ok" : "MISSED") }'; }
printf '  %-44s %9s× (range %s×; target ≤ 1.5×: %s)\n' "authsh step / floor" "$OVER_FLOOR" "$(range 7)" "$(verdict "$OVER_FLOOR" 1.5 le)"
printf '  %-44s %9s× (range %s×; target ≥ 3×: %s)\n' "Python get_user / authsh step" "$RATIO" "$(range 6)" "$(verdict "$RATIO" 3 ge)"
echo "  (medians of per-round ratios)"
