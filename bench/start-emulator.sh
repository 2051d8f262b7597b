# Sourced by the bench scripts: starts `$BIN emulator` on a free loopback port and waits until it
# answers. Sets WORK (a scratch directory, removed on exit), PORT and EMULATOR_PID; the emulator
# is stopped when the script exits.
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$BIN" emulator --port "$PORT" >"$WORK/emulator.log" 2>&1 &
EMULATOR_PID=$!
trap 'kill "$EMULATOR_PID" 2>/dev/null || true; wait "$EMULATOR_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 200); do
  curl -fs "http://127.0.0.1:$PORT/auth/v1/health" >/dev/null 2>&1 && break
  sleep 0.05
done
