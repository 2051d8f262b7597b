"""The shell's dead ends of issue 48, on a real pseudo-terminal: `clear`; a profile added to
config.toml while the shell runs is offered by `use <Tab>`; `--profile` inside the shell names
`use NAME`; "your system shell (bash, zsh)"; a Ctrl-D typed ahead ends the shell after the command;
an undefined variable gets the let/--var hint; Firebase's UNVERIFIED_EMAIL is the catalogue's
email_not_confirmed with its fix; a password prompt cancelled says nothing was sent."""
import subprocess
import time

import pexpect
import pytest
import requests

from conftest import authsh_binary
from test_repl_pty import PASSWORD, Shell, environment, supabase_side_missing


@pytest.fixture
def supabase_env(tmp_path, emulator):
    if supabase_side_missing(emulator):
        pytest.skip("the emulator in this build has no Supabase side yet")
    env = environment(tmp_path, emulator, "supabase")
    env["SUPABASE_SERVICE_ROLE_KEY"] = emulator.service_role_key
    env["PW"] = PASSWORD
    return env


@pytest.fixture
def shell_in(request):
    shells = []

    def start(env):
        shell = Shell(env)
        shells.append(shell)
        return shell

    yield start
    for shell in shells:
        if shell.child.isalive():
            shell.child.terminate(force=True)


def config_file(env):
    from pathlib import Path
    path = Path(env["XDG_CONFIG_HOME"]) / "authsh" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def profile(name, emulator):
    return f'[profiles.{name}]\nprovider = "supabase"\nurl = "{emulator.base}"\nkey_env = "SUPABASE_ANON_KEY"\n'


def test_clear_clears_the_screen_and_help_and_completion_know_it(supabase_env, shell_in):
    shell = shell_in(supabase_env)
    c = shell.child
    c.send("cle\t\r")
    shell.prompt()
    assert "\x1b[H\x1b[2J" in c.before and "unknown command" not in c.before
    out = shell.run("help clear")
    assert "Clear the screen" in out
    assert "clear" in shell.run("help")


def test_a_profile_added_while_the_shell_runs_is_offered_by_use_tab(supabase_env, emulator, shell_in):
    config = config_file(supabase_env)
    config.write_text(profile("first", emulator))
    shell = shell_in(supabase_env)
    c = shell.child
    config.write_text(profile("first", emulator) + "\n" + profile("second", emulator))
    c.send("use \t\t")
    c.expect(r"first\s+second")
    c.sendcontrol("u")
    c.send("use sec\t\r")
    shell.prompt()
    assert "profile   second" in c.before and "not defined" not in c.before


def test_profile_flag_inside_the_shell_names_use(supabase_env, shell_in):
    shell = shell_in(supabase_env)
    out = shell.run("user show ada@example.com --profile fb")
    assert "use fb" in out
    out = shell.run("whoami --profile=staging")
    assert "use staging" in out
    out = shell.run("completion bash")
    assert "from your system shell (bash, zsh)" in out


def test_a_ctrl_d_typed_while_a_command_runs_ends_the_shell_after_it(supabase_env, shell_in):
    shell = shell_in(supabase_env)
    c = shell.child
    c.sendline("sleep 2s")
    time.sleep(0.5)
    c.sendcontrol("d")  # typed while `sleep` runs
    started = time.monotonic()
    c.expect(pexpect.EOF, timeout=10)
    c.close()
    assert c.exitstatus == 0
    assert time.monotonic() - started < 8


def test_an_undefined_variable_gets_the_let_and_var_hint(supabase_env, tmp_path, shell_in):
    piped = subprocess.run([authsh_binary()], input="echo {{dom}}\n", env=supabase_env, capture_output=True,
                           text=True, timeout=30)
    assert piped.returncode != 0
    assert "undefined variable 'dom'" in piped.stderr
    assert "--var dom=VALUE" in piped.stderr and "let" in piped.stderr
    assert "did you mean 'ok'" not in piped.stderr
    script = tmp_path / "vars.auth"
    script.write_text("echo {{dom}}\n")
    shell = shell_in(supabase_env)
    out = shell.run(f"source {script}")
    assert "--var dom=VALUE" in out and "did you mean 'ok'" not in out


def test_cancelling_reset_confirm_at_its_password_prompt_says_nothing_was_sent(supabase_env, shell_in):
    shell = shell_in(supabase_env)
    c = shell.child
    c.sendline("reset confirm 123456 --email ada@example.com")
    c.expect_exact("New password: ")
    c.sendcontrol("c")
    shell.prompt()
    assert "nothing was sent" in c.before
    assert "may already have reached the server" not in c.before


def test_firebase_mfa_enroll_with_an_unverified_address_names_the_fix(tmp_path, emulator, shell_in):
    r = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/projects/{emulator.project}/accounts",
                      json={"email": "unverified@example.com", "password": PASSWORD, "emailVerified": False},
                      headers={"Authorization": "Bearer owner"}, timeout=10)
    assert r.status_code == 200, r.text
    env = environment(tmp_path, emulator, "firebase")
    env["PW"] = PASSWORD
    shell = shell_in(env)
    out = shell.run("login unverified@example.com --password-env PW")
    assert "Signed in" in out
    out = shell.run("mfa enroll --name phone --self-verify")
    assert "Confirm the e-mail address first" in out
    assert "email_not_confirmed" in out and "verification link" in out
    assert "UNVERIFIED_EMAIL :" not in out
