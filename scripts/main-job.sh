#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, and run the smoke scripts in examples/ on the
# embedded emulator, once against each backend (sign-up, sign-in, wrong password, validation,
# password-reset round trip through the emulator's inbox, logout).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product authsh
export HOME; HOME=$(mktemp -d)   # scripts never touch saved sessions; keep even the config dir fresh
status=0
for provider in supabase firebase; do
  echo "== $provider =="
  .build/debug/authsh --provider "$provider" run --emulator examples/*.auth || status=$?
done
exit "$status"
