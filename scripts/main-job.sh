#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, start the embedded emulator, and walk a
# user through sign-up, sign-in, whoami, a wrong password, reset round trip and logout on
# both backends with one-shot commands.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product authsh
bin="$PWD/.build/debug/authsh"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" emulator --port "$port" >/dev/null &
emulator=$!
trap 'kill $emulator 2>/dev/null' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/auth/v1/health" >/dev/null && break; sleep 0.1; done

export HOME; HOME=$(mktemp -d)
export AUTHSH_PW="correct-horse-battery" NEW_PW="a-new-password-1"
step() { echo; echo "\$ authsh $*"; "$bin" "$@"; }
for provider in supabase firebase; do
  echo "== $provider =="
  if [ "$provider" = supabase ]; then
    export SUPABASE_URL="http://127.0.0.1:$port" SUPABASE_ANON_KEY="anon-key"; unset FIREBASE_AUTH_EMULATOR_HOST FIREBASE_API_KEY
  else
    export FIREBASE_AUTH_EMULATOR_HOST="127.0.0.1:$port" FIREBASE_API_KEY="fake-api-key"; unset SUPABASE_URL SUPABASE_ANON_KEY
  fi
  email="ada+$provider@example.com"
  step signup "$email" --name "Ada Lovelace" --password-env AUTHSH_PW
  step whoami
  step login "$email" --password wrong-password-1 || echo "(exit $? as expected)"
  step login "$email" --password-env AUTHSH_PW
  step reset "$email"
  link=$("$bin" inbox "$email" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["inbox"]["link"])')
  step reset confirm "$link" --password-env NEW_PW
  step status
  step logout
  step whoami || echo "(exit $? as expected: signed out)"
done
