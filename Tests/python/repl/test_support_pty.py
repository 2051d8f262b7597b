"""Destructive support commands on a real pseudo-terminal: `user delete EMAIL` asks "type the
e-mail to confirm" after the lookup; a wrong answer changes nothing; the right one deletes; without
a terminal the command needs --yes (exit 64), with --yes it is done. The spinner never draws over
the question, in one-shot commands and in the shell."""
import json
import subprocess

import pytest

from conftest import authsh_binary
from test_oneshot_pty import OneShot, assert_no_spinner, slow_down
from test_repl_pty import PASSWORD, Shell, environment, provider, supabase_side_missing  # noqa: F401 (provider: a shared fixture)

CONFIRM = "to confirm"


@pytest.fixture
def env(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    env.pop("CI", None)  # the spinner stays off in CI; these tests look for it
    if provider == "supabase":
        env["SUPABASE_SERVICE_ROLE_KEY"] = emulator.service_role_key
    return env


def no_terminal(env, *args):
    return subprocess.run([authsh_binary(), *args], env={**env, "PW": PASSWORD}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


def create(env, email):
    done = no_terminal(env, "user", "create", email, "--confirmed", "--password-env", "PW")
    assert done.returncode == 0, done.stderr


def exists(env, email):
    done = no_terminal(env, "user", "show", email, "--json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)["ok"] and done.returncode == 0


def test_a_wrong_answer_aborts_and_nothing_is_deleted(env, emulator):
    create(env, "ada@example.com")
    slow_down(emulator, 600)
    run = OneShot(env, "user", "delete", "ada@example.com")
    drawn = run.watch_prompt(CONFIRM)
    assert_no_spinner(drawn, "Deleting")
    run.child.sendline("eve@example.com")
    status = run.finish()
    assert status != 0
    assert "Deleted" not in run.screen.getvalue()
    slow_down(emulator, 0)
    assert exists(env, "ada@example.com")


def test_the_right_answer_deletes(env, emulator):
    create(env, "bob@example.com")
    run = OneShot(env, "user", "delete", "bob@example.com")
    run.child.expect_exact(CONFIRM)
    # The question shows the account it is about, after the lookup.
    assert "bob@example.com" in run.screen.getvalue()
    run.child.sendline("bob@example.com")
    run.child.expect_exact("Deleted bob@example.com")
    assert run.finish() == 0
    assert not exists(env, "bob@example.com")


def test_without_a_terminal_it_needs_yes(env):
    create(env, "cy@example.com")
    refused = no_terminal(env, "user", "delete", "cy@example.com")
    assert refused.returncode == 64, refused.stderr
    assert "--yes" in refused.stderr
    assert exists(env, "cy@example.com")
    done = no_terminal(env, "user", "delete", "cy@example.com", "--yes")
    assert done.returncode == 0, done.stderr
    assert not exists(env, "cy@example.com")


def test_yes_on_a_terminal_does_not_ask(env):
    create(env, "dee@example.com")
    run = OneShot(env, "user", "disable", "dee@example.com", "--yes")
    run.child.expect_exact("Disabled dee@example.com")
    assert run.finish() == 0
    assert CONFIRM not in run.screen.getvalue()


def test_the_shell_asks_too_and_a_wrong_answer_changes_nothing(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    if provider == "supabase":
        env["SUPABASE_SERVICE_ROLE_KEY"] = emulator.service_role_key
    create(env, "eve@example.com")
    shell = Shell(env)
    try:
        if provider == "supabase":
            # GoTrue cannot end another user's sessions: said at once, before anyone is asked to confirm.
            shell.child.sendline("user signout eve@example.com")
            shell.prompt()
            assert "not_supported" in shell.child.before and CONFIRM not in shell.child.before
        shell.child.sendline("user delete eve@example.com")
        shell.child.expect_exact(CONFIRM)
        shell.child.sendline("nope")
        shell.prompt()
        assert "Deleted" not in shell.child.before
        shell.child.sendline("user disable eve@example.com")
        shell.child.expect_exact(CONFIRM)
        shell.child.sendline("eve@example.com")
        shell.prompt()
        assert "Disabled eve@example.com" in shell.child.before
        assert shell.exit_with_ctrl_d() in (0, 1)
    finally:
        if shell.child.isalive():
            shell.child.terminate(force=True)
    shown = json.loads(no_terminal(env, "user", "show", "eve@example.com", "--json").stdout)
    assert shown["user"]["disabled"] is True


def seed(emulator, provider, emails):
    import requests
    session = requests.Session()
    for email in emails:
        if provider == "supabase":
            key = emulator.service_role_key
            r = session.post(f"{emulator.base}/auth/v1/admin/users", headers={"apikey": key, "Authorization": f"Bearer {key}"},
                             json={"email": email, "password": PASSWORD, "email_confirm": True}, timeout=10)
        else:
            r = session.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/projects/{emulator.project}/accounts",
                             headers={"Authorization": "Bearer owner"}, json={"email": email, "password": PASSWORD}, timeout=10)
        assert r.status_code == 200, r.text


def test_many_lookups_show_a_progress_line_on_a_terminal_then_clear_it(env, emulator, provider, tmp_path):
    emails = [f"p{n:02d}@example.com" for n in range(40)]
    seed(emulator, provider, emails)
    listing = tmp_path / "ticket.txt"
    listing.write_text("# ticket 4711\n" + "\n".join(emails + ["gone@example.com"]) + "\n")
    run = OneShot(env, "user", "show", "--from", str(listing), "--jobs", "4", "--jsonl")
    assert run.finish() == 1  # one address has no account
    screen = run.screen.getvalue()
    assert "Looked up 41/41…" in screen
    assert screen.endswith("Looked up 41/41…\r\x1b[K"), "the progress line is erased at the end"
    assert screen.count('"ok":true') == 40 and screen.count('"ok":false') == 1
    # Without a terminal: no progress line at all.
    done = no_terminal(env, "user", "show", "--from", str(listing), "--jsonl")
    assert done.returncode == 1 and "Looked up" not in done.stderr and done.stdout.count("\n") == 41
