#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up, build, Swift tests, Python tests
# (official Supabase/Firebase clients against the emulator, the shell through a pty,
# completion scripts in real bash/zsh/fish, the installed release binary). Run as root (as CI
# does), it also installs the .deb into a clean Debian root (scripts/test-deb.sh) and runs the
# suite and the examples again as an ordinary user (scripts/test-unprivileged.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says how long it took (CI's time budget is watched step by step).
step() {
  local started=$SECONDS
  "$@"
  echo "test.sh: $* — $((SECONDS - started)) s" >&2
}
# The debug build of everything, tests too. A warning in the project's own Sources/ or Tests/
# fails it (a fresh build prints none); warnings of dependencies under .build/checkouts are theirs.
build_without_warnings() {
  local log status warnings
  log=$(mktemp)
  set +e
  swift build --build-tests 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  warnings=$(grep -E "^($PWD/)?(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$log" | sort -u || true)
  rm -f "$log"
  [ "$status" -eq 0 ] || return "$status"
  if [ -n "$warnings" ]; then
    echo "test.sh: the build printed warnings in the project's own code:" >&2
    echo "$warnings" >&2
    return 1
  fi
}
step scripts/setup.sh
# The committed .swift-format; any difference fails (swift format format --in-place fixes it).
step swift format lint --strict --parallel -r Package.swift Sources Tests
step build_without_warnings
step swift build -c release --static-swift-stdlib --product authsh   # what scripts/install.sh installs
step scripts/check-binary.sh   # ≤ 40 MB stripped, no Foundation proper, no ICU
step swift test --skip-build
# Inside a private D-Bus session (dbus-run-session) with an unlocked GNOME Keyring: the keyring
# tests, and every other Python suite (pty, shell, completion) with its sessions in that keyring.
# Two workers (pytest-xdist), each taking whole files: the suite waits on processes about as much
# as it computes, so two halve its time on two cores; a file's tests share fixed keyring names.
export AUTHSH_TEST_WORKERS=${AUTHSH_TEST_WORKERS:-2}
step scripts/with-keyring.sh .venv/bin/pytest -q -p no:cacheprovider -n "$AUTHSH_TEST_WORKERS" --dist loadfile Tests/python
if [ "$(id -u)" -eq 0 ]; then
  step scripts/test-deb.sh "$(scripts/package-deb.sh --no-build)"
  [ "${AUTHSH_SKIP_UNPRIVILEGED:-}" = 1 ] || step scripts/test-unprivileged.sh
fi
echo "test.sh: all steps passed in $SECONDS s" >&2
