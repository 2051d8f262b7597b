#!/usr/bin/env bash
# The main job on a fresh machine: set up, build, and run the smoke scripts in examples/ on the
# embedded emulator, against each backend in both emulator modes (sign-up, sign-in, wrong password, validation,
# password-reset round trip through the emulator's inbox, logout).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product authsh
export HOME; HOME=$(mktemp -d)   # scripts never touch saved sessions; keep even the config dir fresh
status=0
# Like production the examples are the smoke scripts of a project with its own SMTP server (the
# built-in mail service sends 2 mails an hour, to the team only): say so for the emulator.
mkdir -p "$HOME/.config/authsh"
printf '[emulator]\nsmtp = "custom"\n' > "$HOME/.config/authsh/config.toml"
chmod 600 "$HOME/.config/authsh/config.toml"
export AUTHSH_CONFIG_DIR="$HOME/.config/authsh"
# Each backend twice: the default emulator (as the local stacks behave) and --like-production
# (as hosted projects behave: e-mail confirmation, quotas, enumeration protection).
for mode in "" --like-production; do
  for provider in supabase firebase; do
    echo "== $provider ${mode:-default} =="
    .build/debug/authsh --provider "$provider" run --emulator $mode --seed examples/accounts.jsonl examples/*.auth || status=$?
  done
done
exit "$status"
