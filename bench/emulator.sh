#!/usr/bin/env bash
# Emulator throughput against the targets:
#   GET /auth/v1/user with a bearer token, 16 connections  >= 10,000 requests/s
#   POST /auth/v1/token?grant_type=password (default cost) >= 200 sign-ins/s
#   Firebase accounts:signInWithPassword (the project's default scrypt) >= 1,000 sign-ins/s
# Usage: bench/emulator.sh            (builds release first)
#        SKIP_BUILD=1 DURATION=5s bench/emulator.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-16}
command -v wrk >/dev/null || { echo "bench/emulator.sh: wrk is not installed" >&2; exit 1; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  swift build -c release --product authsh
fi
BIN="$(swift build -c release --show-bin-path)/authsh"

. bench/start-emulator.sh
BASE="http://127.0.0.1:$PORT/auth/v1"

EMAIL="bench@example.com"
PASSWORD="bench-password-1"
curl -fs -X POST "$BASE/signup" -H 'Content-Type: application/json' \
  -d "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}" >"$WORK/session.json"
TOKEN=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["access_token"])' "$WORK/session.json")

cat >"$WORK/signin.lua" <<LUA
wrk.method = "POST"
wrk.path = "/auth/v1/token?grant_type=password"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"$EMAIL","password":"$PASSWORD"}'
LUA

FIREBASE="/identitytoolkit.googleapis.com/v1/accounts"
curl -fs -X POST "http://127.0.0.1:$PORT$FIREBASE:signUp?key=fake-api-key" -H 'Content-Type: application/json' \
  -d "{\"email\":\"$EMAIL\",\"password\":\"$PASSWORD\"}" >/dev/null
cat >"$WORK/fbsignin.lua" <<LUA
wrk.method = "POST"
wrk.path = "$FIREBASE:signInWithPassword?key=fake-api-key"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"$EMAIL","password":"$PASSWORD","returnSecureToken":true}'
LUA

run() {  # name, then wrk arguments
  local name=$1
  shift
  echo "== $name: wrk -t$THREADS -c$CONNECTIONS -d$DURATION" >&2
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "$@" | tee "$WORK/$name.txt" >&2
}

run reads -H "Authorization: Bearer $TOKEN" "$BASE/user"
run signins -s "$WORK/signin.lua" "http://127.0.0.1:$PORT"
run fbsignins -s "$WORK/fbsignin.lua" "http://127.0.0.1:$PORT"

figure() {  # file, label → number (0 when wrk printed no such line)
  awk -v label="$2" 'index($0, label) { sub(/.*: */, ""); print $1; found = 1 } END { if (!found) print 0 }' "$1"
}
socket_errors() {
  awk '/Socket errors/ { gsub(/,/, ""); print $4 + $6 + $8 + $10; found = 1 } END { if (!found) print 0 }' "$1"
}

echo
printf '%-32s %12s %10s %14s %10s\n' "benchmark" "requests/s" "non-2xx" "socket errors" "target"
for name in reads signins fbsignins; do
  file="$WORK/$name.txt"
  rps=$(figure "$file" "Requests/sec")
  non2xx=$(figure "$file" "Non-2xx or 3xx responses")
  errors=$(socket_errors "$file")
  case $name in
    reads) label="GET /auth/v1/user"; target=10000 ;;
    signins) label="password sign-in"; target=200 ;;
    *) label="Firebase password sign-in"; target=1000 ;;
  esac
  verdict=$(awk -v r="$rps" -v t="$target" 'BEGIN { print (r + 0 >= t) ? "ok" : "BELOW" }')
  printf '%-32s %12s %10s %14s %10s  %s\n' "$label" "$rps" "$non2xx" "$errors" ">= $target" "$verdict"
done
