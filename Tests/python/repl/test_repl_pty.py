"""The interactive shell on a real pseudo-terminal (issue 4): the real binary, libedit, the
no-echo password prompt, Ctrl-C, Ctrl-D and the history file, against the real emulator."""
import io
import re
import shutil
import stat
import subprocess
import termios
import time

import pexpect
import pytest
import requests

from conftest import authsh_binary, user_env

PASSWORD = "correct-horse-battery-1"
WRONG = "wrong-password-zebra-9"
TYPED_ON_LINE = "typed-on-the-line-42"


def supabase_side_missing(emulator) -> bool:
    """The Supabase side of the emulator answers its routes (it lands separately)."""
    r = requests.post(f"{emulator.base}/auth/v1/token?grant_type=password", json={}, timeout=5,
                      headers={"apikey": emulator.anon_key})
    return r.status_code == 404


@pytest.fixture(params=["supabase", "firebase"])
def provider(request, emulator):
    if request.param == "supabase" and supabase_side_missing(emulator):
        pytest.skip("the emulator in this build has no Supabase side yet")
    return request.param


@pytest.fixture
def home(tmp_path):
    return tmp_path


def environment(home, emulator, provider):
    return user_env(home, emulator, provider, TERM="xterm")


class Shell:
    """authsh on a pty; `screen` is everything the terminal was sent."""

    def __init__(self, env):
        self.screen = io.StringIO()
        self.child = pexpect.spawn(authsh_binary(), ["--no-rc"], env=env, encoding="utf-8", timeout=15,
                                   dimensions=(40, 160))
        self.child.logfile_read = self.screen
        self.prompt()

    def prompt(self):
        self.child.expect(r"> $")

    def run(self, line):
        self.child.sendline(line)
        self.prompt()
        return self.child.before

    def answer(self, prompt, secret):
        self.child.expect(prompt)
        self.child.sendline(secret)

    def exit_with_ctrl_d(self):
        self.child.sendcontrol("d")
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


@pytest.fixture
def shell(home, emulator, provider):
    s = Shell(environment(home, emulator, provider))
    yield s
    if s.child.isalive():
        s.child.terminate(force=True)


def history_file(home):
    return home / "state" / "authsh" / "history"


def test_tab_completes_commands_flags_and_provider_names(shell, provider):
    c = shell.child
    # `lo` Tab → `log` (common prefix); Tab again lists the choice; typing `out` makes `logout`.
    c.send("lo\t\t")
    c.expect(r"login\s+logout")
    c.send("out\r")
    shell.prompt()
    assert "You are not signed in." in c.before and "unknown command" not in c.before
    # Flags: `--cl` Tab → `--claims`; `--sc` Tab → `--scope `, whose values Tab Tab lists.
    c.send("whoami --cl\t\r")
    shell.prompt()
    assert "You are not signed in." in c.before and "unknown flag" not in c.before
    c.send("logout --sc\t\t\t")
    c.expect(r"global\s+local\s+others")
    c.send("loc\t\r")
    shell.prompt()
    assert "You are not signed in." in c.before and "error: --scope" not in c.before
    # Provider names.
    c.send("provider \t\t")
    c.expect(r"firebase\s+supabase")
    c.send(provider[:2] + "\t\r")  # completes to the provider this shell is configured for
    shell.prompt()
    assert f"provider  {provider}" in c.before
    # Ctrl-C clears a half-typed line.
    c.send("statu\t")
    c.sendcontrol("c")
    shell.prompt()
    assert shell.exit_with_ctrl_d() == 0


def test_signup_whoami_wrong_password_retry_login_status_then_ctrl_d(shell, provider):
    shell.child.sendline("signup ada@example.com --name 'Ada Lovelace'")
    shell.answer("New password: ", PASSWORD)
    shell.answer("Confirm password: ", PASSWORD)
    shell.child.expect("ada@example.com> $")
    assert "ada@example.com" in shell.run("whoami")
    shell.run("logout")
    shell.child.sendline("login ada@example.com")
    shell.answer("Password: ", WRONG)
    shell.prompt()
    assert "Invalid email or password" in shell.child.before
    shell.child.sendline("retry")
    shell.answer("Password: ", PASSWORD)  # nothing of the refused password was kept: it asks again
    shell.child.expect(f"{provider}:default ada@example.com> $")
    shell.child.sendline("login ada@example.com")
    shell.answer("Password: ", PASSWORD)
    shell.prompt()
    status = shell.run("status")
    assert provider in status and "ada@example.com" in status
    assert shell.exit_with_ctrl_d() == 0
    screen = shell.screen.getvalue()
    assert PASSWORD not in screen and WRONG not in screen


def test_password_typed_at_the_prompt_never_appears_on_screen(shell, emulator, provider):
    shell.child.sendline("signup grace@example.com --name Grace")
    shell.answer("New password: ", PASSWORD)
    shell.answer("Confirm password: ", PASSWORD)
    shell.prompt()
    shell.run("logout")
    shell.child.sendline("login grace@example.com")
    shell.answer("Password: ", PASSWORD)
    shell.prompt()
    assert "grace@example.com" in shell.run("whoami")
    shell.exit_with_ctrl_d()
    assert PASSWORD not in shell.screen.getvalue()


def test_hostile_display_name_shows_as_escapes_in_the_shell(shell, home, emulator, provider):
    """Issue 11 item 9: a name carrying clear-screen, an OSC title and a right-to-left override
    cannot drive the support person's terminal; `whoami` in the shell shows visible escapes."""
    hostile = "Eve\x1b[2J\x1b]0;pwned\x07\u202eexe.txt"
    env = environment(home, emulator, provider)
    env["PW"] = PASSWORD
    done = subprocess.run([authsh_binary(), "signup", "eve@example.com", "--name", hostile, "--password-env", "PW"],
                          env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    out = shell.run("whoami")
    assert "Eve\\e[2J\\e]0;pwned\\u{7}\\u{202E}exe.txt" in out
    screen = shell.screen.getvalue()
    assert "\x1b[2J" not in screen and "\x1b]0;" not in screen and "\u202e" not in screen
    assert shell.exit_with_ctrl_d() == 0


def test_ctrl_c_clears_the_line_and_cancels_a_request_but_never_exits(shell):
    c = shell.child
    c.send("whoami --cla")
    c.sendcontrol("c")
    shell.prompt()
    assert c.isalive()
    c.sendline("sleep 30")
    time.sleep(0.5)
    c.sendcontrol("c")
    c.expect("Cancelled.")  # `sleep 30` was cancelled, not waited out
    shell.prompt()
    c.sendline("login nobody@example.com")
    c.expect("Password: ")
    c.sendcontrol("c")  # cancels the password prompt, not the shell
    c.expect("Cancelled.")
    shell.prompt()
    assert "not signed in" in shell.run("status")
    assert c.isalive()
    assert shell.exit_with_ctrl_d() == 0


def test_history_file_is_0600_holds_whoami_and_no_password(shell, home):
    shell.child.sendline("signup linus@example.com --name Linus")
    shell.answer("New password: ", PASSWORD)
    shell.answer("Confirm password: ", PASSWORD)
    shell.prompt()
    shell.run("whoami")
    shell.run("logout")
    shell.child.sendline("login linus@example.com")
    shell.answer("Password: ", PASSWORD)
    shell.prompt()
    shell.run(f"login linus@example.com --password {TYPED_ON_LINE}")
    assert "warning:" in shell.child.before
    shell.run(f"login linus@example.com --password {PASSWORD}")
    shell.run(" status")
    assert shell.exit_with_ctrl_d() == 0
    path = history_file(home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    text = path.read_text()
    assert "whoami" in text.splitlines()
    assert PASSWORD not in text and TYPED_ON_LINE not in text and "--password" not in text
    assert "status" not in text  # typed with a leading space
    for leftover in (home / "state").rglob("*"):
        if leftover.is_file():
            assert PASSWORD not in leftover.read_text(errors="replace")


def test_history_is_recalled_in_the_next_shell(home, emulator, provider):
    first = Shell(environment(home, emulator, provider))
    first.run("echo remembered-line")
    first.exit_with_ctrl_d()
    second = Shell(environment(home, emulator, provider))
    time.sleep(0.2)
    second.child.send("\x1b[A")  # Up
    second.child.expect("echo remembered-line")
    second.child.sendcontrol("c")
    second.prompt()
    assert second.exit_with_ctrl_d() == 0


def test_piped_stdin_never_blocks_and_prints_no_prompt(home, emulator):
    env = environment(home, emulator, "firebase")
    done = subprocess.run([authsh_binary(), "--no-rc"], input="whoami\n", env=env, capture_output=True,
                          text=True, timeout=20)
    assert "> " not in done.stdout and "> " not in done.stderr
    assert "You are not signed in." in done.stderr
    assert done.returncode == 4  # as a one-shot whoami: not signed in
    assert not history_file(home).exists()


def test_argument_hints_in_grey_after_a_space(home, emulator, provider):
    env = environment(home, emulator, provider)
    del env["NO_COLOR"]  # grey needs colour
    shell = Shell(env)
    c = shell.child
    c.send("login ")
    c.expect(r"\x1b\[90m\[EMAIL\] \[--password VALUE\]")
    c.send("ada@example.com --remember ")
    c.expect(r"\x1b\[90m\[--password VALUE\] \[--password-env VAR\] \[--no-save\]")
    c.sendcontrol("c")
    shell.prompt()
    assert shell.exit_with_ctrl_d() == 0


def test_command_groups_hint_their_subcommands_and_holes_complete_names(home, emulator, provider):
    env = environment(home, emulator, provider)
    del env["NO_COLOR"]  # grey needs colour
    shell = Shell(env)
    c = shell.child
    c.send("user ")
    c.expect(r"\x1b\[90mshow\|list\|link\|confirm")
    c.send("link ")
    c.expect(r"\x1b\[90mrecovery\|confirm")
    c.sendcontrol("c")
    shell.prompt()
    # `{{` completes what is in scope: the previous result's fields and the builtins.
    shell.run("status")
    c.send("echo {{status.pro\t")
    c.expect(r"\{\{status\.pro")
    c.send("\t")
    c.expect(r"\{\{status\.profile\}\}\s+\{\{status\.provider\}\}")
    c.send("vider}}\r")
    shell.prompt()
    assert provider in c.before
    c.send("echo {{uu\t\r")
    shell.prompt()
    assert re.search(r"\n[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\r?\n", c.before), repr(c.before)
    assert shell.exit_with_ctrl_d() == 0


def test_no_color_turns_the_hints_off(shell):
    # Uncoloured hints would read as typed text: with NO_COLOR there are none.
    c = shell.child
    c.send("login ")
    with pytest.raises(pexpect.TIMEOUT):
        c.expect(r"\[EMAIL\] \[--password VALUE\]", timeout=1.5)
    c.sendcontrol("c")
    shell.prompt()
    assert "\x1b[90m" not in shell.screen.getvalue()
    assert shell.exit_with_ctrl_d() == 0


def test_the_shell_greets_once(shell):
    assert 'Type "help" for help.' in shell.screen.getvalue()
    assert shell.exit_with_ctrl_d() == 0


def test_editrc_is_read_under_the_name_authsh(home, emulator):
    (home / ".editrc").write_text("authsh:bind ^X ed-end-of-file\nother:bind ^Y ed-end-of-file\n")
    s = Shell(environment(home, emulator, "firebase"))
    s.child.sendcontrol("x")  # bound to end-of-file by ~/.editrc for programs named authsh
    s.child.expect(pexpect.EOF)
    s.child.close()
    assert s.child.exitstatus == 0


def terminal_modes(shell):
    """The local modes of the shell's terminal (on Linux, a pty master reports its slave's)."""
    return termios.tcgetattr(shell.child.child_fd)[3]


def test_a_ctrl_d_the_moment_the_prompt_shows_ends_the_shell(shell):
    # The terminal leaves line mode before the prompt is drawn: in line mode the terminal turns
    # Ctrl-D into end-of-file, which libedit, switching modes after the prompt, read as a NUL byte
    # and the shell kept waiting.
    for _ in range(3):
        modes = terminal_modes(shell)
        assert modes & termios.ICANON == 0 and modes & termios.ECHO == 0
        shell.run("echo next")
    # Once the line is read, the terminal is back in line mode with echo while the command runs.
    shell.child.sendline("sleep 3")
    shell.child.expect("sleep 3\r\n")
    deadline = time.monotonic() + 2.5
    while not terminal_modes(shell) & termios.ICANON and time.monotonic() < deadline:
        time.sleep(0.02)
    modes = terminal_modes(shell)
    assert modes & termios.ICANON and modes & termios.ECHO
    shell.prompt()
    assert shell.exit_with_ctrl_d() == 0


def test_a_slow_switch_of_terminal_modes_cannot_swallow_a_ctrl_d(home, emulator):
    # strace holds every ioctl back for 0.2 s, so a Ctrl-D sent the moment the prompt shows arrives
    # while the shell is still setting up the terminal: drawn before the switch, it hung the shell.
    if shutil.which("strace") is None or subprocess.run(["strace", "-o", "/dev/null", "true"]).returncode != 0:
        pytest.skip("strace cannot trace a process here")
    env = environment(home, emulator, "firebase")
    child = pexpect.spawn("strace", ["-f", "-o", "/dev/null", "-e", "inject=ioctl:delay_enter=200000",
                                     authsh_binary(), "--no-rc"],
                          env=env, encoding="utf-8", timeout=30, dimensions=(40, 160))
    child.delaybeforesend = None
    child.expect(r"> $")
    child.sendcontrol("d")
    child.expect(pexpect.EOF, timeout=15)
    child.close()
    assert child.exitstatus == 0
