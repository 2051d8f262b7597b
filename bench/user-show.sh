#!/usr/bin/env bash
# `authsh user show --from FILE --json` over 1,000 accounts in the emulator, end to end (whole
# process), against the same lookups with the official Python clients run sequentially:
# firebase-admin `auth.get_user_by_email`, and supabase-auth `admin.get_user_by_id` (its admin API
# has no lookup by e-mail, so it is given the ids). Prints the times and the ratio (target ≥ 3×).
#   COUNT=1000 JOBS=8 AUTHSH_BIN=.build/release/authsh bench/user-show.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-1000}
jobs=${JOBS:-8}
if [ -z "${AUTHSH_BIN:-}" ]; then
  swift build -c release --product authsh >/dev/null
  AUTHSH_BIN="$PWD/.build/release/authsh"
fi
bin=$AUTHSH_BIN
python=${PYTHON:-.venv/bin/python}
work=$(mktemp -d)
export HOME=$work XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" emulator --port "$port" >"$work/banner" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/emulator/v1/faults" >/dev/null && break; sleep 0.1; done

export BENCH_BASE="http://127.0.0.1:$port"
export SUPABASE_URL=$BENCH_BASE
SUPABASE_ANON_KEY=$(awk '/anon key/ {print $3}' "$work/banner")
SUPABASE_SERVICE_ROLE_KEY=$(awk '/service_role key/ {print $3}' "$work/banner")
export SUPABASE_ANON_KEY SUPABASE_SERVICE_ROLE_KEY
export FIREBASE_AUTH_EMULATOR_HOST="127.0.0.1:$port" FIREBASE_PROJECT_ID=demo-authsh FIREBASE_API_KEY=fake-api-key
unset GOOGLE_APPLICATION_CREDENTIALS

now() { python3 -c 'import time; print(time.time())'; }
elapsed() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.2f}")' "$1" "$2"; }

for provider in supabase firebase; do
  "$python" bench/user_show_clients.py seed "$provider" "$count" "$work/$provider.txt"
  start=$(now)
  "$bin" --provider "$provider" user show --from "$work/$provider.txt" --jobs "$jobs" --json >"$work/out.json"
  authsh_s=$(elapsed "$start" "$(now)")
  found=$(python3 -c 'import json,sys; print(sum(1 for u in json.load(open(sys.argv[1]))["users"] if u["ok"]))' "$work/out.json")
  if [ "$provider" = supabase ]; then input="$work/$provider.txt.ids"; else input="$work/$provider.txt"; fi
  start=$(now)
  python_found=$("$python" bench/user_show_clients.py "$provider" "$input")
  python_s=$(elapsed "$start" "$(now)")
  ratio=$(python3 -c 'import sys; print(f"{float(sys.argv[1]) / max(float(sys.argv[2]), 0.001):.1f}")' "$python_s" "$authsh_s")
  client=$([ "$provider" = supabase ] && echo "supabase-auth get_user_by_id" || echo "firebase-admin get_user_by_email")
  same=""
  if [ "$provider" = supabase ]; then
    # The same input as the Python client: ids (GoTrue's e-mail lookup is a filtered list).
    start=$(now)
    "$bin" --provider "$provider" user show --from "$input" --jobs "$jobs" --json >/dev/null
    ids_s=$(elapsed "$start" "$(now)")
    same="; authsh by id ${ids_s} s, $(python3 -c 'import sys; print(f"{float(sys.argv[1]) / max(float(sys.argv[2]), 0.001):.1f}")' "$python_s" "$ids_s")× faster"
  fi
  echo "$provider: $count accounts — authsh user show --from --jobs $jobs --json ${authsh_s} s ($found found);" \
       "$client, sequential ${python_s} s ($python_found found); authsh ${ratio}× faster${same}   (target: ≥ 3×)"
done
