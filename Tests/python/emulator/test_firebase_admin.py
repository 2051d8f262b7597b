"""The official `firebase_admin` (PyPI 7.x) against the emulator via FIREBASE_AUTH_EMULATOR_HOST."""
import urllib.parse

import pytest
import requests
from firebase_admin import auth

KEY = {"key": "fake-api-key"}


def itk(emu, op, body):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:{op}", params=KEY, json=body, timeout=10)


def test_firebase_admin_user_management(emulator, admin_app):
    user = auth.create_user(email="Bob@x.io", password="secret1", display_name="Bob", app=admin_app)
    assert user.email == "bob@x.io" and user.display_name == "Bob" and user.email_verified is False
    assert [p.provider_id for p in user.provider_data] == ["password"]
    assert user.user_metadata.creation_timestamp > 0 and user.tokens_valid_after_timestamp > 0

    assert auth.get_user(user.uid, app=admin_app).email == "bob@x.io"
    assert auth.get_user_by_email("BOB@x.io", app=admin_app).uid == user.uid

    auth.update_user(user.uid, disabled=True, app=admin_app)
    assert auth.get_user(user.uid, app=admin_app).disabled is True
    r = itk(emulator, "signInWithPassword", {"email": "bob@x.io", "password": "secret1"})
    assert r.json()["error"]["message"] == "USER_DISABLED"
    auth.update_user(user.uid, disabled=False, display_name="Robert", app=admin_app)
    assert auth.get_user(user.uid, app=admin_app).display_name == "Robert"

    auth.set_custom_user_claims(user.uid, {"admin": True}, app=admin_app)
    assert auth.get_user(user.uid, app=admin_app).custom_claims == {"admin": True}

    other = auth.create_user(uid="zzz-last", email="z@x.io", app=admin_app)
    listed = [u.uid for u in auth.list_users(app=admin_app).iterate_all()]
    assert sorted(listed) == sorted([user.uid, other.uid])
    page = auth.list_users(max_results=1, app=admin_app)
    assert len(page.users) == 1 and page.has_next_page
    # A service account reads the project's scrypt hash and salt (as production gives them), never the password.
    first = page.users[0]
    if first.uid == user.uid:
        assert first.password_hash and first.password_hash != "UkVEQUNURUQ=" and first.password_salt
    else:
        assert first.password_hash is None

    auth.delete_user(other.uid, app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(other.uid, app=admin_app)
    result = auth.delete_users([user.uid], app=admin_app)
    assert result.success_count == 1 and result.failure_count == 0
    assert list(auth.list_users(app=admin_app).iterate_all()) == []


def test_firebase_admin_error_mapping(emulator, admin_app):
    auth.create_user(email="a@x.io", password="secret1", app=admin_app)
    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.create_user(email="a@x.io", password="secret1", app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user("no-such-uid", app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("nobody@x.io", app=admin_app)
    with pytest.raises(auth.UserNotFoundError):
        auth.delete_user("no-such-uid", app=admin_app)
    with pytest.raises(auth.UidAlreadyExistsError):
        uid = auth.get_user_by_email("a@x.io", app=admin_app).uid
        auth.create_user(uid=uid, app=admin_app)
    with pytest.raises(auth.EmailNotFoundError):
        auth.generate_password_reset_link("nobody@x.io", app=admin_app)


def test_firebase_admin_password_reset_link(emulator, admin_app):
    auth.create_user(email="a@x.io", password="secret1", app=admin_app)
    link = auth.generate_password_reset_link("a@x.io", app=admin_app)
    parsed = urllib.parse.urlparse(link)
    query = dict(urllib.parse.parse_qsl(parsed.query))
    assert parsed.path == "/emulator/action" and query["mode"] == "resetPassword"
    r = itk(emulator, "resetPassword", {"oobCode": query["oobCode"], "newPassword": "secret2"})
    assert r.ok and r.json()["email"] == "a@x.io"
    assert itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret1"}).json()["error"]["message"] \
        == "INVALID_PASSWORD"
    assert itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret2"}).ok

    verify = auth.generate_email_verification_link("a@x.io", app=admin_app)
    code = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(verify).query))["oobCode"]
    assert itk(emulator, "update", {"oobCode": code}).json()["emailVerified"] is True
    assert auth.get_user_by_email("a@x.io", app=admin_app).email_verified is True


def test_firebase_admin_verify_id_token(emulator, admin_app):
    auth.create_user(email="a@x.io", password="secret1", app=admin_app)
    signed_in = itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret1"}).json()
    token = signed_in["idToken"]
    decoded = auth.verify_id_token(token, app=admin_app)
    assert decoded["email"] == "a@x.io" and decoded["firebase"]["sign_in_provider"] == "password"
    assert auth.verify_id_token(token, check_revoked=True, app=admin_app)["uid"] == decoded["uid"]

    import time
    time.sleep(1.1)
    auth.revoke_refresh_tokens(decoded["uid"], app=admin_app)
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(token, check_revoked=True, app=admin_app)
    lookup = itk(emulator, "lookup", {"idToken": token})
    assert lookup.json()["error"]["message"] == "TOKEN_EXPIRED"
    # Refresh tokens stay stateless in the default mode, as in the official emulator
    # (--like-production ends them, as production does).
    refreshed = requests.post(f"{emulator.base}/securetoken.googleapis.com/v1/token", params=KEY, timeout=10,
                              data={"grant_type": "refresh_token", "refresh_token": signed_in["refreshToken"]})
    assert refreshed.ok

    cookie = auth.create_session_cookie(
        itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret1"}).json()["idToken"],
        expires_in=600, app=admin_app)
    assert auth.verify_session_cookie(cookie, app=admin_app)["email"] == "a@x.io"


def test_firebase_admin_import_users(emulator, admin_app):
    records = [auth.ImportUserRecord(uid="imp1", email="Imp@x.io", email_verified=True, display_name="Imp"),
               auth.ImportUserRecord(uid="imp2", email="imp2@x.io", disabled=True)]
    result = auth.import_users(records, app=admin_app)
    assert (result.success_count, result.failure_count) == (2, 0)
    user = auth.get_user_by_email("imp@x.io", app=admin_app)
    assert (user.uid, user.email_verified, user.display_name) == ("imp1", True, "Imp")
    assert auth.get_user("imp2", app=admin_app).disabled is True
    again = auth.import_users([auth.ImportUserRecord(uid="imp3", email="imp@x.io")], app=admin_app)
    assert again.failure_count == 1 and "duplicate email" in again.errors[0].reason
