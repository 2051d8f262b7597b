"""The official `firebase_admin` SDK as the oracle for `authsh user …` / `diagnose` on Firebase, both
directions, against the real `authsh emulator` (FIREBASE_AUTH_EMULATOR_HOST, no service account:
both send `Bearer owner`)."""
import json
import os
import subprocess
import time

import pytest
import requests
from firebase_admin import auth

from conftest import authsh_binary


@pytest.fixture
def authsh(emulator, tmp_path):
    """Runs the authsh binary one-shot with --json against the emulator's Firebase side."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "FIREBASE_AUTH_EMULATOR_HOST": emulator.host,
        "FIREBASE_API_KEY": emulator.api_key,
        "FIREBASE_PROJECT_ID": emulator.project,
    }

    def run(*args, extra_env=None):
        done = subprocess.run([authsh_binary(), *args, "--json"], env={**env, **(extra_env or {})},
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        assert done.stdout.strip(), f"no JSON from authsh {args}: {done.stderr}"
        return done.returncode, json.loads(done.stdout)

    return run


def sign_in(emulator, email, password):
    return requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                         params={"key": emulator.api_key}, timeout=10,
                         json={"email": email, "password": password, "returnSecureToken": True})


def shown(authsh, query):
    """`user show QUERY --json` → the one lookup ({"ok", "user"} or {"ok", "error"})."""
    _, result = authsh("user", "show", query)
    if "users" not in result:  # one account found: the result carries it as `user`
        return {"ok": result["ok"], "user": result["user"]}
    (lookup,) = result["users"]
    return lookup


# firebase-admin changes → authsh sees them


def test_accounts_made_by_firebase_admin_are_shown(emulator, admin_app, authsh):
    made = auth.create_user(email="Ada@Example.com", password="secret123", display_name="Ada Lovelace", app=admin_app)
    auth.set_custom_user_claims(made.uid, {"role": "support"}, app=admin_app)
    lookup = shown(authsh, "ada@example.com")
    assert lookup["ok"] is True
    user = lookup["user"]
    assert user["id"] == made.uid
    assert user["email"] == "ada@example.com"
    assert user["confirmed"] is False and user["disabled"] is False
    assert user["methods"] == ["password"]
    assert user["name"] == "Ada Lovelace"
    assert user["claims"] == {"role": "support"} and user["metadata"] is None
    created_ms = auth.get_user(made.uid, app=admin_app).user_metadata.creation_timestamp
    assert user["created_at"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created_ms // 1000))
    assert shown(authsh, made.uid)["user"]["email"] == "ada@example.com", "by user id too"

    nopassword = auth.create_user(email="nopw@example.com", app=admin_app)
    assert shown(authsh, "nopw@example.com")["user"]["methods"] == []
    _, listed = authsh("user", "list", "--limit", "10")
    assert sorted(u["id"] for u in listed["users"]) == sorted([made.uid, nopassword.uid])
    assert listed["total"] == 2


def test_disabled_verified_and_deleted_by_firebase_admin(emulator, admin_app, authsh):
    made = auth.create_user(email="bob@example.com", password="secret123", app=admin_app)
    auth.update_user(made.uid, disabled=True, app=admin_app)
    assert shown(authsh, "bob@example.com")["user"]["disabled"] is True
    _, diagnosed = authsh("diagnose", "bob@example.com")
    assert diagnosed["user"]["disabled"] is True

    auth.update_user(made.uid, disabled=False, email_verified=True, app=admin_app)
    user = shown(authsh, "bob@example.com")["user"]
    assert user["disabled"] is False and user["confirmed"] is True

    auth.delete_user(made.uid, app=admin_app)
    lookup = shown(authsh, "bob@example.com")
    assert lookup["ok"] is False and lookup["error"]["code"] == "user_not_found"
    _, diagnosed = authsh("diagnose", "bob@example.com")
    assert diagnosed["diagnosis"]["findings"][0]["code"] == "no_account"
    assert diagnosed["diagnosis"]["can_sign_in"] is False


# authsh changes → firebase-admin sees them


def test_create_confirm_disable_enable_seen_by_firebase_admin(emulator, admin_app, authsh):
    code, created = authsh("user", "create", "carol@example.com", "--name", "Carol", "--password-env", "PW",
                           extra_env={"PW": "secret123"})
    assert code == 0, created
    got = auth.get_user_by_email("carol@example.com", app=admin_app)
    assert got.uid == created["user"]["id"] and got.display_name == "Carol" and got.email_verified is False
    assert sign_in(emulator, "carol@example.com", "secret123").status_code == 200

    code, _ = authsh("user", "confirm", "carol@example.com")
    assert code == 0
    assert auth.get_user_by_email("carol@example.com", app=admin_app).email_verified is True

    code, _ = authsh("user", "disable", "carol@example.com", "--yes")
    assert code == 0
    assert auth.get_user_by_email("carol@example.com", app=admin_app).disabled is True
    assert sign_in(emulator, "carol@example.com", "secret123").json()["error"]["message"] == "USER_DISABLED"

    code, _ = authsh("user", "enable", "carol@example.com")
    assert code == 0
    assert auth.get_user_by_email("carol@example.com", app=admin_app).disabled is False

    code, timed = authsh("user", "disable", "carol@example.com", "--until", "24h", "--yes")
    assert code != 0 and timed["error"]["code"] == "not_supported"
    assert auth.get_user_by_email("carol@example.com", app=admin_app).disabled is False


def test_signout_revokes_what_firebase_admin_checks(emulator, admin_app, authsh):
    made = auth.create_user(email="dan@example.com", password="secret123", app=admin_app)
    before = auth.get_user(made.uid, app=admin_app).tokens_valid_after_timestamp
    id_token = sign_in(emulator, "dan@example.com", "secret123").json()["idToken"]
    assert auth.verify_id_token(id_token, check_revoked=True, app=admin_app)["uid"] == made.uid
    time.sleep(1.1)  # validSince has one-second resolution: the token must be older than the revocation
    code, result = authsh("user", "signout", "dan@example.com", "--yes")
    assert code == 0
    # The default-mode emulator keeps refresh tokens working (as the official one): the note says so
    # and that production ends them; the revocation time is set either way.
    assert any("only with --like-production" in note and "Production ends them" in note
               for note in result.get("notes", [])), result
    after = auth.get_user(made.uid, app=admin_app).tokens_valid_after_timestamp
    assert after > before
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(id_token, check_revoked=True, app=admin_app)


def test_set_password_and_delete_seen_by_firebase_admin(emulator, admin_app, authsh):
    made = auth.create_user(email="erin@example.com", password="secret123", app=admin_app)
    code, _ = authsh("user", "set-password", "erin@example.com", "--password-env", "NEWPW", "--yes",
                     extra_env={"NEWPW": "brand-new-secret"})
    assert code == 0
    assert sign_in(emulator, "erin@example.com", "brand-new-secret").status_code == 200
    assert sign_in(emulator, "erin@example.com", "secret123").status_code == 400
    assert auth.get_user(made.uid, app=admin_app).tokens_valid_after_timestamp > 0

    code, soft = authsh("user", "delete", "erin@example.com", "--soft", "--yes")
    assert code != 0 and soft["error"]["code"] == "not_supported"
    auth.get_user(made.uid, app=admin_app)  # still there

    code, _ = authsh("user", "delete", "erin@example.com", "--yes")
    assert code == 0
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(made.uid, app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("erin@example.com", app=admin_app)


def test_recovery_link_matches_what_firebase_admin_generates(emulator, admin_app, authsh):
    auth.create_user(email="fay@example.com", password="secret123", app=admin_app)
    code, result = authsh("user", "link", "recovery", "fay@example.com", "--yes")
    assert code == 0
    ours = result["link"]["url"]
    theirs = auth.generate_password_reset_link("fay@example.com", app=admin_app)
    strip = lambda link: link.split("oobCode=")[0]  # noqa: E731 — same action URL, different code
    assert strip(ours) == strip(theirs)
    # The code works: the password changes and firebase-admin sees the account verified by the reset.
    reset = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:resetPassword",
                          params={"key": emulator.api_key}, timeout=10,
                          json={"oobCode": result["link"]["code"], "newPassword": "after-reset-1"})
    assert reset.status_code == 200, reset.text
    assert sign_in(emulator, "fay@example.com", "after-reset-1").status_code == 200
    assert auth.get_user_by_email("fay@example.com", app=admin_app).email_verified is True
