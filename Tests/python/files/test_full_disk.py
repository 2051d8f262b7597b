"""Issue 20 items 5, 6 and 7 on a real full disk: a small tmpfs, filled up.

Mounting needs root (CI runs as root); elsewhere these tests are skipped with that reason.
"""
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary, start_emulator

PASSWORD = "correct-horse-1"

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root (CI runs as root)")


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB tmpfs; `fill(leave)` fills it up, leaving about `leave` bytes free."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", str(mount_point)], check=True)

    class Disk:
        path = mount_point

        @staticmethod
        def fill(leave=0):
            filler = mount_point / "filler"
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                while os.write(fd, b"\0" * 4096) > 0:
                    pass
            except OSError:
                pass
            finally:
                os.close(fd)
            if leave:
                size = filler.stat().st_size
                os.truncate(filler, max(0, size - leave))

    yield Disk
    subprocess.run(["umount", "-l", str(mount_point)], check=False)


def env_for(home: Path, state: Path, emu) -> dict:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(state), "NO_COLOR": "1",
            "AUTHSH_CREDENTIAL_STORE": "file", "SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
            "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key, "AUTHSH_TEST_PW": PASSWORD}


def run(args, env):
    return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)


def admin(emu):
    key = emu.service_role_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False).admin


def test_login_on_a_full_disk_exits_74_saying_the_server_signed_in(emulator, small_disk, tmp_path):
    admin(emulator).create_user({"email": "ada@example.com", "password": PASSWORD, "email_confirm": True})
    (small_disk.path / "authsh" / "sessions").mkdir(parents=True, mode=0o700)
    small_disk.fill()
    result = run(["login", "ada@example.com", "--password-env", "AUTHSH_TEST_PW"], env_for(tmp_path, small_disk.path, emulator))
    assert result.returncode == 74, result.stderr
    assert "Signed in as ada@example.com, but the session could not be saved:" in result.stderr
    assert "No space left on device" in result.stderr
    assert "config_error" not in result.stderr


def test_signup_on_a_full_disk_says_the_account_exists(emulator, small_disk, tmp_path):
    (small_disk.path / "authsh" / "sessions").mkdir(parents=True, mode=0o700)
    small_disk.fill()
    result = run(["signup", "bob@example.com", "--name", "Bob", "--password-env", "AUTHSH_TEST_PW", "--json"],
                 env_for(tmp_path, small_disk.path, emulator))
    assert result.returncode == 74, result.stderr
    doc = json.loads(result.stdout)
    assert doc["error"]["code"] == "session_not_saved"
    assert doc["error"]["message"].startswith("The account bob@example.com exists and is signed in, but the session could not be saved:")
    users = admin(emulator).list_users()
    assert [u.email for u in users] == ["bob@example.com"]


def test_audit_appends_on_a_full_disk_leave_only_whole_lines(emulator, small_disk, tmp_path):
    a = admin(emulator)
    for n in range(40):
        a.create_user({"email": f"user{n}@example.com", "password": PASSWORD, "email_confirm": False})
    state = small_disk.path / "authsh"
    state.mkdir(mode=0o700)
    small_disk.fill(leave=4096)
    env = env_for(tmp_path, small_disk.path, emulator)
    succeeded = []
    refused = None
    for n in range(40):
        result = run(["user", "confirm", f"user{n}@example.com"], env)
        if result.returncode == 0:
            succeeded.append(f"user{n}@example.com")
            continue
        refused = result
        break
    assert refused is not None, "4 KiB fills up"
    assert refused.returncode == 74, refused.stderr
    assert "audit_unavailable" in refused.stderr
    assert "No space left on device" in refused.stderr
    text = (state / "audit.jsonl").read_text()
    assert text.endswith("\n")
    entries = [json.loads(line) for line in text.splitlines()]  # every line parses
    assert [e["target_email"] for e in entries if e["outcome"] == "ok"] == succeeded
    # Nothing the log does not show was changed on the server.
    confirmed = sorted(u.email for u in a.list_users() if u.email_confirmed_at)
    logged = sorted({e["target_email"] for e in entries})
    assert set(confirmed) <= set(logged)
    listing = run(["audit", "--json"], env)
    assert "could not be read" not in listing.stdout + listing.stderr


def test_emulator_state_on_a_full_disk_keeps_every_acknowledged_account(small_disk, tmp_path):
    state_file = small_disk.path / "state.db"
    emu = start_emulator("--state", str(state_file))
    acknowledged = []
    try:
        for n in range(2000):
            email = f"signup{n}@example.com"
            try:
                r = requests.post(f"{emu.supabase_url}/signup", json={"email": email, "password": PASSWORD},
                                  headers={"apikey": emu.anon_key}, timeout=10)
            except requests.RequestException:
                break
            if r.status_code == 200:
                acknowledged.append(email)
            elif r.status_code >= 500:
                break
        else:
            pytest.fail("256 KiB never filled up")
        assert acknowledged, "some sign-ups fit"
    finally:
        emu.process.send_signal(signal.SIGTERM)
        out, _ = emu.process.communicate(timeout=20)
    # The checkpoint could not run on the full disk: said so, exit non-zero, the -wal kept.
    assert emu.process.returncode != 0, out
    assert "the emulator state was not saved cleanly" in out, out
    assert Path(str(state_file) + "-wal").exists()
    # Room again, then a restart with both files: every acknowledged account is there.
    subprocess.run(["mount", "-o", "remount,size=4m", str(small_disk.path)], check=True)
    again = start_emulator("--state", str(state_file))
    try:
        emails = set()
        page = 1
        while True:
            users = admin(again).list_users(page=page, per_page=1000)
            if not users:
                break
            emails.update(u.email for u in users)
            page += 1
        assert set(acknowledged) <= emails, f"lost: {sorted(set(acknowledged) - emails)[:5]}"
    finally:
        again.stop()


def test_six_writers_on_a_full_disk_leave_only_whole_lines(emulator, small_disk, tmp_path):
    """Six authsh processes appending at once as the disk fills, round after round: each append and
    its repair hold the log's lock, so a cut-back never removes another writer's line nor leaves a
    fragment at the end."""
    a = admin(emulator)
    for n in range(6):
        a.create_user({"email": f"user{n}@example.com", "password": PASSWORD, "email_confirm": False})
    state = small_disk.path / "authsh"
    state.mkdir(mode=0o700)
    env = env_for(tmp_path, small_disk.path, emulator)
    log = state / "audit.jsonl"
    for round in range(12):
        if log.exists():
            log.unlink()
        (small_disk.path / "filler").unlink(missing_ok=True)
        small_disk.fill(leave=1024 + 97 * round)
        writers = [subprocess.Popen([authsh_binary(), "user", "disable", f"user{n}@example.com", "--yes"], env=env,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                   for n in range(6)]
        for writer in writers:
            writer.wait(timeout=60)
        text = log.read_text() if log.exists() else ""
        assert text == "" or text.endswith("\n"), f"round {round}: a fragment at the end: {text[-80:]!r}"
        for line in text.splitlines():
            json.loads(line)  # every line parses


def test_an_export_to_a_file_on_a_full_disk_leaves_nothing_and_exits_74(emulator, small_disk, tmp_path):
    a = admin(emulator)
    for n in range(40):
        a.create_user({"email": f"export{n}@example.com", "password": PASSWORD, "email_confirm": True})
    small_disk.fill(leave=2048)
    env = env_for(tmp_path, tmp_path / "state", emulator)
    target = small_disk.path / "users.jsonl"
    result = run(["user", "export", "--output", str(target)], env)
    assert result.returncode == 74, result.stderr
    assert "Stopped after" in result.stderr and "No space left on device" in result.stderr
    assert f"Nothing was left in {target}" in result.stderr and "(output_not_written)" in result.stderr
    assert not target.exists()
    assert [p.name for p in small_disk.path.iterdir()] == ["filler"]


def test_a_refresh_whose_tokens_cannot_be_saved_exits_74_session_not_saved(emulator, small_disk, tmp_path):
    """Issue 48: the refresh was sent and the server rotated the token, so a save that fails is an
    I/O failure (74 session_not_saved), not a configuration found before sending (78)."""
    admin(emulator).create_user({"email": "ada@example.com", "password": PASSWORD, "email_confirm": True})
    env = env_for(tmp_path, small_disk.path, emulator)
    login = run(["login", "ada@example.com", "--password-env", "AUTHSH_TEST_PW"], env)
    assert login.returncode == 0, login.stderr
    small_disk.fill()
    result = run(["refresh", "--json"], env)
    assert result.returncode == 74, result.stdout + result.stderr
    doc = json.loads(result.stdout)
    assert doc["ok"] is False and doc["error"]["code"] == "session_not_saved"
    assert doc["error"]["message"].startswith("The tokens were refreshed, but the new session could not be saved:")
    assert "No space left on device" in doc["error"]["message"]
    assert "config_error" not in result.stdout + result.stderr
