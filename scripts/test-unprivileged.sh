#!/usr/bin/env bash
# Runs the networked tests again as an ordinary (non-root) user: the emulator, the clients and the
# example scripts (the networked Swift suites, every Python test, the examples on both backends). CI runs as root, and root may do
# things a user may not (a socket option only root may set once made every connection fail for
# users while every test passed as root). Needs root itself: it creates the user and a private
# mount namespace. Expects scripts/test.sh to have built everything (.build, .venv) first.
#
# The checkout is copied to a scratch directory owned by the user and mounted over the checkout's
# own path in a private mount namespace, so the built products stay valid (same absolute paths)
# and the checkout itself is left untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
user=${AUTHSH_TEST_USER:-authsh-test}

if [ "$(id -u)" -ne 0 ]; then
  echo "test-unprivileged: already an ordinary user; nothing to do"
  exit 0
fi
if ! id "$user" >/dev/null 2>&1; then
  useradd --create-home --shell /bin/bash "$user"
fi
home=$(getent passwd "$user" | cut -d: -f6)
# A temporary directory of its own: root's files in /tmp (SwiftPM's build lock) are not the user's.
runuser -u "$user" -- mkdir -p "$home/tmp"

# Every directory above the checkout must be searchable by the user.
dir="$root"
while [ "$dir" != "/" ]; do
  dir=$(dirname "$dir")
  if ! runuser -u "$user" -- test -x "$dir"; then
    echo "test-unprivileged: $user cannot enter $dir; check the checkout out somewhere else" >&2
    exit 1
  fi
done

scratch=$(mktemp -d /tmp/authsh-unprivileged.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
cp -a "$root/." "$scratch/"
chown -R "$user:" "$scratch"
chmod 755 "$scratch"

run_as_user() {
  runuser -u "$user" -- env -i HOME="$home" TMPDIR="$home/tmp" PATH="$PATH" LANG="${LANG:-C.UTF-8}" CI="${CI:-}" \
    TERM="${TERM:-xterm}" bash -c "cd '$root' && $1"
}
export -f run_as_user
export user home root

echo "test-unprivileged: running the suite as $user (uid $(id -u "$user"))"
unshare -m bash -euo pipefail -c "
  mount --bind '$scratch' '$root'
  # The networked Swift suites: the emulator's server, the NIO client and the providers over
  # real loopback sockets (the whole suite already ran as root).
  run_as_user 'id -un; swift test --skip-build --filter \"NIOTransportTests|AuthEmulatorTests|EmulatorIntegrationTests|ConnectionErrorTests|BackendSessionTests|PipedInputTests\"'
  # In the user's own private D-Bus session with an unlocked GNOME Keyring (the keyring tests).
  run_as_user 'scripts/with-keyring.sh .venv/bin/pytest -q -p no:cacheprovider -n ${AUTHSH_TEST_WORKERS:-2} --dist loadfile Tests/python'
  # Like production the examples are a project's smoke scripts with its own SMTP server.
  run_as_user 'mkdir -p \$HOME/tmp/ci-config && printf \"[emulator]\\nsmtp = \\\"custom\\\"\\n\" > \$HOME/tmp/ci-config/config.toml && chmod 600 \$HOME/tmp/ci-config/config.toml'
  for mode in '' --like-production; do
    for provider in supabase firebase; do
      run_as_user \"AUTHSH_CONFIG_DIR=\$home/tmp/ci-config .build/debug/authsh --provider \$provider run --emulator \$mode --seed examples/accounts.jsonl examples/*.auth\"
    done
  done
"
