#!/usr/bin/env bash
# Installs what authsh's build and tests need on a fresh Debian machine:
# system packages (libedit, SQLite headers, the shells and pty tools the tests drive)
# and a Python venv (.venv) with the official clients the emulator is tested against.
set -euo pipefail
cd "$(dirname "$0")/.."

# libcurl4: https:// requests (authsh loads it at run time; the build does not need it).
# zbar-tools: zbarimg reads back the QR code `mfa enroll` draws (Tests/python/repl/test_mfa_pty.py).
# gnome-keyring, dbus, libsecret: a real Secret Service for the keyring tests (scripts/with-keyring.sh
# runs it on a private bus); authsh itself loads libsecret only when present.
# strace: holds the shell's terminal-mode switches back to test that a Ctrl-D typed meanwhile still
# ends the shell (Tests/python/repl/test_repl_pty.py).
# postgresql (15, with pgcrypto): `user export --db` is tested against a real server with GoTrue's
# auth schema, a throwaway cluster the tests start with initdb/pg_ctl (Tests/python/postgres.py).
# libpq5: `user export --db` talks to PostgreSQL through libpq, which authsh loads at run time
# (postgresql pulls it in already; named so that it stays when the server is not wanted).
# chromium, chromium-driver: the emulator's web console is driven in a real browser by Selenium
# through the system chromedriver (Tests/python/console), never a downloaded one.
packages=(libedit-dev libsqlite3-dev pkg-config zsh fish tmux libxml2-utils python3-venv
  libcurl4 curl bash-completion mandoc man-db dpkg-dev libqrencode-dev
  gnome-keyring dbus libsecret-tools libsecret-1-0 zbar-tools postgresql libpq5 strace libargon2-1
  chromium chromium-driver)
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

# The venv is built on Debian's python3 when there is one: an interpreter under /root (pyenv)
# cannot be run by the ordinary user that scripts/test-unprivileged.sh runs the tests as.
python=python3
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import venv, ensurepip" 2>/dev/null && python=/usr/bin/python3
venv_ok() {
  [ -x .venv/bin/pytest ] && .venv/bin/python -c "import supabase_auth, firebase_admin, pexpect, pyotp, xdist, selenium, hypothesis" 2>/dev/null &&
    [ "$(readlink -f .venv/bin/python)" = "$(readlink -f "$(command -v "$python")")" ]
}
if ! venv_ok; then
  echo "setup: creating .venv with the Python test clients"
  rm -rf .venv
  "$python" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r Tests/python/requirements.txt
fi
