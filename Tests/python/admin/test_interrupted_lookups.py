"""Issue 20 item 8: SIGINT or SIGTERM on a one-shot command prints what is done.

`user show --from` of many addresses against a slow emulator, interrupted part-way: with `--json`
the finished lookups and an `"ok": false` / cancelled object come out on standard output, in human
mode the finished rows; the exit status is 130 (SIGINT) or 143 (SIGTERM).
"""
import json
import os
import signal
import subprocess
import time

import pytest
import requests

from conftest import authsh_binary


def start(emu, tmp_path, *flags):
    addresses = tmp_path / "addresses.txt"
    addresses.write_text("".join(f"nobody{n}@example.com\n" for n in range(2000)))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
           "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key, "NO_COLOR": "1"}
    return subprocess.Popen([authsh_binary(), "user", "show", "--from", str(addresses), "--jobs", "1", *flags],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_json_prints_the_finished_lookups_and_an_interrupted_error(emulator_factory, tmp_path, sig, status):
    emu = emulator_factory("--latency-ms", "10")
    process = start(emu, tmp_path, "--json")
    time.sleep(1.5)
    assert process.poll() is None, "still looking up when interrupted"
    process.send_signal(sig)
    out, err = process.communicate(timeout=20)
    assert process.returncode == status, err
    doc = json.loads(out)
    assert doc["ok"] is False
    assert doc["error"]["code"] == "cancelled"
    assert "Interrupted" in doc["error"]["message"]
    finished = doc["users"]
    assert 0 < len(finished) < 2000
    assert [u["query"] for u in finished] == [f"nobody{n}@example.com" for n in range(len(finished))]
    assert all(u["error"]["code"] == "user_not_found" for u in finished)
    assert "Cancelled." in err


def test_human_mode_prints_the_finished_rows(emulator_factory, tmp_path):
    emu = emulator_factory("--latency-ms", "10")
    process = start(emu, tmp_path)
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 130, err
    assert "nobody0@example.com" in out
    assert "nobody1999@example.com" not in out
    assert "Cancelled." in err


def one_shot(emu, tmp_path, *args):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key, "PW": "long-enough-1", "NO_COLOR": "1"}
    return subprocess.Popen([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_cancelled_signup_says_the_account_may_exist(emulator_factory, tmp_path):
    """The sign-up reached the server, which went on with it: "Cancelled." alone let the person
    try again and meet user_already_exists. A command that only reads says nothing more."""
    emu = emulator_factory()
    for path in ("/auth/v1/signup", "/auth/v1/token"):
        fault = {"method": "POST", "path": path, "times": 1, "latency_ms": 3000}
        assert requests.post(f"{emu.base}/emulator/v1/faults", json=fault, timeout=5).status_code == 200
    process = one_shot(emu, tmp_path, "signup", "slow@example.com", "--name", "Slow", "--password-env", "PW")
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 130, err
    assert "Cancelled." in err
    assert "may already have reached the server and been applied: check before trying 'signup' again" in err
    reader = one_shot(emu, tmp_path, "login", "slow@example.com", "--password-env", "PW")
    time.sleep(1.5)
    reader.send_signal(signal.SIGINT)
    out, err = reader.communicate(timeout=20)
    assert reader.returncode == 130 and "Cancelled." in err
    assert "may already have reached" not in err
