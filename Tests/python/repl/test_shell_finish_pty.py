"""Fit and finish of the shell and one-shot commands on a real pseudo-terminal (issue 14):
`{{…}}` holes in typed lines, a missing e-mail or name asked for, a mistyped confirmation asked
again, Ctrl-C during a one-shot's spinner, and errors in the startup file named `rc:LINE`."""
import os
import socket
import subprocess

import pexpect
import pytest

from conftest import authsh_binary
from test_oneshot_pty import OneShot, one_shot
from test_repl_pty import PASSWORD, Shell, environment, history_file, provider, supabase_side_missing  # noqa: F401 (provider: a shared fixture)

NEW_PASSWORD = "a-brand-new-password-7"


@pytest.fixture
def env(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    env.pop("CI", None)
    return env


def test_holes_are_filled_from_the_previous_result_and_the_environment(env, emulator, tmp_path):
    one_shot(env, "signup", "ada@example.com", "--name", "Ada", "--password-env", "PW")
    shell = Shell({**env, "GREETING": "hello-from-env"})
    assert "hello-from-env" in shell.run("echo {{env.GREETING}}")
    shell.run("reset ada@example.com")
    shell.run("inbox ada@example.com")
    link = emulator.outbox("ada@example.com")[-1]["link"]
    # `echo` gives no result: the hole below still reads the inbox.
    shell.run("echo about to confirm")
    shell.child.sendline("reset confirm {{inbox.link}}")
    shell.answer("New password: ", NEW_PASSWORD)
    shell.answer("Confirm password: ", NEW_PASSWORD)
    shell.child.expect("ada@example.com> $")
    assert "Password changed." in shell.child.before
    assert "ada@example.com" in shell.run("whoami")
    listing = shell.run("history")
    assert "reset confirm {{inbox.link}}" in listing or "reset confirm ***" in listing
    assert link not in listing
    assert shell.exit_with_ctrl_d() == 0
    text = history_file(tmp_path).read_text()
    assert link not in text and link.split("?", 1)[-1] not in text
    assert NEW_PASSWORD not in shell.screen.getvalue()


def test_an_unknown_hole_is_a_clear_error_and_runs_nothing(env):
    shell = Shell(env)
    out = shell.run("login {{nosuch}} --password-env PW")
    assert "error: undefined variable 'nosuch'" in out
    assert "Password" not in out and "Invalid" not in out  # nothing ran
    out = shell.run("reset confirm {{inbox.link}}")
    assert "no previous result for '{{inbox.link}}'" in out and "New password" not in out
    out = shell.run("echo {{env.AUTHSH_SURELY_UNSET}}")
    assert "environment variable 'AUTHSH_SURELY_UNSET' is not set" in out
    assert shell.exit_with_ctrl_d() == 0


def test_the_shell_asks_for_a_missing_email_and_name(env):
    shell = Shell(env)
    c = shell.child
    c.sendline("signup")
    c.expect_exact("Email: ")
    c.sendline("grace@example.com")
    c.expect_exact("Name: ")
    c.sendline("Grace Hopper")
    shell.answer("New password: ", PASSWORD)
    shell.answer("Confirm password: ", PASSWORD)
    c.expect("grace@example.com> $")
    shell.run("logout")
    c.sendline("login")
    c.expect_exact("Email: ")
    c.sendline("grace@example.com")
    shell.answer("Password: ", PASSWORD)
    c.expect("grace@example.com> $")
    assert "Grace Hopper" in shell.run("whoami")
    assert "Email: grace@example.com\r\n" in shell.screen.getvalue()  # echoed as typed, unlike passwords
    assert shell.exit_with_ctrl_d() == 0
    assert PASSWORD not in shell.screen.getvalue()


def test_a_mistyped_confirmation_asks_again(env):
    shell = Shell(env)
    c = shell.child
    c.sendline("signup linus@example.com --name Linus")
    shell.answer("New password: ", PASSWORD)
    shell.answer("Confirm password: ", NEW_PASSWORD)
    c.expect_exact("Passwords do not match. Try again.")
    shell.answer("New password: ", PASSWORD)
    shell.answer("Confirm password: ", PASSWORD)
    c.expect("linus@example.com> $")
    assert "Passwords do not match. Try again." in shell.screen.getvalue()
    # Three misses in a row: the command fails as before, with the field error.
    shell.run("logout")
    c.sendline("signup other@example.com --name Other")
    for _ in range(3):
        shell.answer("New password: ", PASSWORD)
        shell.answer("Confirm password: ", NEW_PASSWORD)
    shell.prompt()
    assert "Passwords do not match" in c.before
    assert shell.exit_with_ctrl_d() == 0


def test_a_one_shot_asks_for_a_missing_email_on_a_terminal_only(env):
    one_shot(env, "signup", "cy@example.com", "--name", "Cy", "--password-env", "PW")
    run = OneShot(env, "login")
    run.child.expect_exact("Email: ")
    run.child.sendline("cy@example.com")
    run.child.expect_exact("Password: ")
    run.child.sendline(PASSWORD)
    run.child.expect_exact("cy@example.com")
    assert run.finish() == 0
    run = OneShot(env, "reset")
    run.child.expect_exact("Email: ")
    run.child.sendline("cy@example.com")
    run.child.expect_exact("Sent a password-reset e-mail to cy@example.com")
    assert run.finish() == 0
    # Piped: no prompt, today's error.
    done = subprocess.run([authsh_binary(), "login", "--password-env", "PW"], env={**env, "PW": PASSWORD},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Email is required" in done.stderr and "Email: " not in done.stderr


def test_ctrl_c_during_a_one_shot_spinner_leaves_a_clean_line(tmp_path):
    # A server that accepts connections and never answers.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    try:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("SUPABASE_", "FIREBASE_", "AUTHSH_", "XDG_", "CI"))}
        env.update(HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"),
                   XDG_CONFIG_HOME=str(tmp_path / "config"), TERM="xterm", LANG="C.UTF-8", NO_COLOR="1",
                   SUPABASE_URL=f"http://127.0.0.1:{port}", SUPABASE_ANON_KEY="anon", PW=PASSWORD)
        run = OneShot(env, "login", "ada@example.com", "--password-env", "PW")
        run.child.expect_exact(f"Signing in to 127.0.0.1:{port}…")
        run.child.sendcontrol("c")
        run.child.expect_exact("Cancelled.")
        assert run.finish() == 130
        screen = run.screen.getvalue()
        last = screen[screen.rindex("\x1b[K") + len("\x1b[K"):]
        assert last.strip() == "Cancelled."  # the spinner's line is gone, nothing else follows
    finally:
        silent.close()


def test_errors_in_the_startup_file_name_rc_and_the_line(env, tmp_path):
    rc = tmp_path / "config" / "authsh" / "rc"
    rc.parent.mkdir(parents=True, exist_ok=True)
    rc.write_text("echo first line runs\nlogn ada@example.com\nsleep 2x\n")
    child = pexpect.spawn(authsh_binary(), [], env=env, encoding="utf-8", timeout=15, dimensions=(40, 160))
    child.expect(r"> $")
    before = child.before
    assert "first line runs" in before
    assert "--> rc:2" in before and "--> rc:3" in before
    assert before.index("unknown command") < before.index("--> rc:2")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
