"""authsh against a Supabase project whose sign-in runs PKCE (`flow = "pkce"` in the profile):
`reset` sends a code challenge and keeps the verifier in the profile's 0600 state, the mailed link
comes back to the app with `?code=`, and `reset confirm THAT-URL` trades the code with the kept
verifier for the session, then sets the new password. The verifier is never shown."""
import json
import os
import stat
from pathlib import Path

import pytest
import requests
from supabase_auth import SyncGoTrueClient

from one_shot import authsh, environment

PASSWORD = "correct-horse-1"
NEW_PASSWORD = "a-new-password-2"


@pytest.fixture
def env(tmp_path, emulator):
    config = tmp_path / "config" / "authsh"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(
        f'[profiles.app]\nprovider = "supabase"\nurl = "{emulator.base}"\nkey_env = "APP_ANON_KEY"\nflow = "pkce"\n')
    return environment(tmp_path, emulator, APP_ANON_KEY=emulator.anon_key, AUTHSH_PROFILE="app",
                       AUTHSH_CREDENTIAL_STORE="file", NEW_PW=NEW_PASSWORD)


def sign_up(emu, email):
    c = SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": emu.anon_key}, persist_session=False,
                         auto_refresh_token=False)
    c.sign_up({"email": email, "password": PASSWORD})


def redirect_of_mail(emu, email):
    """The URL the mailed link sends the browser to (the app's, with `?code=`)."""
    [mail] = [m for m in emu.outbox(email) if m["kind"] == "recovery"]
    assert "token=pkce_" in mail["link"]
    r = requests.get(mail["link"], allow_redirects=False, timeout=5)
    assert r.status_code == 303
    return r.headers["Location"]


def state_files(home: Path):
    return list((home / "state" / "authsh" / "sessions").glob("*.json"))


def test_reset_then_confirm_with_the_code_the_link_came_back_with(tmp_path, env, emulator):
    sign_up(emulator, "ada@example.com")
    sent = authsh(env, "reset", "ada@example.com")
    assert sent.returncode == 0, sent.stderr
    assert "reset confirm" in sent.stdout + sent.stderr
    [state] = state_files(tmp_path)
    assert stat.S_IMODE(os.stat(state).st_mode) == 0o600
    verifier = json.loads(state.read_text())["pkce_flows"]["recovery:ada@example.com"]["verifier"]
    assert len(verifier) == 43
    location = redirect_of_mail(emulator, "ada@example.com")
    assert "?code=" in location and "access_token" not in location
    done = authsh(env, "reset", "confirm", location, "--password-env", "NEW_PW", "--json", "--verbose")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["ok"] and result["user"]["email"] == "ada@example.com"
    for output in (sent.stdout, sent.stderr, done.stdout, done.stderr):
        assert verifier not in output
    assert "pkce_flows" not in state.read_text()
    who = authsh(env, "whoami", "--json")
    assert who.returncode == 0 and json.loads(who.stdout)["user"]["email"] == "ada@example.com"
    c = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.anon_key}, persist_session=False,
                         auto_refresh_token=False)
    assert c.sign_in_with_password({"email": "ada@example.com", "password": NEW_PASSWORD}).session is not None
    # The code is spent, and so is the verifier authsh kept.
    again = authsh(env, "reset", "confirm", location, "--password-env", "NEW_PW", "--json")
    assert again.returncode == 1
    assert json.loads(again.stdout)["error"]["code"] == "invalid_code"


def test_the_mailed_link_itself_works_too(env, emulator):
    sign_up(emulator, "bob@example.com")
    assert authsh(env, "reset", "bob@example.com").returncode == 0
    [mail] = emulator.outbox("bob@example.com")
    done = authsh(env, "reset", "confirm", mail["link"], "--password-env", "NEW_PW")
    assert done.returncode == 0, done.stderr


def test_a_code_link_without_a_reset_sent_from_here_says_so(tmp_path, env, emulator):
    sign_up(emulator, "cy@example.com")
    assert authsh(env, "reset", "cy@example.com").returncode == 0
    location = redirect_of_mail(emulator, "cy@example.com")
    elsewhere = dict(env, XDG_STATE_HOME=str(tmp_path / "other-state"))
    done = authsh(elsewhere, "reset", "confirm", location, "--password-env", "NEW_PW", "--json")
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "invalid_code" and "PKCE" in error["message"]


def test_a_wrong_verifier_is_invalid_code(tmp_path, env, emulator):
    sign_up(emulator, "dee@example.com")
    assert authsh(env, "reset", "dee@example.com").returncode == 0
    [state] = state_files(tmp_path)
    stored = json.loads(state.read_text())
    stored["pkce_flows"]["recovery:dee@example.com"]["verifier"] = "x" * 43
    state.write_text(json.dumps(stored))
    done = authsh(env, "reset", "confirm", redirect_of_mail(emulator, "dee@example.com"), "--password-env", "NEW_PW",
                  "--json")
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["provider_code"], error["status"]) == ("invalid_code", "bad_code_verifier", 400)


def test_flow_pkce_is_refused_on_a_firebase_profile(tmp_path, emulator):
    config = tmp_path / "config" / "authsh"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(
        f'[profiles.fb]\nprovider = "firebase"\nemulator_host = "{emulator.host}"\nflow = "pkce"\n')
    done = authsh(environment(tmp_path, emulator, AUTHSH_PROFILE="fb"), "reset", "ada@example.com")
    assert done.returncode == 78
    assert 'flow = "pkce" is a Supabase setting' in done.stderr
