"""Sessions in the platform keyring, against a real Secret Service (GNOME Keyring on a private
D-Bus session bus, started by the `private_keyring` fixture through scripts/with-keyring.sh) and
the real emulator: the tokens go to a keyring item that `secret-tool` finds, the session file keeps
only what is not secret, a new process uses the item, logout removes it, each backend has its own;
without a D-Bus session `auto` falls back to the 0600 file with one notice and `keyring` exits 78;
today's session files move into the keyring on first use; a locked keyring leaves `status` working."""
import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, authsh_binary, user_env

PASSWORD = "keyring-test-password-7"


@pytest.fixture(params=["supabase", "firebase"])
def provider(request):
    return request.param


def environment(home: Path, emulator, provider="supabase"):
    return user_env(home, emulator, provider, PW=PASSWORD)


def without_bus(env):
    """As over ssh without an agent: no D-Bus session bus at all."""
    return {k: v for k, v in env.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")}


def authsh(env, *args, stdin=None):
    return subprocess.run([authsh_binary(), *args], env=env, input=stdin, capture_output=True, text=True,
                          timeout=60, stdin=None if stdin is not None else subprocess.DEVNULL)


def secret_tool(*args, env=None):
    return subprocess.run(["secret-tool", *args], env=env or os.environ, capture_output=True, text=True, timeout=30)


def session_files(home: Path):
    return sorted((home / "state" / "authsh" / "sessions").glob("*.json"))


def files_containing(root: Path, needle: str):
    return [p for p in root.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def item_of(path: Path):
    """The keyring item of a session file: looked up by the attributes authsh gives it."""
    backend = json.loads(path.read_text())["backend"]
    return secret_tool("lookup", "service", "authsh", "kind", "session", "backend", backend, "file", str(path))


def sign_in(env, email="ada@example.com"):
    """Creates the account (signed in), then logs in again: the session's tokens."""
    created = authsh(env, "signup", email, "--name", "Ada", "--password-env", "PW")
    assert created.returncode == 0, created.stderr
    done = authsh(env, "login", email, "--password-env", "PW", "--json", "--show-tokens")
    assert done.returncode == 0, done.stderr
    return done, json.loads(done.stdout)["session"]


def test_login_keeps_the_tokens_in_the_keyring_and_logout_removes_them(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    done, tokens = sign_in(env)
    assert done.stderr == "", "no notice: a keyring is there"
    [path] = session_files(tmp_path)
    found = item_of(path)
    assert found.returncode == 0, found.stderr
    assert tokens["refresh_token"] in found.stdout and tokens["access_token"] in found.stdout
    # The file keeps what is not secret: backend, user, expiry.
    for token in (tokens["refresh_token"], tokens["access_token"]):
        assert files_containing(tmp_path, token) == []
    recorded = json.loads(path.read_text())["session"]
    assert recorded["tokens_in"] == "keyring" and recorded["user"]["email"] == "ada@example.com"
    assert recorded["expires_at"] == tokens["expires_at"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    # A new process uses the item.
    who = authsh(env, "whoami", "--json")
    assert who.returncode == 0, who.stderr
    assert json.loads(who.stdout)["user"]["email"] == "ada@example.com"
    status = authsh(env, "status", "--json")
    assert json.loads(status.stdout)["status"]["session_store"] == "keyring"
    assert "Secret Service" in authsh(env, "status").stdout
    verbose = authsh(env, "whoami", "--verbose")
    assert "* session kept in the Secret Service keyring" in verbose.stderr

    out = authsh(env, "logout")
    assert out.returncode == 0, out.stderr
    gone = item_of(path) if path.exists() else secret_tool("lookup", "service", "authsh", "file", str(path))
    assert gone.stdout == ""
    assert authsh(env, "whoami").returncode == 4


def test_a_second_backend_gets_its_own_item(tmp_path, emulator):
    supabase = environment(tmp_path, emulator, "supabase")
    firebase = environment(tmp_path, emulator, "firebase")
    _, first = sign_in(supabase)
    _, second = sign_in(firebase, "bob@example.com")
    paths = session_files(tmp_path)
    assert len(paths) == 2
    values = [item_of(path).stdout for path in paths]
    assert sum(first["refresh_token"] in v for v in values) == 1
    assert sum(second["refresh_token"] in v for v in values) == 1
    # secret-tool prints the attributes on standard error.
    listed = secret_tool("search", "--all", "service", "authsh", "kind", "session")
    files = {line.split(" = ", 1)[1] for line in listed.stderr.splitlines() if line.startswith("attribute.file = ")
             and str(tmp_path) in line}
    assert files == {str(p) for p in paths}
    # Signing out of one leaves the other.
    assert authsh(supabase, "logout").returncode == 0
    assert authsh(firebase, "whoami").returncode == 0


def test_without_a_session_bus_auto_keeps_the_file_and_says_so_once(tmp_path, emulator):
    env = without_bus(environment(tmp_path, emulator))
    done, tokens = sign_in(env)
    [path] = session_files(tmp_path)
    notices = [line for line in done.stderr.splitlines() if "no keyring" in line]
    assert notices == [], "the signup before this login already said it"
    assert tokens["refresh_token"] in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    fresh = tmp_path / "second"
    env = without_bus(environment(fresh, emulator))
    first = authsh(env, "login", "ada@example.com", "--password-env", "PW")
    assert first.returncode == 0, first.stderr
    [path] = session_files(fresh)
    assert first.stderr.count("no keyring: session kept in") == 1
    assert f"no keyring: session kept in {path} (0600); no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)" in first.stderr
    for args in (["whoami"], ["refresh"], ["status"], ["login", "ada@example.com", "--password-env", "PW"]):
        again = authsh(env, *args)
        assert again.returncode == 0, again.stderr
        assert "no keyring" not in again.stderr, args
    status = authsh(env, "status", "--json")
    assert json.loads(status.stdout)["status"]["session_store"] == "file"


def test_keyring_without_a_session_bus_exits_78_before_the_password_is_sent(tmp_path, emulator):
    env = without_bus(environment(tmp_path, emulator))
    # No account: were the password sent, the answer would be invalid_credentials (exit 1).
    refused = authsh(env, "--credential-store", "keyring", "login", "nobody@example.com", "--password-env", "PW")
    assert refused.returncode == 78, refused.stderr
    assert "No keyring is reachable" in refused.stderr
    assert "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)" in refused.stderr
    assert "--credential-store" in refused.stderr
    assert authsh({**env, "AUTHSH_CREDENTIAL_STORE": "keyring"}, "whoami").returncode == 78
    config = tmp_path / "config" / "authsh"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(
        f'[profiles.strict]\nprovider = "supabase"\nurl = "{emulator.base}"\nkey_env = "SUPABASE_ANON_KEY"\n'
        'credential_store = "keyring"\n')
    strict = authsh(env, "--profile", "strict", "whoami")
    assert strict.returncode == 78 and "credential_store in [profiles.strict]" in strict.stderr
    assert authsh(env, "--credential-store", "file", "--profile", "strict", "status").returncode == 0


def test_todays_session_file_moves_into_the_keyring_on_first_use(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    assert authsh(env, "signup", "ada@example.com", "--name", "Ada", "--password-env", "PW",
                  "--credential-store", "file").returncode == 0
    [path] = session_files(tmp_path)
    before = json.loads(path.read_text())
    # Saved with the file store chosen explicitly, it is pinned there; a file of an earlier
    # version (tokens inside, no "store") is what moves into the keyring on first use.
    assert before.pop("store") == "file"
    path.write_text(json.dumps(before))
    assert set(before) == {"version", "backend", "session", "remembered_email", "reset_sent_at"}
    assert set(before["session"]) == {"access_token", "refresh_token", "expires_at", "token_type", "user"}
    refresh, access = before["session"]["refresh_token"], before["session"]["access_token"]

    who = authsh(env, "whoami")
    assert who.returncode == 0, who.stderr
    assert refresh in item_of(path).stdout
    assert files_containing(tmp_path, refresh) == [] and files_containing(tmp_path, access) == []
    after = json.loads(path.read_text())
    assert after["session"]["tokens_in"] == "keyring"
    # whoami refreshed the user from the server; it is the same account.
    assert after["session"]["user"]["id"] == before["session"]["user"]["id"]
    assert authsh(env, "whoami").returncode == 0


def test_an_item_whose_file_is_gone_is_cleaned_up(tmp_path, emulator):
    env = environment(tmp_path, emulator)
    _, tokens = sign_in(env)
    [path] = session_files(tmp_path)
    assert tokens["refresh_token"] in item_of(path).stdout
    path.unlink()
    assert authsh(env, "whoami").returncode == 4
    assert secret_tool("lookup", "service", "authsh", "file", str(path)).stdout == ""


@pytest.fixture
def own_keyring():
    """A keyring of this test's own (it gets locked, which cannot be undone without a prompt)."""
    process = subprocess.Popen([str(ROOT / "scripts" / "with-keyring.sh")], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    assert line.startswith("DBUS_SESSION_BUS_ADDRESS="), process.stderr.read()
    yield line.split("=", 1)[1]
    process.stdin.close()
    process.wait(timeout=20)


def test_a_locked_keyring_leaves_status_working_and_never_hangs(tmp_path, emulator, own_keyring):
    env = {**environment(tmp_path, emulator), "DBUS_SESSION_BUS_ADDRESS": own_keyring}
    sign_in(env)
    locked = subprocess.run(
        ["dbus-send", "--session", "--dest=org.freedesktop.secrets", "--type=method_call", "--print-reply",
         "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
         "array:objpath:/org/freedesktop/secrets/collection/login"],
        env=env, capture_output=True, text=True, timeout=30)
    assert locked.returncode == 0, locked.stderr
    status = authsh(env, "status")
    assert status.returncode == 0, status.stderr
    assert "ada@example.com" in status.stdout and "locked" in status.stdout
    who = authsh(env, "whoami")
    assert who.returncode == 75  # keyring_unavailable: a temporary failure, as for logout
    assert "keeps its tokens in the keyring" in who.stderr and "locked" in who.stderr
    assert authsh(env, "--credential-store", "keyring", "whoami").returncode == 78


def test_the_no_keyring_notice_is_shown_once_per_machine_and_store(tmp_path, emulator):
    env = without_bus(environment(tmp_path, emulator))
    first = authsh(env, "signup", "ada@example.com", "--name", "Ada", "--password-env", "PW")
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("no keyring: session kept in") == 1
    marker = tmp_path / "state" / "authsh" / "no-keyring-notice"
    assert stat.S_IMODE(marker.stat().st_mode) == 0o600
    for _ in range(2):
        out = authsh(env, "logout")
        assert out.returncode == 0, out.stderr
        back = authsh(env, "login", "ada@example.com", "--password-env", "PW")
        assert back.returncode == 0, back.stderr
        assert "no keyring" not in out.stderr + back.stderr


@pytest.mark.parametrize("provider", ["supabase", "firebase"])
def test_a_store_chosen_explicitly_stays_until_secret_migrate_moves_it(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    pinned = {**env, "AUTHSH_CREDENTIAL_STORE": "file"}
    _, tokens = sign_in(pinned)
    [path] = session_files(tmp_path)
    for args in (["whoami"], ["status"], ["refresh"], ["whoami"]):
        plain = authsh(env, *args)
        assert plain.returncode == 0, (args, plain.stderr)
    kept = json.loads(path.read_text())
    assert kept["store"] == "file" and kept["session"].get("refresh_token")
    assert item_of(path).stdout == ""
    status = authsh(env, "status", "--json")
    assert json.loads(status.stdout)["status"]["session_store"] == "file"

    moved = authsh(env, "secret", "migrate", "--to", "keyring")
    assert moved.returncode == 0, moved.stderr
    assert f"Moved the session of" in moved.stderr + moved.stdout and "into the keyring" in moved.stderr + moved.stdout
    assert "refresh_token" not in path.read_text() or json.loads(path.read_text())["session"].get("refresh_token") in (None, "")
    assert item_of(path).stdout != ""
    assert authsh(env, "whoami").returncode == 0

    back = authsh(env, "secret", "migrate", "--to", "file")
    assert back.returncode == 0, back.stderr
    assert "out of the keyring" in back.stderr + back.stdout
    assert item_of(path).stdout == ""
    assert json.loads(path.read_text())["store"] == "file"
    assert authsh(env, "whoami").returncode == 0
    assert item_of(path).stdout == "", "a plain command does not move it back"
    again = authsh(env, "secret", "migrate", "--to", "file")
    assert again.returncode == 0 and "No saved session to move" in again.stderr + again.stdout
