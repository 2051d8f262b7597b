"""Ctrl-C at `mfa enroll`'s code prompt, on a real pty (pexpect), for the seeded ada@example.com: the factor GoTrue already made
is named with the command that removes it (and `mfa list` / `mfa remove` agree); on Firebase,
where a factor exists only once its first code is accepted, it says nothing was enrolled."""
import json
import subprocess

import pexpect
import pytest

from conftest import ROOT, authsh_binary, start_emulator, user_env

PASSWORD = "correct-horse-1"


SEED = ROOT / "examples" / "accounts.jsonl"


@pytest.fixture
def emu():
    emulator = start_emulator("--seed", str(SEED))
    yield emulator
    emulator.stop()


def authsh(env, *args):
    return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)


def signed_in(emu, provider, home, email):
    env = user_env(home, emu, provider, PW=PASSWORD, TERM="xterm")
    if provider == "firebase":
        env["FIREBASE_API_KEY"] = emu.api_key
    done = authsh(env, "login", email, "--password-env", "PW")
    assert done.returncode == 0, done.stderr
    return env


def interrupt_at_the_code_prompt(env, *extra):
    child = pexpect.spawn(authsh_binary(), ["mfa", "enroll", "--name", "laptop", *extra], env=env,
                          encoding="utf-8", timeout=30, dimensions=(60, 200))
    child.expect_exact("Code from your authenticator app: ")
    child.sendintr()
    child.expect(pexpect.EOF)
    text = child.before
    child.close()
    return text, child.exitstatus, child.signalstatus


def test_supabase_names_the_unverified_factor_and_how_to_remove_it(emu, tmp_path):
    env = signed_in(emu, "supabase", tmp_path, "ada@example.com")
    text, status, signal = interrupt_at_the_code_prompt(env)
    factors = json.loads(authsh(env, "mfa", "list", "--json").stdout)["factors"]
    assert [(f["name"], f["status"]) for f in factors] == [("laptop", "unverified")]
    factor_id = factors[0]["id"]
    assert f"authsh mfa remove {factor_id}" in text, text
    assert "left unverified" in text and "laptop" in text, text
    assert "may already have reached the server" not in text, text
    assert status == 130 or signal is not None, (status, signal, text)

    removed = authsh(env, "mfa", "remove", factor_id, "--yes")
    assert removed.returncode == 0, removed.stderr
    assert json.loads(authsh(env, "mfa", "list", "--json").stdout)["factors"] == []


def test_firebase_says_nothing_was_enrolled(emu, tmp_path):
    env = signed_in(emu, "firebase", tmp_path, "ada@example.com")
    text, status, _ = interrupt_at_the_code_prompt(env)
    assert "Nothing was enrolled" in text, text
    assert "may already have reached the server" not in text, text
    assert json.loads(authsh(env, "mfa", "list", "--json").stdout)["factors"] == []


def test_the_shell_says_the_same(emu, tmp_path):
    env = signed_in(emu, "supabase", tmp_path, "ada@example.com")
    child = pexpect.spawn(authsh_binary(), [], env=env, encoding="utf-8", timeout=30, dimensions=(60, 200))
    child.expect(r"\$ |> ")
    child.sendline("mfa enroll --name desk")
    child.expect_exact("Code from your authenticator app: ")
    child.sendintr()
    # The hint is wrapped to the window at a space: the id may start a line of its own.
    child.expect(r"authsh mfa remove\s+([0-9a-f-]{36})")
    factor_id = child.match.group(1)
    child.sendline("exit")
    child.expect(pexpect.EOF)
    factors = json.loads(authsh(env, "mfa", "list", "--json").stdout)["factors"]
    assert [(f["id"], f["status"]) for f in factors] == [(factor_id, "unverified")]
