#!/usr/bin/env bash
# Runs a command with a private D-Bus session bus (dbus-run-session) and an unlocked GNOME
# Keyring on it: a real freedesktop Secret Service, as on a desktop, for the keyring tests.
# The keyring's files live in a scratch directory, never in the user's own keyrings.
#
#   scripts/with-keyring.sh COMMAND [ARG...]   run COMMAND on the bus, then stop everything
#   scripts/with-keyring.sh                    print DBUS_SESSION_BUS_ADDRESS=… and wait until
#                                              standard input closes (a test fixture holds it)
set -euo pipefail

if [ -z "${AUTHSH_KEYRING_BUS:-}" ]; then
  for tool in dbus-run-session gnome-keyring-daemon; do
    command -v "$tool" >/dev/null || { echo "with-keyring: $tool is missing (run scripts/setup.sh)" >&2; exit 69; }
  done
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/authsh-keyring.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  # Not exec: the trap removes the scratch directory once the bus is gone.
  AUTHSH_KEYRING_BUS=1 AUTHSH_KEYRING_SCRATCH="$scratch" dbus-run-session -- "$0" "$@"
  exit $?
fi

# Inside the private bus. gnome-keyring-daemon keeps its keyrings under $XDG_DATA_HOME/keyrings
# and its control socket under $XDG_RUNTIME_DIR: both in the scratch directory.
scratch=$AUTHSH_KEYRING_SCRATCH
mkdir -p "$scratch/data" "$scratch/runtime"
chmod 700 "$scratch/runtime"
# --unlock reads the password of the login keyring from standard input and creates it (the
# default collection) unlocked; the daemon forks and prints its environment. It exits when the
# bus does.
eval "$(printf 'authsh-test-keyring' | XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/runtime" \
  gnome-keyring-daemon --unlock --components=secrets 2>"$scratch/daemon.log")"
export GNOME_KEYRING_CONTROL
unset AUTHSH_KEYRING_BUS AUTHSH_KEYRING_SCRATCH

if [ $# -gt 0 ]; then
  # Tells the Python tests' fixture that this bus is already a private keyring.
  export AUTHSH_TEST_KEYRING=$DBUS_SESSION_BUS_ADDRESS
  "$@"
else
  echo "DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS"
  cat >/dev/null
fi
