#!/usr/bin/env bash
# Instructions a script step costs in authsh's own process (user space), counted by valgrind's
# callgrind: N × `whoami` in one `authsh run` minus the same script without them, over N. Unlike
# wall time, the count holds on a loaded machine, so it compares two builds fairly.
#
#   bench/step-instructions.sh                      # N=500, static release build
#   AUTHSH_BIN=/tmp/old/authsh bench/step-instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-500}
BIN=${AUTHSH_BIN:-.build/release/authsh}
command -v valgrind >/dev/null || { echo "needs valgrind (apt install valgrind)" >&2; exit 1; }
[ -x "$BIN" ] || swift build -c release --static-swift-stdlib --product authsh
. bench/start-emulator.sh
# valgrind cannot read the DWARF of Swift's static runtime: count on a copy without it.
strip --strip-debug -o "$WORK/authsh" "$BIN"
{
  echo "provider supabase --url http://127.0.0.1:$PORT --key bench-anon-key"
  echo 'let email = "bench-{{uuid}}@example.com"'
  echo 'secret pw = "bench-password-1"'
  echo 'signup {{email}} --name Bench --password {{pw}}'
  echo whoami
} > "$WORK/without.auth"
{ cat "$WORK/without.auth"; for _ in $(seq "$N"); do echo whoami; done; } > "$WORK/with.auth"
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$WORK/authsh" run "$1" 2>&1 >/dev/null |
    awk '/Collected/ { print $NF }'
}
with=$(count "$WORK/with.auth")
without=$(count "$WORK/without.auth")
awk -v w="$with" -v wo="$without" -v n="$N" 'BEGIN {
  printf "instructions (user space) of %d whoami steps in one authsh run, by callgrind\n", n
  printf "  with the steps      %12d\n  without them        %12d\n  per step            %12.0f\n", w, wo, (w - wo) / n }'
