"""Support tickets on both backends, with the official clients as the oracle and the real
`authsh emulator` binary: "I changed my e-mail" (a pending change shown, `diagnose NEW`,
`user set-email`), `user update` (name, metadata, claims) and an account that never signed in."""
import json
import os
import subprocess

import pytest
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary

PASSWORD = "correct-horse-1"


def gotrue(emu, key):
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False)


def run_authsh(emu, home, side, *args):
    """`authsh ARGS --json` one-shot against `emu`; `side` picks Supabase or Firebase."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "NO_COLOR": "1",
        "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
    }
    sides = {
        "supabase": {"SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
                     "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key},
        "firebase": {"FIREBASE_AUTH_EMULATOR_HOST": emu.host, "FIREBASE_API_KEY": emu.api_key,
                     "FIREBASE_PROJECT_ID": emu.project},
    }
    done = subprocess.run([authsh_binary(), *args, "--json"], env={**env, **sides[side]},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip(), f"no JSON from authsh {args} (exit {done.returncode}): {done.stderr}"
    return done.returncode, json.loads(done.stdout)


@pytest.fixture
def authsh(emulator, tmp_path):
    return lambda side, *args: run_authsh(emulator, tmp_path, side, *args)


def the_user(doc):
    """The one account of a `user show` / change command's result, whatever the count shape."""
    if doc.get("user"):
        return doc["user"]
    (lookup,) = doc["users"]
    return lookup["user"]


def codes(doc):
    return [f["code"] for f in doc["diagnosis"]["findings"]]


def itk(emu, op, body):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:{op}",
                         params={"key": emu.api_key}, json=body, timeout=10)


# ---- 13: "I changed my e-mail" ------------------------------------------------------------------

def test_supabase_pending_change_is_shown_diagnosed_and_set(emulator, authsh):
    admin = gotrue(emulator, emulator.service_role_key).admin
    made = admin.create_user({"email": "ada@example.com", "password": PASSWORD, "email_confirm": True}).user
    person = gotrue(emulator, emulator.anon_key)
    person.sign_in_with_password({"email": "ada@example.com", "password": PASSWORD})
    person.update_user({"email": "ada@newmail.example"})  # what the app's "change e-mail" does
    assert admin.get_user_by_id(made.id).user.new_email == "ada@newmail.example"

    code, doc = authsh("supabase", "user", "show", "ada@example.com")
    user = the_user(doc)
    assert code == 0 and user["new_email"] == "ada@newmail.example" and user["email_change_sent_at"]

    code, doc = authsh("supabase", "diagnose", "ada@newmail.example")
    assert codes(doc) == ["email_change_pending"], doc
    finding = doc["diagnosis"]["findings"][0]
    assert "ada@example.com" in finding["message"]
    assert finding["fix"] == "authsh user set-email ada@example.com ada@newmail.example --confirmed"

    code, doc = authsh("supabase", "user", "set-email", "ada@example.com", "ada@newmail.example", "--confirmed")
    assert code == 0 and doc["ok"] is True, doc
    seen = admin.get_user_by_id(made.id).user
    assert seen.email == "ada@newmail.example" and seen.email_confirmed_at is not None
    session = gotrue(emulator, emulator.anon_key).sign_in_with_password(
        {"email": "ada@newmail.example", "password": PASSWORD})
    assert session.user.id == made.id


def test_firebase_pending_change_is_shown_diagnosed_and_set(emulator, admin_app, authsh):
    made = auth.create_user(email="ada@example.com", password=PASSWORD, email_verified=True, app=admin_app)
    signed = itk(emulator, "signInWithPassword", {"email": "ada@example.com", "password": PASSWORD,
                                                  "returnSecureToken": True}).json()
    # The client SDKs' verifyBeforeUpdateEmail.
    sent = itk(emulator, "sendOobCode", {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": signed["idToken"],
                                         "newEmail": "ada@newmail.example"})
    assert sent.status_code == 200, sent.text

    code, doc = authsh("firebase", "user", "show", "ada@example.com")
    assert code == 0 and the_user(doc)["new_email"] == "ada@newmail.example"
    code, doc = authsh("firebase", "diagnose", "ada@newmail.example")
    assert codes(doc) == ["email_change_pending"], doc

    code, doc = authsh("firebase", "user", "set-email", "ada@example.com", "ada@newmail.example", "--confirmed")
    assert code == 0 and doc["ok"] is True, doc
    seen = auth.get_user(made.uid, app=admin_app)
    assert seen.email == "ada@newmail.example" and seen.email_verified is True
    code, doc = authsh("firebase", "user", "set-email", "ada@newmail.example", "ada@third.example")
    assert code == 0
    assert auth.get_user(made.uid, app=admin_app).email_verified is False, "Firebase unverifies a changed address"


# ---- 16: user update ----------------------------------------------------------------------------

def test_supabase_user_update_reaches_user_and_app_metadata(emulator, authsh):
    admin = gotrue(emulator, emulator.service_role_key).admin
    made = admin.create_user({"email": "bob@example.com", "password": PASSWORD, "email_confirm": True,
                              "user_metadata": {"team": "engines"}}).user
    code, doc = authsh("supabase", "user", "update", "bob@example.com", "--name", "Bob B", "--meta", "plan=pro",
                       "--meta", "seats=3", "--app-meta", "role=admin", "--claims", '{"tier":"gold"}', "--yes")
    assert code == 0 and doc["ok"] is True, doc
    seen = admin.get_user_by_id(made.id).user
    assert {k: seen.user_metadata.get(k) for k in ("team", "full_name", "plan", "seats")} == \
        {"team": "engines", "full_name": "Bob B", "plan": "pro", "seats": 3}
    assert seen.app_metadata["role"] == "admin" and seen.app_metadata["tier"] == "gold"
    assert the_user(doc)["app_metadata"] == {"role": "admin", "tier": "gold"}
    # A claim granting a role is not made without confirmation.
    code, doc = authsh("supabase", "user", "update", "bob@example.com", "--app-meta", "role=owner")
    assert code == 64 and admin.get_user_by_id(made.id).user.app_metadata["role"] == "admin"
    code, _ = authsh("supabase", "user", "update", "bob@example.com", "--meta", "plan=null")
    assert code == 0 and "plan" not in admin.get_user_by_id(made.id).user.user_metadata


def test_firebase_user_update_reaches_display_name_and_custom_claims(emulator, admin_app, authsh):
    made = auth.create_user(email="bob@example.com", password=PASSWORD, app=admin_app)
    auth.set_custom_user_claims(made.uid, {"team": "engines"}, app=admin_app)
    code, doc = authsh("firebase", "user", "update", "bob@example.com", "--name", "Bob B",
                       "--claims", '{"role":"admin"}', "--yes")
    assert code == 0 and doc["ok"] is True, doc
    seen = auth.get_user(made.uid, app=admin_app)
    assert seen.display_name == "Bob B" and seen.custom_claims == {"team": "engines", "role": "admin"}
    code, doc = authsh("firebase", "user", "update", "bob@example.com", "--meta", "plan=pro")
    assert code == 1 and doc["error"]["code"] == "not_supported"


# ---- 17: never signed in ------------------------------------------------------------------------

def test_an_account_created_by_the_admin_api_never_signed_in_on_both_backends(emulator, admin_app, authsh):
    made = auth.create_user(email="new@example.com", password=PASSWORD, app=admin_app)
    assert auth.get_user(made.uid, app=admin_app).user_metadata.last_sign_in_timestamp is None, \
        "production leaves lastLoginAt out for an account the Admin SDK created"
    for side in ("supabase", "firebase"):
        code, doc = authsh(side, "user", "create", f"made-{side}@example.com", "--confirmed")
        assert code == 0, doc
        code, doc = authsh(side, "user", "show", f"made-{side}@example.com")
        assert the_user(doc)["last_sign_in_at"] is None, side
    # Signing in sets it.
    itk(emulator, "signInWithPassword", {"email": "new@example.com", "password": PASSWORD, "returnSecureToken": True})
    assert auth.get_user(made.uid, app=admin_app).user_metadata.last_sign_in_timestamp is not None


# ---- 14: a typo, a deleted account ---------------------------------------------------------------

@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_diagnose_suggests_the_close_address_and_names_a_deletion(emulator, authsh, side):
    for email in ("alice@example.com", "alice@elsewhere.example", "carol@example.com"):
        code, doc = authsh(side, "user", "create", email, "--confirmed")
        assert code == 0, doc
    code, doc = authsh(side, "diagnose", "alcie@example.com")
    (finding,) = doc["diagnosis"]["findings"]
    assert finding["code"] == "no_account"
    assert "Did you mean alice@example.com?" in finding["message"], finding
    assert finding["fix"] == "authsh diagnose alice@example.com"

    code, doc = authsh(side, "user", "delete", "carol@example.com", "--yes")
    assert code == 0, doc
    code, doc = authsh(side, "diagnose", "carol@example.com")
    assert codes(doc) == ["account_deleted"], doc
    assert "was deleted at" in doc["diagnosis"]["findings"][0]["message"]


# ---- 18: the audit log ---------------------------------------------------------------------------

def test_audit_filters_by_account_names_the_operator_and_skips_throwaway_accounts(emulator, authsh, tmp_path):
    import getpass
    import socket
    for email in ("ann@example.com", "ben@example.com"):
        assert authsh("supabase", "user", "create", email, "--confirmed")[0] == 0
    assert authsh("supabase", "user", "confirm", "ann@example.com")[0] == 0
    code, doc = authsh("supabase", "audit", "ANN@example.com")
    # Each change: its attempt (`started`) before it is sent, its outcome after.
    outcomes = [(e["command"], e["outcome"]) for e in doc["audit"]]
    assert code == 0 and outcomes == [("user create", "started"), ("user create", "ok"),
                                      ("user confirm", "started"), ("user confirm", "ok")], doc
    operator = f"{getpass.getuser()}@{socket.gethostname()}"
    assert {e["operator"] for e in doc["audit"]} == {operator}
    log = tmp_path / "state" / "authsh" / "audit.jsonl"
    assert len(log.read_text().splitlines()) == 6

    # The embedded emulator's accounts vanish with the process: nothing of theirs is written.
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state")}
    done = subprocess.run([authsh_binary(), "--emulator", "user", "create", "temp@example.com", "--confirmed"],
                          env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    script = tmp_path / "throwaway.auth"
    script.write_text('test "t"\nuser create run-temp@example.com --confirmed\nexpect ok\n')
    done = subprocess.run([authsh_binary(), "run", "--emulator", str(script)], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(log.read_text().splitlines()) == 6, log.read_text()


# ---- 15: rate limits ----------------------------------------------------------------------------

def test_diagnose_lists_a_possible_rate_limit_and_sees_the_emulators_limiter(emulator_factory, tmp_path):
    emu = emulator_factory("--like-production", "--smtp", "custom")
    admin = gotrue(emu, emu.service_role_key).admin
    admin.create_user({"email": "dana@example.com", "password": PASSWORD, "email_confirm": True})
    code, doc = run_authsh(emu, tmp_path, "supabase", "diagnose", "dana@example.com")
    assert codes(doc) == ["ok", "rate_limit_possible"], doc
    note = doc["diagnosis"]["findings"][1]["message"]
    assert "30 attempts at once or 150 in 5 minutes" in note and "no client is limited now" in note

    person = gotrue(emu, emu.anon_key)
    answers = []
    for _ in range(40):
        try:
            person.sign_in_with_password({"email": "dana@example.com", "password": "wrong-password-1"})
        except Exception as error:  # AuthApiError: invalid_credentials, then over_request_rate_limit
            answers.append(getattr(error, "code", None) or getattr(error, "status", None))
    assert answers[-1] in ("over_request_rate_limit", 429), answers

    code, doc = run_authsh(emu, tmp_path, "supabase", "diagnose", "dana@example.com")
    assert codes(doc)[0] == "rate_limited" and "ok" not in codes(doc), doc
    assert doc["diagnosis"]["can_sign_in"] is False
    assert "rate-limited right now" in doc["diagnosis"]["findings"][0]["message"]
