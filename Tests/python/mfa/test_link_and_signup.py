"""`login --link EMAIL` (issue 21): passwordless sign-in by the mailed link, read from the emulator's
outbox when there is no terminal, with the second step after it for an account with a factor; and
`signup` of an address that signed up with Google naming the button to use."""
import json

import pytest

from conftest import start_emulator
from test_login_second_factor import SEED, SEEDED_SECRET, authsh, environment, provider, seeded  # noqa: F401 (fixtures)


@pytest.fixture
def plain_seeded():
    emu = start_emulator("--seed", str(SEED))
    yield emu
    emu.stop()


def test_login_by_mailed_link_then_the_second_factor(tmp_path, seeded, provider):
    env = environment(tmp_path, seeded, provider)
    done = authsh(env, "login", "--link", "ada@example.com", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["user"]["email"] == "ada@example.com" and result["session"]["aal"] == "aal1"
    assert authsh(env, "whoami").returncode == 0
    refused = authsh(env, "login", "--link", "ada@example.com", "--password-env", "PW")
    assert refused.returncode == 64

    # (one link per address: Supabase mails an address at most once a minute)
    with_code = authsh(env, "login", "--link", "mfa@example.com", "--totp-secret-env", "TOTP", "--json",
                       TOTP=SEEDED_SECRET)
    assert with_code.returncode == 0, with_code.stderr
    assert json.loads(with_code.stdout)["session"]["aal"] == "aal2"


def test_signup_of_a_google_account_names_the_google_button(tmp_path, plain_seeded, provider):
    env = environment(tmp_path, plain_seeded, provider)
    done = authsh(env, "signup", "google@example.com", "--name", "Gus", "--password-env", "PW", "--json")
    assert done.returncode == 1, done
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "user_already_exists"
    assert "Try signing in, or use the Google" in error["message"]
