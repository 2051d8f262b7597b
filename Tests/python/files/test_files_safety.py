"""Issue 20 through the real binary: files another local user or a full disk cannot bend.

- a config.toml (or its directory) others can write is refused before any request is sent;
- a state directory others can write is refused with the fix (exit 78);
- a change whose audit line cannot be written is not sent (exit 74, the account unchanged as the
  official admin client sees it);
- `authsh version` with an empty HOME leaves it empty.

The full-disk cases mount a small tmpfs, which needs root (CI runs as root); they are skipped
with that reason elsewhere.
"""
import json
import signal
import time
import os
import socket
import stat
import subprocess
from pathlib import Path

import pytest
import requests
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary

PASSWORD = "correct-horse-1"


def base_env(home: Path) -> dict:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
            "NO_COLOR": "1", "AUTHSH_CREDENTIAL_STORE": "file",
            "DBUS_SESSION_BUS_ADDRESS": os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")}


def run(args, env, timeout=60, **kwargs):
    return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout, **kwargs)


def admin(emu):
    key = emu.service_role_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False).admin


# ---- config.toml others can write ---------------------------------------------------------------

@pytest.mark.parametrize("loose", ["file", "directory"])
def test_a_config_others_can_write_is_refused_before_any_request(tmp_path, loose):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    config_dir = tmp_path / "config" / "authsh"
    config_dir.mkdir(parents=True)
    config = config_dir / "config.toml"
    config.write_text(f'default_profile = "work"\n\n[profiles.work]\nprovider = "supabase"\n'
                      f'url = "http://127.0.0.1:{port}"\nkey_env = "ANON_KEY"\nservice_key_env = "SERVICE_KEY"\n')
    if loose == "file":
        os.chmod(config, 0o666)
        fixed = str(config)
    else:
        os.chmod(config, 0o600)
        os.chmod(config_dir, 0o777)
        fixed = str(config_dir)
    env = {**base_env(tmp_path), "ANON_KEY": "anon-key-for-tests", "SERVICE_KEY": "service-role-key-for-tests"}
    result = run(["user", "show", "ada@example.com", "--json"], env)
    listener.setblocking(False)
    with pytest.raises(BlockingIOError):
        listener.accept()  # nobody connected: not even the lookup was sent
    listener.close()
    assert result.returncode == 78, result.stderr
    doc = json.loads(result.stdout)
    assert doc["ok"] is False and doc["error"]["code"] == "config_error"
    assert "group or others can write" in doc["error"]["message"]
    assert doc["error"]["hint"] == f"Run: chmod go-w {fixed}"
    assert "service-role-key-for-tests" not in result.stdout + result.stderr


# ---- the state directory -----------------------------------------------------------------------

def test_a_world_writable_state_directory_is_refused_with_the_fix(emulator, tmp_path):
    state = tmp_path / "state" / "authsh"
    state.mkdir(parents=True)
    os.chmod(state, 0o777)
    env = {**base_env(tmp_path), "SUPABASE_URL": emulator.base, "SUPABASE_ANON_KEY": emulator.anon_key,
           "AUTHSH_TEST_PW": PASSWORD}
    result = run(["whoami"], env)
    assert result.returncode == 78, result.stderr
    assert f"Refusing to use authsh's state directory {state}: group or others can write to it (mode 0777)" in result.stderr
    assert f"Run: chmod 700 {state}" in result.stderr
    assert list(state.iterdir()) == []


# ---- the audit log fails closed ----------------------------------------------------------------

@pytest.mark.parametrize("problem", ["symlink", "readable-by-others"])
def test_a_change_is_not_sent_when_the_audit_log_cannot_be_written(emulator, tmp_path, problem):
    made = admin(emulator).create_user({"email": "ada@example.com", "password": PASSWORD, "email_confirm": True}).user
    state = tmp_path / "state" / "authsh"
    state.mkdir(parents=True, mode=0o700)
    log = state / "audit.jsonl"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    if problem == "symlink":
        log.symlink_to(victim)
    else:
        log.write_text("")
        os.chmod(log, 0o644)
    env = {**base_env(tmp_path), "SUPABASE_URL": emulator.base, "SUPABASE_ANON_KEY": emulator.anon_key,
           "SUPABASE_SERVICE_ROLE_KEY": emulator.service_role_key}
    result = run(["user", "disable", "ada@example.com", "--yes", "--json"], env)
    assert result.returncode == 74, result.stderr
    doc = json.loads(result.stdout)
    assert doc["ok"] is False and doc["error"]["code"] == "audit_unavailable"
    assert doc["error"]["message"].startswith("'user disable' was not sent:")
    user = admin(emulator).get_user_by_id(made.id).user
    assert not user.banned_until, "the account is unchanged"
    assert victim.read_text() == "keep me\n"


def test_the_attempt_and_the_outcome_are_both_logged(emulator, tmp_path):
    admin(emulator).create_user({"email": "ada@example.com", "password": PASSWORD, "email_confirm": True})
    env = {**base_env(tmp_path), "SUPABASE_URL": emulator.base, "SUPABASE_ANON_KEY": emulator.anon_key,
           "SUPABASE_SERVICE_ROLE_KEY": emulator.service_role_key}
    assert run(["user", "disable", "ada@example.com", "--yes"], env).returncode == 0
    lines = (tmp_path / "state" / "authsh" / "audit.jsonl").read_text().splitlines()
    assert [json.loads(line)["outcome"] for line in lines] == ["started", "ok"]


# ---- nothing created outside authsh's own directories ------------------------------------------

def test_version_with_an_empty_home_leaves_it_empty(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    result = subprocess.run([authsh_binary(), "version"], env=env, capture_output=True, text=True, timeout=30,
                            preexec_fn=lambda: os.umask(0))
    assert result.returncode == 0, result.stderr
    assert list(home.rglob("*")) == []


def test_a_one_shot_request_creates_no_cache_directory(emulator, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {**base_env(home), "SUPABASE_URL": emulator.base, "SUPABASE_ANON_KEY": emulator.anon_key,
           "SUPABASE_SERVICE_ROLE_KEY": emulator.service_role_key}
    run(["user", "show", "nobody@example.com"], env)
    created = sorted(str(p.relative_to(home)) for p in home.rglob("*"))
    assert all(path.startswith("state") or path.startswith("config") for path in created), created


def test_an_https_request_creates_no_cache_or_cookie_directory(tmp_path):
    # HTTPS goes through libcurl (a closed port: the request fails at once, exit 3); URLSession,
    # used before, made ~/.cache/org.swift.foundation.URLCache and ~/.local/share/bin.
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "SUPABASE_URL": "https://127.0.0.1:9",
           "SUPABASE_ANON_KEY": "anon-key", "AUTHSH_CREDENTIAL_STORE": "file", "PW": "correct-horse-1"}
    result = subprocess.run([authsh_binary(), "login", "ada@example.com", "--password-env", "PW"], env=env,
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                            preexec_fn=lambda: os.umask(0))
    assert result.returncode == 3, result.stdout + result.stderr
    assert list(home.rglob("*")) == []


def test_an_interrupted_change_is_logged_as_perhaps_applied(emulator, tmp_path):
    emu = emulator
    made = admin(emu).create_user({"email": "ada@example.com", "password": PASSWORD, "email_confirm": False}).user
    # The change itself is slow to answer: Ctrl-C arrives while it is in flight.
    slow = {"method": "PUT", "path": f"/auth/v1/admin/users/{made.id}", "latency_ms": 3000, "times": 5}
    requests.put(f"{emu.base}/emulator/v1/faults", json={"faults": [slow]}, timeout=5).raise_for_status()
    env = {**base_env(tmp_path), "SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
           "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key}
    process = subprocess.Popen([authsh_binary(), "user", "confirm", "ada@example.com", "--json"], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 130, err
    doc = json.loads(out)
    assert doc["ok"] is False and doc["error"]["code"] == "cancelled"
    lines = [json.loads(line) for line in (tmp_path / "state" / "authsh" / "audit.jsonl").read_text().splitlines()]
    assert [(e["outcome"], e.get("note")) for e in lines] == [("started", None), ("cancelled", "may have been applied")]


# ---- config.toml another user controls (ssh's StrictModes) ---------------------------------------

def _config_env(tmp_path):
    return {**base_env(tmp_path), "SUPABASE_URL": "http://127.0.0.1:9", "SUPABASE_ANON_KEY": "anon-key-for-tests"}


def _write_config(path: Path):
    path.write_text('[profiles.default]\nprovider = "supabase"\nurl = "http://127.0.0.1:9"\n')
    os.chmod(path, 0o600)


@pytest.mark.parametrize("case", ["link-target-writable", "ancestor-writable", "foreign-owner", "foreign-link-target"])
def test_a_config_another_user_controls_is_refused(tmp_path, case):
    if case.startswith("foreign") and os.geteuid() != 0:
        pytest.skip("chown to nobody needs root")
    config_dir = tmp_path / "config" / "authsh"
    config_dir.mkdir(parents=True)
    config = config_dir / "config.toml"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "real.toml"
    if case == "link-target-writable":
        _write_config(target)
        os.chmod(target, 0o666)
        config.symlink_to(target)
        named, fix = str(target), f"chmod go-w {target}"
    elif case == "ancestor-writable":
        _write_config(config)
        os.chmod(tmp_path / "config", 0o777)
        named, fix = str(tmp_path / "config"), f"chmod go-w {tmp_path / 'config'}"
    elif case == "foreign-owner":
        _write_config(config)
        os.chown(config, 65534, 65534)
        named, fix = "is owned by", "chown"
    else:
        _write_config(target)
        os.chown(target, 65534, 65534)
        config.symlink_to(target)
        named, fix = str(target), "chown"
    result = run(["status", "--json"], _config_env(tmp_path))
    assert result.returncode == 78, result.stdout + result.stderr
    doc = json.loads(result.stdout)
    assert doc["error"]["code"] == "config_error"
    assert doc["error"]["message"].startswith(f"Refusing to use {config}: ")
    assert named in doc["error"]["message"]
    assert fix in doc["error"]["hint"]


def test_a_config_in_a_sticky_root_directory_tree_is_used(tmp_path):
    config_dir = tmp_path / "config" / "authsh"
    config_dir.mkdir(parents=True)
    _write_config(config_dir / "config.toml")
    result = run(["status", "--json"], _config_env(tmp_path))
    assert result.returncode != 78, result.stdout + result.stderr


def test_an_audit_log_others_can_write_is_refused_saying_write(emulator, tmp_path):
    """Issue 48: mode 0602 is refused because others can WRITE it (it used to say "read")."""
    admin(emulator).create_user({"email": "ada@example.com", "password": PASSWORD, "email_confirm": True})
    state = tmp_path / "state" / "authsh"
    state.mkdir(parents=True, mode=0o700)
    log = state / "audit.jsonl"
    log.write_text("")
    os.chmod(log, 0o602)
    env = {**base_env(tmp_path), "SUPABASE_URL": emulator.base, "SUPABASE_ANON_KEY": emulator.anon_key,
           "SUPABASE_SERVICE_ROLE_KEY": emulator.service_role_key}
    result = run(["user", "disable", "ada@example.com", "--yes", "--json"], env)
    assert result.returncode == 74, result.stderr
    doc = json.loads(result.stdout)
    assert doc["error"]["code"] == "audit_unavailable"
    assert "other users can write to it (mode 0602)" in doc["error"]["message"]
    assert "can read" not in doc["error"]["message"]
