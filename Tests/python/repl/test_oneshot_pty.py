"""One-shot commands and shell history on a real pseudo-terminal (issue 11): password prompts are
never drawn over by the spinner, `--password-stdin` is refused on a terminal, and recovery links
and codes stay out of the history file."""
import io
import subprocess
import time

import pexpect
import pytest
import requests

from conftest import authsh_binary
from test_repl_pty import PASSWORD, Shell, environment, provider, supabase_side_missing  # noqa: F401 (provider: a shared fixture)

NEW_PASSWORD = "a-brand-new-password-7"
SPINNER_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
# How long a prompt is watched for a spinner frame: ten times the spinner's start delay.
WATCH = 1.5


@pytest.fixture
def env(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    env.pop("CI", None)  # the spinner stays off in CI; these tests look for it
    return env


def slow_down(emulator, ms=2000):
    """Every answer from now on takes `ms`, so the spinner has time to show after the prompts."""
    r = requests.put(f"{emulator.base}/emulator/v1/faults", json={"faults": [{"times": 0, "latency_ms": ms}]},
                     timeout=5)
    assert r.status_code == 200, r.text


def one_shot(env, *args):
    """A one-shot command without a terminal (setup steps)."""
    done = subprocess.run([authsh_binary(), *args], env={**env, "PW": PASSWORD}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done


class OneShot:
    """`authsh ARGS…` on a pty; `screen` is everything the terminal was sent."""

    def __init__(self, env, *args):
        self.screen = io.StringIO()
        self.child = pexpect.spawn(authsh_binary(), list(args), env=env, encoding="utf-8", timeout=30,
                                   dimensions=(40, 160))
        self.child.logfile_read = self.screen

    def watch_prompt(self, prompt):
        """Waits for `prompt`, then watches the terminal while the prompt waits for an answer:
        returns what was drawn after the prompt meanwhile."""
        self.child.expect_exact(prompt)
        drawn = self.screen.getvalue()
        start = drawn.rindex(prompt) + len(prompt)
        deadline = time.monotonic() + WATCH
        while time.monotonic() < deadline:
            try:
                self.child.read_nonblocking(4096, timeout=0.1)
            except pexpect.TIMEOUT:
                pass
        return self.screen.getvalue()[start:]

    def finish(self):
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


def host(env):
    """Where the spinner says the request goes (`127.0.0.1:PORT`)."""
    return env.get("FIREBASE_AUTH_EMULATOR_HOST") or env["SUPABASE_URL"].split("://", 1)[1].rstrip("/")


def assert_no_spinner(drawn, loading):
    assert not any(frame in drawn for frame in SPINNER_FRAMES), f"spinner drawn over the prompt: {drawn!r}"
    assert loading not in drawn


def test_login_prompt_waits_without_a_spinner_then_the_spinner_shows(env, emulator):
    one_shot(env, "signup", "ada@example.com", "--name", "Ada", "--password-env", "PW")
    slow_down(emulator)
    run = OneShot(env, "login", "ada@example.com")
    assert_no_spinner(run.watch_prompt("Password: "), "Signing in")
    run.child.sendline(PASSWORD)
    run.child.expect_exact(f"Signing in to {host(env)}…")  # after the answer, while the (slowed) request runs
    run.child.expect_exact("ada@example.com")
    assert run.finish() == 0
    assert PASSWORD not in run.screen.getvalue()


def test_signup_asks_twice_without_a_spinner_then_the_spinner_shows(env, emulator):
    slow_down(emulator)
    run = OneShot(env, "signup", "grace@example.com", "--name", "Grace")
    assert_no_spinner(run.watch_prompt("New password: "), "Creating account")
    run.child.sendline(PASSWORD)
    assert_no_spinner(run.watch_prompt("Confirm password: "), "Creating account")
    run.child.sendline(PASSWORD)
    run.child.expect_exact(f"Creating account on {host(env)}…")
    assert run.finish() == 0
    assert PASSWORD not in run.screen.getvalue()


def reset_link(env, emulator, email):
    one_shot(env, "signup", email, "--name", "Reset", "--password-env", "PW")
    one_shot(env, "reset", email)
    return emulator.outbox(email)[-1]["link"]


def test_reset_confirm_asks_twice_without_a_spinner_then_the_spinner_shows(env, emulator):
    link = reset_link(env, emulator, "linus@example.com")
    slow_down(emulator)
    run = OneShot(env, "reset", "confirm", link)
    assert_no_spinner(run.watch_prompt("New password: "), "Saving")
    run.child.sendline(NEW_PASSWORD)
    assert_no_spinner(run.watch_prompt("Confirm password: "), "Saving")
    run.child.sendline(NEW_PASSWORD)
    run.child.expect_exact(f"Saving the new password on {host(env)}…")
    run.child.expect_exact("Password changed.")
    assert run.finish() == 0
    assert NEW_PASSWORD not in run.screen.getvalue()


def test_password_stdin_on_a_terminal_is_refused_before_anything_is_read(env):
    run = OneShot(env, "login", "ada@example.com", "--password-stdin")
    run.child.expect_exact("--password-stdin reads the password from a pipe")
    assert run.finish() == 64
    screen = run.screen.getvalue()
    assert "Signing in" not in screen and not any(frame in screen for frame in SPINNER_FRAMES)


def test_import_from_a_terminal_standard_input_is_refused_not_waited_for(env):
    run = OneShot(env, "user", "import", "-", "--dry-run")
    run.child.expect_exact("standard input is a terminal: name the file, or pipe it in")
    assert run.finish() == 64
    screen = run.screen.getvalue()
    assert "Importing" not in screen and not any(frame in screen for frame in SPINNER_FRAMES)


def test_password_stdin_from_a_pipe_still_signs_in(env):
    one_shot(env, "signup", "cy@example.com", "--name", "Cy", "--password-env", "PW")
    done = subprocess.run([authsh_binary(), "login", "cy@example.com", "--password-stdin"], env=env,
                          input=PASSWORD + "\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert PASSWORD not in done.stdout + done.stderr


def test_recovery_links_codes_and_keys_stay_out_of_the_history_file(env, emulator, provider, tmp_path):
    link = reset_link(env, emulator, "hedy@example.com")
    histfile = tmp_path / "hist" / "history"
    shell = Shell({**env, "AUTHSH_HISTFILE": str(histfile)})
    shell.child.sendline(f"reset confirm '{link}'")
    shell.answer("New password: ", NEW_PASSWORD)
    shell.answer("Confirm password: ", NEW_PASSWORD)
    shell.child.expect("hedy@example.com> $")
    assert "Password changed." in shell.child.before
    shell.run("reset confirm 987654 --email hedy@example.com --bogus")  # a usage error: never parsed
    shell.run(link)  # the link pasted on its own: unknown command
    key = emulator.anon_key if provider == "supabase" else emulator.api_key
    shell.run(f"provider {provider} --url {emulator.base} --key {key}")
    listing = shell.run("history")
    assert "reset confirm ***" in listing and link not in listing and key not in listing
    shell.run("whoami")
    assert shell.exit_with_ctrl_d() == 0
    text = histfile.read_text()
    assert "whoami" in text.splitlines()
    for secret in (link, link.split("?", 1)[1], "987654", key, NEW_PASSWORD):
        assert secret not in text
    assert "reset confirm" not in text and "--key" not in text


def test_an_export_with_password_hashes_to_a_terminal_asks_first(tmp_path, emulator):
    env = {**environment(tmp_path, emulator, "supabase"), "SUPABASE_SERVICE_ROLE_KEY": emulator.service_role_key}
    one_shot(env, "signup", "hashed@example.com", "--name", "Hash", "--password-env", "PW")
    prompt = "Print it here? [y/N] "
    refused = OneShot(env, "user", "export")
    refused.child.expect_exact(prompt)
    refused.child.sendline("n")
    refused.child.expect(pexpect.EOF)
    refused.child.close()
    assert refused.child.exitstatus != 0
    assert "Not printed: nothing was exported." in refused.screen.getvalue()
    assert "hashed@example.com" not in refused.screen.getvalue().split(prompt, 1)[1]

    printed = OneShot(env, "user", "export")
    printed.child.expect_exact(prompt)
    printed.child.sendline("y")
    printed.child.expect(pexpect.EOF)
    printed.child.close()
    assert printed.child.exitstatus == 0, printed.screen.getvalue()
    assert "hashed@example.com" in printed.screen.getvalue().split(prompt, 1)[1]

    direct = OneShot(env, "user", "export", "--yes")
    direct.child.expect(pexpect.EOF)
    assert prompt not in direct.screen.getvalue() and "hashed@example.com" in direct.screen.getvalue()
