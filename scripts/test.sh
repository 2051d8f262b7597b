#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up, build, Swift tests, Python tests
# (official Supabase/Firebase clients against the emulator, the shell through a pty,
# completion scripts in real bash/zsh/fish). Run as root (as CI does), it then runs the
# suite and the examples again as an ordinary user (scripts/test-unprivileged.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build
.venv/bin/pytest -q -p no:cacheprovider Tests/python
if [ "$(id -u)" -eq 0 ] && [ "${AUTHSH_SKIP_UNPRIVILEGED:-}" != 1 ]; then
  scripts/test-unprivileged.sh
fi
