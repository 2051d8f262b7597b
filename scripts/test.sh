#!/usr/bin/env bash
# The whole test suite on a fresh machine: set-up, build, Swift tests, Python tests
# (official Supabase/Firebase clients against the emulator, the shell through a pty,
# completion scripts in real bash/zsh/fish).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build
.venv/bin/pytest -q -p no:cacheprovider Tests/python
