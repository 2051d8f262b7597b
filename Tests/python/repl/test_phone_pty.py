"""Phone sign-in on a real pseudo-terminal (issue 38): `login --phone NUMBER` texts the code, asks
for it without echo and without a spinner over the prompt, then signs in; the code comes from the
emulator's outbox, as a person would read it off the phone."""
import pytest

from conftest import start_emulator
from test_oneshot_pty import OneShot, assert_no_spinner
from test_repl_pty import environment

PHONE = "+15551234567"
PROMPT = f"Code texted to {PHONE}: "


@pytest.fixture
def emu():
    started = start_emulator()
    yield started
    started.stop()


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_login_by_phone_asks_for_the_texted_code_without_echo(tmp_path, emu, side):
    env = environment(tmp_path, emu, side)
    env.pop("CI", None)
    run = OneShot(env, "login", "--phone", PHONE)
    assert_no_spinner(run.watch_prompt(PROMPT), "Signing in")
    [message] = emu.outbox(PHONE)
    assert message["kind"] == "sms"
    run.child.sendline(message["code"])
    run.child.expect_exact(f"Signed in as {PHONE}")
    assert run.finish() == 0
    assert message["code"] not in run.screen.getvalue()


def test_a_wrong_texted_code_is_invalid_code(tmp_path, emu):
    run = OneShot(environment(tmp_path, emu, "supabase"), "login", "--phone", PHONE)
    run.child.expect_exact(PROMPT)
    [message] = emu.outbox(PHONE)
    run.child.sendline(f"{(int(message['code']) + 1) % 1_000_000:06d}")
    run.child.expect_exact("invalid_code")
    assert run.finish() == 1
