"""Issue 48: a symbolic-link chain cannot bend a path authsh writes or trusts.

The chain of the issue, for each file kind: the user's own link -> a link another user
(`authsh-mallory`, a second unprivileged account) planted in /tmp -> the victim's file (the
user's own). Every path is walked one hop at a time, so the planted hop is refused with the
documented exit, naming it and its owner, and the victim's file is left exactly as it was.

Creating the second user needs root (CI runs as root); elsewhere these tests are skipped.
"""
import json
import os
import pwd
import subprocess
import uuid
from pathlib import Path

import pexpect
import pytest

from conftest import ROOT, authsh_binary, user_env

MALLORY = "authsh-mallory"
PASSWORD = "correct-horse-48"
VICTIM_TEXT = "the victim's own bytes\n"

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="creating a second user needs root (CI runs as root)")


@pytest.fixture(scope="module")
def mallory():
    try:
        return pwd.getpwnam(MALLORY)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", MALLORY], check=True)
        return pwd.getpwnam(MALLORY)


class Chain:
    """`mine` (the user's link) -> `planted` (mallory's link in /tmp) -> `victim`."""

    def __init__(self, mine: Path, planted: Path, victim: Path):
        self.mine, self.planted, self.victim = mine, planted, victim

    def refusal(self, mallory) -> str:
        return f"{self.planted} is a symbolic link owned by {MALLORY} (uid {mallory.pw_uid}), not by you or root"


@pytest.fixture
def plant(mallory):
    planted = []

    def make(mine: Path, victim: Path) -> Chain:
        link = Path(f"/tmp/authsh-planted-{uuid.uuid4().hex[:8]}")
        subprocess.run(["runuser", "-u", MALLORY, "--", "ln", "-s", str(victim), str(link)], check=True)
        assert os.lstat(link).st_uid == mallory.pw_uid
        planted.append(link)
        mine.parent.mkdir(parents=True, exist_ok=True)
        mine.symlink_to(link)
        return Chain(mine, link, victim)

    yield make
    for link in planted:
        link.unlink(missing_ok=True)


def victim_file(path: Path, text: str = VICTIM_TEXT) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    os.chmod(path, 0o600)
    return path


def untouched(path: Path, text: str = VICTIM_TEXT):
    assert path.read_text() == text
    assert os.stat(path).st_mode & 0o777 == 0o600


def authsh(env, *args, stdin=subprocess.DEVNULL):
    return subprocess.run([authsh_binary(), *map(str, args)], env=env, stdin=stdin, capture_output=True, text=True,
                          timeout=90)


def admin_env(tmp_path, emulator, **extra):
    return user_env(tmp_path, emulator, SUPABASE_SERVICE_ROLE_KEY=emulator.service_role_key,
                    AUTHSH_CREDENTIAL_STORE="file", AUTHSH_TEST_PW=PASSWORD, **extra)


# ---- run reports --------------------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["--report-json", "--report-junit", "--report-tap"])
def test_a_run_report_through_a_planted_link_is_refused(tmp_path, plant, mallory, flag):
    chain = plant(tmp_path / "report", victim_file(tmp_path / "victim.txt"))
    script = tmp_path / "a.auth"
    script.write_text('test "one"\necho hi\n')
    result = authsh(user_env(tmp_path), "run", "--emulator", script, flag, chain.mine)
    assert result.returncode == 64, result.stdout + result.stderr
    assert f"{flag} {chain.mine}: {chain.refusal(mallory)}" in result.stderr
    assert "passed" not in result.stdout, "nothing ran"
    untouched(chain.victim)


# ---- a bulk change's --report, user import --report, user export --output -----------------------

def test_a_bulk_report_through_a_planted_link_is_refused(tmp_path, plant, mallory, emulator):
    chain = plant(tmp_path / "report.jsonl", victim_file(tmp_path / "victim.txt"))
    listing = tmp_path / "list"
    listing.write_text("ada@example.com\n")
    result = authsh(admin_env(tmp_path, emulator), "user", "confirm", "--from", listing, "--report", chain.mine, "--yes")
    assert result.returncode == 64, result.stdout + result.stderr
    assert f"Cannot write the report {chain.mine}: {chain.refusal(mallory)}" in result.stderr
    untouched(chain.victim)


def test_an_import_report_through_a_planted_link_is_refused(tmp_path, plant, mallory, emulator):
    env = admin_env(tmp_path, emulator)
    made = authsh(env, "user", "create", "ada@example.com", "--password-env", "AUTHSH_TEST_PW")
    assert made.returncode == 0, made.stderr
    export = tmp_path / "users.jsonl"
    done = authsh(env, "user", "export", "--output", export)
    assert done.returncode == 0, done.stderr
    chain = plant(tmp_path / "import-report.jsonl", victim_file(tmp_path / "victim.txt"))
    result = authsh(env, "user", "import", export, "--report", chain.mine, "--yes")
    assert result.returncode == 64, result.stdout + result.stderr
    assert f"Cannot write the report {chain.mine}: {chain.refusal(mallory)}" in result.stderr
    # Said once, as a sentence: not wrapped again around the structure's dump.
    assert result.stderr.count("Cannot write the report") == 1 and "AuthError(" not in result.stderr, result.stderr
    untouched(chain.victim)


def test_an_export_output_through_a_planted_link_directory_is_refused(tmp_path, plant, mallory, emulator):
    # --output renames over its own name, so the chain bends the directory the file is made in.
    victim_dir = tmp_path / "victim-dir"
    victim_dir.mkdir(mode=0o700)
    victim = victim_file(victim_dir / "users.jsonl")
    chain = plant(tmp_path / "out", victim_dir)
    result = authsh(admin_env(tmp_path, emulator), "user", "export", "--output", chain.mine / "users.jsonl", "--force")
    assert result.returncode == 64, result.stdout + result.stderr
    assert chain.refusal(mallory) in result.stderr
    untouched(victim)
    assert sorted(p.name for p in victim_dir.iterdir()) == ["users.jsonl"]


# ---- config.toml --------------------------------------------------------------------------------

def test_a_config_reached_through_a_planted_link_is_refused(tmp_path, plant, mallory):
    text = '[profiles.default]\nprovider = "supabase"\nurl = "http://127.0.0.1:9"\nkey_env = "ANON"\n'
    victim = victim_file(tmp_path / "elsewhere" / "real.toml", text)
    config = tmp_path / "config" / "authsh" / "config.toml"
    chain = plant(config, victim)
    result = authsh(user_env(tmp_path, ANON="anon-key-for-tests"), "status", "--json")
    assert result.returncode == 78, result.stdout + result.stderr
    doc = json.loads(result.stdout)
    assert doc["error"]["code"] == "config_error"
    assert doc["error"]["message"].startswith(f"Refusing to use {config}: {chain.refusal(mallory)}")
    untouched(victim, text)


# ---- the state directory: audit log, sessions (the keyring fallback), history -------------------

def state_chain(tmp_path, plant):
    """XDG_STATE_HOME is the user's link -> mallory's link -> the victim's state directory, which
    holds an audit log, a session file and a history file."""
    victim_state = tmp_path / "victim-state"
    files = {name: victim_file(victim_state / "authsh" / name)
             for name in ("audit.jsonl", "history", "sessions/default.json")}
    for directory in (victim_state, victim_state / "authsh", victim_state / "authsh" / "sessions"):
        os.chmod(directory, 0o700)
    chain = plant(tmp_path / "state", victim_state)
    return chain, files


def test_the_audit_log_through_a_planted_link_is_refused_and_nothing_is_sent(tmp_path, plant, mallory, emulator):
    env = admin_env(tmp_path, emulator)
    made = authsh({**env, "XDG_STATE_HOME": str(tmp_path / "own-state")}, "user", "create", "ada@example.com",
                  "--password-env", "AUTHSH_TEST_PW", "--confirmed", "--json")
    assert made.returncode == 0, made.stderr
    chain, files = state_chain(tmp_path, plant)
    result = authsh({**env, "XDG_STATE_HOME": str(chain.mine)}, "user", "disable", "ada@example.com", "--yes", "--json")
    assert result.returncode in (74, 78), result.stdout + result.stderr
    doc = json.loads(result.stdout)
    assert doc["error"]["code"] in ("audit_unavailable", "config_error")
    assert chain.refusal(mallory) in doc["error"]["message"]
    shown = authsh({**env, "XDG_STATE_HOME": str(tmp_path / "own-state")}, "user", "show", "ada@example.com", "--json")
    assert json.loads(shown.stdout)["user"].get("banned_until") in (None, ""), "not disabled"
    for path in files.values():
        untouched(path)


def test_a_session_file_through_a_planted_link_is_refused(tmp_path, plant, mallory, emulator):
    env = admin_env(tmp_path, emulator)
    authsh({**env, "XDG_STATE_HOME": str(tmp_path / "own-state")}, "user", "create", "ada@example.com",
           "--password-env", "AUTHSH_TEST_PW", "--confirmed")
    chain, files = state_chain(tmp_path, plant)
    env["XDG_STATE_HOME"] = str(chain.mine)
    for args in (["login", "ada@example.com", "--password-env", "AUTHSH_TEST_PW", "--json"], ["status", "--json"]):
        result = authsh(env, *args)
        assert result.returncode == 78, result.stdout + result.stderr
        doc = json.loads(result.stdout)
        assert doc["error"]["code"] == "config_error"
        assert chain.refusal(mallory) in doc["error"]["message"]
    for path in files.values():
        untouched(path)


def test_the_shell_history_through_a_planted_link_is_neither_read_nor_written(tmp_path, plant, mallory):
    chain, files = state_chain(tmp_path, plant)
    env = user_env(tmp_path, XDG_STATE_HOME=str(chain.mine), TERM="xterm")
    child = pexpect.spawn(authsh_binary(), ["--emulator"], env=env, encoding="utf-8", timeout=30,
                          dimensions=(30, 120), cwd=str(ROOT))
    try:
        child.expect(r"> ")
        child.send("\x1b[A")  # Up: a history line would come back
        child.sendline("version")
        child.expect("authsh ")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert "the victim's own bytes" not in (child.before or "")
    for path in files.values():
        untouched(path)
