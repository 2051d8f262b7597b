#!/usr/bin/env bash
# Installs what authsh's build and tests need on a fresh Debian machine:
# system packages (libedit, SQLite headers, the shells and pty tools the tests drive)
# and a Python venv (.venv) with the official clients the emulator is tested against.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libedit-dev libsqlite3-dev pkg-config zsh fish tmux libxml2-utils)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/pytest ] || ! .venv/bin/python -c "import supabase_auth, firebase_admin, pexpect" 2>/dev/null; then
  echo "setup: creating .venv with the Python test clients"
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r Tests/python/requirements.txt
fi
