"""Admin keys in the keyring: `authsh secret set NAME` (from a pipe, or typed with echo off on a
terminal), a profile naming it with `service_key_keyring` / `credentials_keyring`, and the support
commands run against the emulator with the key read from the keyring. The key never shows in any
output, `--verbose` trace, the shell's history, a script report or any file authsh writes."""
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
import requests

from conftest import ROOT, authsh_binary

sys.path.insert(0, str(ROOT / "Tests" / "python" / "admin"))
from test_service_account import EMAIL as SA_EMAIL, service_account  # noqa: E402,F401 (a fixture)

PASSWORD = "keyring-secret-test-pw-3"


def authsh(env, *args, stdin=None):
    return subprocess.run([authsh_binary(), *args], env=env, input=stdin, capture_output=True, text=True,
                          timeout=60, stdin=None if stdin is not None else subprocess.DEVNULL)


def secret_tool(*args):
    return subprocess.run(["secret-tool", *args], capture_output=True, text=True, timeout=30)


def files_containing(root: Path, needle: str):
    return [p for p in root.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


@pytest.fixture
def home(tmp_path):
    home = tmp_path / "home"
    (home / "config" / "authsh").mkdir(parents=True)
    return home


def base_env(home: Path):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SUPABASE_", "FIREBASE_", "AUTHSH_", "XDG_", "GOOGLE_"))}
    env.update(HOME=str(home), XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"),
               LANG="C.UTF-8", NO_COLOR="1", TERM="xterm", PW=PASSWORD)
    return env


@pytest.fixture
def supabase(home, emulator):
    """A profile `staging` whose service key is the keyring secret `staging-admin`."""
    (home / "config" / "authsh" / "config.toml").write_text(
        f'default_profile = "staging"\n\n[profiles.staging]\nprovider = "supabase"\nurl = "{emulator.base}"\n'
        'key_env = "STAGING_ANON"\nservice_key_keyring = "staging-admin"\n')
    env = {**base_env(home), "STAGING_ANON": emulator.anon_key}
    yield env
    authsh(env, "secret", "delete", "staging-admin")


def everything_written(home: Path, *outputs):
    return [text for text in outputs] + [p.read_bytes().decode(errors="replace") for p in home.rglob("*") if p.is_file()]


def test_secret_set_from_a_pipe_then_user_show_reads_the_key_from_the_keyring(supabase, home, emulator, tmp_path):
    key = emulator.service_role_key
    outputs = []

    def run(*args, stdin=None):
        done = authsh(supabase, *args, stdin=stdin)
        outputs.extend([done.stdout, done.stderr])
        return done

    # Without the secret: a clear error naming the setting and the fix.
    missing = run("user", "show", "ada@example.com")
    assert missing.returncode == 78
    assert 'service_key_keyring = "staging-admin"' in missing.stderr and "authsh secret set staging-admin" in missing.stderr

    stored = run("secret", "set", "staging-admin", stdin=key + "\n")
    assert stored.returncode == 0, stored.stderr
    assert "Stored staging-admin" in stored.stdout and 'service_key_keyring = "staging-admin"' in stored.stdout
    found = secret_tool("lookup", "service", "authsh", "kind", "service_key", "name", "staging-admin")
    assert found.stdout == key, "stored as given, without the newline"
    listed = run("secret", "list")
    assert listed.returncode == 0 and "staging-admin" in listed.stdout.splitlines()
    assert json.loads(run("secret", "list", "--json").stdout)["secrets"] == [{"name": "staging-admin"}]

    created = run("user", "create", "ada@example.com", "--password-env", "PW", "--confirmed")
    assert created.returncode == 0, created.stderr
    shown = run("user", "show", "ada@example.com", "--verbose")
    assert shown.returncode == 0, shown.stderr
    assert "ada@example.com" in shown.stdout
    assert "apikey: ***" in shown.stderr, "the trace shows the header, masked"
    assert run("user", "show", "ada@example.com", "--json").returncode == 0
    assert run("diagnose", "ada@example.com").returncode == 0
    assert run("audit").returncode == 0

    # A script's reports, and the shell with its history.
    script = tmp_path / "check.auth"
    script.write_text("user show ada@example.com\nexpect ok\n")
    ran = run("run", str(script), "--report-json", str(home / "r.json"), "--report-junit", str(home / "r.xml"),
              "--report-tap", str(home / "r.tap"))
    assert ran.returncode == 0, ran.stdout + ran.stderr
    screen = io.StringIO()
    shell = pexpect.spawn(authsh_binary(), ["--no-rc"], env=supabase, encoding="utf-8", timeout=30, dimensions=(40, 160))
    shell.logfile_read = screen
    shell.expect(r"> $")
    for line in ("user show ada@example.com --verbose", "user confirm ada@example.com", "secret list"):
        shell.sendline(line)
        shell.expect(r"> $")
    shell.sendline("quit")
    shell.expect(pexpect.EOF)
    assert "staging-admin" in screen.getvalue()
    assert (home / "state" / "authsh" / "history").exists()

    deleted = run("secret", "delete", "staging-admin")
    assert deleted.returncode == 0 and "Deleted staging-admin" in deleted.stdout
    again = run("secret", "delete", "staging-admin")
    assert again.returncode == 1 and "No secret named staging-admin" in again.stderr and "(not_found)" in again.stderr
    assert secret_tool("lookup", "service", "authsh", "name", "staging-admin").stdout == ""

    leaks = [text for text in everything_written(home, *outputs, screen.getvalue()) if key in text]
    assert leaks == [], "the service key leaked"
    assert files_containing(tmp_path, key) == []


def test_secret_set_on_a_terminal_asks_with_echo_off(supabase, emulator):
    key = emulator.service_role_key
    screen = io.StringIO()
    child = pexpect.spawn(authsh_binary(), ["secret", "set", "staging-admin"], env=supabase, encoding="utf-8",
                          timeout=30, dimensions=(40, 400))
    child.logfile_read = screen
    child.expect_exact("Value of staging-admin (not shown): ")
    child.sendline(key)
    child.expect_exact("Stored staging-admin")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert key not in screen.getvalue()
    assert secret_tool("lookup", "service", "authsh", "name", "staging-admin").stdout == key
    assert authsh(supabase, "user", "list").returncode == 0

    # The same in the shell: asked with echo off, kept out of the history with its value.
    shell = pexpect.spawn(authsh_binary(), ["--no-rc"], env=supabase, encoding="utf-8", timeout=30, dimensions=(40, 400))
    screen = io.StringIO()
    shell.logfile_read = screen
    shell.expect(r"> $")
    shell.sendline("secret set staging-admin")
    shell.expect_exact("Value of staging-admin (not shown): ")
    shell.sendline(key + "-rotated")
    shell.expect_exact("Stored staging-admin")
    shell.expect(r"> $")
    shell.sendline("quit")
    shell.expect(pexpect.EOF)
    assert key not in screen.getvalue()
    assert secret_tool("lookup", "service", "authsh", "name", "staging-admin").stdout == key + "-rotated"
    history = Path(supabase["XDG_STATE_HOME"]) / "authsh" / "history"
    assert "secret set staging-admin" in history.read_text() and key not in history.read_text()


def test_a_service_account_in_the_keyring_runs_firebase_admin_commands(home, emulator, service_account):
    (home / "config" / "authsh" / "config.toml").write_text(
        f'[profiles.mobile]\nprovider = "firebase"\nproject_id = "{emulator.project}"\n'
        f'emulator_host = "{emulator.host}"\ncredentials_keyring = "mobile-admin"\n')
    env = base_env(home)
    stored = authsh(env, "secret", "set", "mobile-admin", stdin=service_account.path.read_text())
    assert stored.returncode == 0, stored.stderr
    assert 'credentials_keyring = "mobile-admin"' in stored.stdout
    service_account.path.unlink()  # the keyring's copy is the one used
    r = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signUp",
                      params={"key": emulator.api_key}, timeout=10,
                      json={"email": "cy@x.io", "password": "correct-horse-1", "returnSecureToken": True})
    assert r.status_code == 200, r.text
    shown = authsh(env, "--profile", "mobile", "user", "show", "cy@x.io", "--verbose")
    assert shown.returncode == 0, shown.stderr
    assert service_account.exchanges == 1 and service_account.problems == []
    authsh(env, "secret", "delete", "mobile-admin")
    private_key_line = service_account.pem.splitlines()[1]
    for text in everything_written(home, shown.stdout, shown.stderr, stored.stdout, stored.stderr):
        assert private_key_line not in text and SA_EMAIL not in stored.stdout
