"""Terminals people really have (issue 48): under LANG=C every mark authsh prints is ASCII and
`mfa enroll` prints the secret and the URI instead of a QR code; in a 40-column window text wraps
at spaces, tables stack as `key: value` lines and a QR code that does not fit becomes a note."""
import subprocess
import time
import uuid

import pexpect
import pytest

from conftest import authsh_binary
from test_repl_pty import PASSWORD, environment, supabase_side_missing

WIDTH = 40
CODE_PROMPT = "Code from your authenticator app: "


@pytest.fixture
def env(tmp_path, emulator):
    if supabase_side_missing(emulator):
        pytest.skip("the emulator in this build has no Supabase side yet")
    env = environment(tmp_path, emulator, "supabase")
    env["SUPABASE_SERVICE_ROLE_KEY"] = emulator.service_role_key
    env["PW"] = PASSWORD
    env.pop("CI", None)
    return env


def no_terminal(env, *args, check=True):
    done = subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)
    assert not check or done.returncode == 0, done.stderr
    return done


def seed(env):
    """Two accounts: one confirmed, one not (diagnose has a finding and a fix for it)."""
    no_terminal(env, "user", "create", "ada@example.com", "--confirmed", "--password-env", "PW")
    no_terminal(env, "user", "create", "grace.hopper.unconfirmed@example.com", "--password-env", "PW")


def on_pty(env, *args, columns=160):
    """The bytes a terminal is sent by `authsh ARGS…` (stdout and stderr both on the pty)."""
    child = pexpect.spawn(authsh_binary(), list(args), env=env, timeout=30, dimensions=(50, columns))
    child.expect(pexpect.EOF)
    child.close()
    return child.before, child.exitstatus


def assert_ascii(screen: bytes):
    high = sorted({b for b in screen if b >= 0x80})
    assert not high, f"bytes >= 0x80 on a LANG=C terminal: {screen!r}"


# --- LANG=C: ASCII only --------------------------------------------------------------------------

def test_lang_c_diagnose_user_show_and_a_failing_run_print_ascii(env, tmp_path):
    seed(env)
    c = {**env, "LANG": "C", "LC_ALL": "", "LC_CTYPE": ""}
    screen, status = on_pty(c, "diagnose", "grace.hopper.unconfirmed@example.com")
    assert status == 1 and b"fix:" in screen and b"x grace.hopper" in screen, screen  # 1: cannot sign in
    assert_ascii(screen)
    screen, status = on_pty(c, "user", "show", "ada@example.com", "nobody@example.com")
    assert b"no such account" in screen and b"name" in screen
    assert_ascii(screen)
    script = tmp_path / "fails.auth"
    script.write_text('test "wrong password"\nlogin ada@example.com --password "wrong-password-9"\nexpect ok\n')
    screen, status = on_pty(c, "run", str(script))
    assert status == 1 and b"wrong password" in screen
    assert_ascii(screen)
    # The same under a UTF-8 locale shows the marks (the locale decides, nothing else).
    screen, _ = on_pty(env, "diagnose", "grace.hopper.unconfirmed@example.com")
    assert "✗".encode() in screen


def test_lang_c_mfa_enroll_prints_the_secret_and_uri_instead_of_a_qr_code(env):
    seed(env)
    c = {**env, "LANG": "C"}
    no_terminal(c, "login", "ada@example.com", "--password-env", "PW")
    child = pexpect.spawn(authsh_binary(), ["mfa", "enroll", "--name", "phone"], env=c, timeout=30,
                          dimensions=(50, 160))
    child.expect_exact(CODE_PROMPT.encode())
    screen = child.before
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    assert b"otpauth://totp/" in screen and b"secret  " in screen and b"not UTF-8" in screen
    assert_ascii(screen)


# --- 40 columns: wrapped at spaces, tables stacked, no QR code ------------------------------------

class Pane:
    """A 40-column tmux window running one command; `text()` is the screen, wrapped lines joined."""

    def __init__(self, env, command):
        self.socket = f"authsh-{uuid.uuid4().hex[:8]}"
        shell = " ".join(["'" + word.replace("'", "'\\''") + "'" for word in command])
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-x", str(WIDTH), "-y",
                        "200", "-s", "t", f"{shell}; echo __done__; sleep 60"], env=env, check=True, timeout=10)

    def text(self):
        return subprocess.run(["tmux", "-L", self.socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "t"],
                              capture_output=True, text=True, check=True, timeout=10).stdout

    def wait_for(self, marker, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text()
            if marker in text:
                return text
            time.sleep(0.2)
        raise AssertionError(f"{marker!r} never showed:\n{self.text()}")

    def keys(self, *keys):
        subprocess.run(["tmux", "-L", self.socket, "send-keys", "-t", "t", *keys], check=True, timeout=10)

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def in_pane(env, *args, marker="__done__"):
    pane = Pane(env, [authsh_binary(), *args])
    try:
        return pane.wait_for(marker)
    finally:
        pane.close()


def assert_fits(text):
    """No line wider than the window, except one long word alone (a URL), which is never broken."""
    for line in text.splitlines():
        line = line.rstrip()
        if len(line) > WIDTH:
            assert " " not in line.strip(), f"a {len(line)}-column line in a {WIDTH}-column window: {line!r}"


def test_forty_columns_user_show_diagnose_and_user_list(env):
    seed(env)
    no_terminal(env, "user", "update", "ada@example.com", "--name",
                "Augusta Ada King, Countess of Lovelace and first programmer")
    shown = in_pane(env, "user", "show", "ada@example.com")
    assert_fits(shown)
    joined = " ".join(shown.split())
    assert "Augusta Ada King, Countess of Lovelace and first programmer" in joined
    diagnosed = in_pane(env, "diagnose", "grace.hopper.unconfirmed@example.com")
    assert_fits(diagnosed)
    assert "fix:" in diagnosed
    listed = in_pane(env, "user", "list")
    assert_fits(listed)
    # The five columns do not fit in 40: each account is stacked as `column: value` lines.
    assert "email: ada@example.com" in listed and "confirmed: yes" in listed and "EMAIL  " not in listed
    # A window wide enough keeps the table.
    assert "EMAIL" in no_terminal(env, "user", "list").stdout


def test_forty_columns_mfa_enroll_replaces_the_qr_code_with_a_note(env):
    seed(env)
    no_terminal(env, "login", "ada@example.com", "--password-env", "PW")
    pane = Pane(env, [authsh_binary(), "mfa", "enroll", "--name", "phone"])
    try:
        text = pane.wait_for(CODE_PROMPT.strip())
        pane.keys("C-c")
    finally:
        pane.close()
    assert "too narrow" in " ".join(text.split())
    assert "█" not in text and "▀" not in text and "▄" not in text
    assert "otpauth://totp/" in text and "secret" in text
    assert_fits(text)
