"""Firebase Auth client REST conformance, driven with plain `requests`.

Assertions stay on status, `error.code`, the CODE part of `error.message` and field presence, so the
same checks hold against the official Firebase Auth emulator.
"""
import base64
import json
import urllib.parse

import pytest
import requests

KEY = {"key": "fake-api-key"}



@pytest.fixture
def emulator(emulator_in_both_modes):
    """Every test here runs in both emulator modes (see conftest)."""
    return emulator_in_both_modes

def unknown_email(emu):
    """What signing in with an unknown address answers: like production, enumeration protection is on."""
    return "INVALID_LOGIN_CREDENTIALS" if emu.like_production else "EMAIL_NOT_FOUND"


def wrong_password(emu):
    return "INVALID_LOGIN_CREDENTIALS" if emu.like_production else "INVALID_PASSWORD"


def itk(emu, op, body, **kwargs):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:{op}",
                         params=KEY, json=body, timeout=10, **kwargs)


def refresh(emu, rt):
    return requests.post(f"{emu.base}/securetoken.googleapis.com/v1/token", params=KEY,
                         data={"grant_type": "refresh_token", "refresh_token": rt}, timeout=10)


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def code_of(reply):
    return reply.json()["error"]["message"].split(" : ")[0]


def oob_codes(emu, project=None):
    r = requests.get(f"{emu.base}/emulator/v1/projects/{project or emu.project}/oobCodes", timeout=10)
    r.raise_for_status()
    return r.json()["oobCodes"]


def patch_config(emu, body):
    r = requests.patch(f"{emu.base}/emulator/v1/projects/{emu.project}/config", json=body, timeout=10)
    r.raise_for_status()
    return r.json()


def test_firebase_signup_signin_refresh(emulator):
    r = itk(emulator, "signUp", {"email": "A@x.io", "password": "secret1", "returnSecureToken": True})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["kind"] == "identitytoolkit#SignupNewUserResponse"
    assert body["email"] == "a@x.io" and body["expiresIn"] == "3600" and len(body["localId"]) == 28
    token = body["idToken"]
    assert token.endswith(".")
    header = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
    assert header["alg"] == "none"
    c = claims(token)
    assert c["iss"] == f"https://securetoken.google.com/{emulator.project}" and c["aud"] == emulator.project
    assert c["sub"] == c["user_id"] == body["localId"]
    assert c["exp"] - c["iat"] == 3600 and c["email"] == "a@x.io" and c["email_verified"] is False
    assert c["firebase"] == {"identities": {"email": ["a@x.io"]}, "sign_in_provider": "password"}

    s = itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret1", "returnSecureToken": True})
    assert s.status_code == 200
    s = s.json()
    assert s["registered"] is True and s["localId"] == body["localId"] and s["kind"] == "identitytoolkit#VerifyPasswordResponse"

    # The refresh token carries '+', '/', '=': requests form-encodes it.
    t = refresh(emulator, s["refreshToken"])
    assert t.status_code == 200, t.text
    t = t.json()
    assert t["token_type"] == "Bearer" and t["user_id"] == s["localId"] and t["expires_in"] == "3600"
    assert t["project_id"] == "12345" and t["id_token"] == t["access_token"]
    # JSON body with camelCase keys works too.
    j = requests.post(f"{emulator.base}/securetoken.googleapis.com/v1/token", params=KEY,
                      json={"grantType": "refresh_token", "refreshToken": t["refresh_token"]}, timeout=10)
    assert j.status_code == 200

    lookup = itk(emulator, "lookup", {"idToken": t["id_token"]}).json()
    user = lookup["users"][0]
    assert user["email"] == "a@x.io" and user["passwordHash"] == "UkVEQUNURUQ=" and "salt" not in user
    assert isinstance(user["createdAt"], str) and isinstance(user["lastLoginAt"], str)
    assert "secret1" not in json.dumps(lookup)


def test_firebase_error_envelope_and_codes(emulator):
    assert itk(emulator, "signUp", {"email": "a@x.io", "password": "secret1"}).ok
    e = itk(emulator, "signUp", {"email": "a@x.io", "password": "secret1"})
    err = e.json()["error"]
    assert (e.status_code, err["code"], err["message"]) == (400, 400, "EMAIL_EXISTS")
    assert "status" not in err and err["errors"][0]["reason"] == "invalid" and err["errors"][0]["domain"] == "global"
    assert itk(emulator, "signUp", {"email": "b@x.io", "password": "123"}).json()["error"]["message"] \
        == "WEAK_PASSWORD : Password should be at least 6 characters"
    assert code_of(itk(emulator, "signUp", {"email": "", "password": ""})) == "INVALID_EMAIL"
    assert code_of(itk(emulator, "signUp", {"password": "secret1"})) == "MISSING_EMAIL"
    assert code_of(itk(emulator, "signInWithPassword", {"email": "nobody@x.io", "password": "x"})) == unknown_email(emulator)
    assert code_of(itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "nope"})) == wrong_password(emulator)
    assert code_of(itk(emulator, "signInWithPassword", {"email": "a@x.io"})) == "MISSING_PASSWORD"
    assert code_of(itk(emulator, "lookup", {"idToken": "garbage"})) == "INVALID_ID_TOKEN"
    assert code_of(refresh(emulator, "garbage")) == "INVALID_REFRESH_TOKEN"

    no_key = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signUp", json={}, timeout=10)
    assert no_key.status_code == 403
    assert no_key.json()["error"]["status"] == "PERMISSION_DENIED"
    assert no_key.json()["error"]["message"] == "The request is missing a valid API key."
    bearer = itk(emulator, "lookup", {}, headers={"Authorization": "Bearer some-id-token"})
    assert bearer.status_code == 401 and bearer.json()["error"]["status"] == "UNAUTHENTICATED"
    header_key = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signUp", json={},
                               headers={"x-goog-api-key": "anything"}, timeout=10)
    assert header_key.ok
    bad_json = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signUp", params=KEY,
                             data="{nope", headers={"Content-Type": "application/json"}, timeout=10)
    assert bad_json.status_code == 400
    assert bad_json.json()["error"]["message"].startswith("Invalid JSON payload received.")
    assert bad_json.json()["error"]["status"] == "INVALID_ARGUMENT"
    # Unknown fields are ignored; pretty-printed JSON.
    r = itk(emulator, "signUp", {"email": "c@x.io", "password": "secret1", "whatever": 1})
    assert r.ok and '\n  "kind"' in r.text


def test_firebase_password_reset_round_trip(emulator):
    uid = itk(emulator, "signUp", {"email": "a@x.io", "password": "secret1"}).json()["localId"]
    old = itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret1"}).json()
    r = itk(emulator, "sendOobCode", {"requestType": "PASSWORD_RESET", "email": "A@x.io"})
    assert r.ok and r.json() == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "a@x.io"}
    codes = oob_codes(emulator)
    entry = [c for c in codes if c["requestType"] == "PASSWORD_RESET"][-1]
    link = urllib.parse.urlparse(entry["oobLink"])
    query = dict(urllib.parse.parse_qsl(link.query))
    assert link.path == "/emulator/action" and link.netloc == emulator.host
    assert query == {"mode": "resetPassword", "lang": "en", "oobCode": entry["oobCode"], "apiKey": "fake-api-key"}
    code = entry["oobCode"]
    assert len(code) == 54

    mail = emulator.outbox("a@x.io")[-1]
    assert (mail["side"], mail["kind"], mail["code"], mail["link"]) == ("firebase", "PASSWORD_RESET", code, entry["oobLink"])

    check = itk(emulator, "resetPassword", {"oobCode": code}).json()
    assert check == {"kind": "identitytoolkit#ResetPasswordResponse", "requestType": "PASSWORD_RESET", "email": "a@x.io"}
    assert code_of(itk(emulator, "resetPassword", {"oobCode": code, "newPassword": "123"})) == "WEAK_PASSWORD"
    assert len(oob_codes(emulator)) == 1
    import time
    time.sleep(1.1)  # tokens minted in the same second as the reset stay valid
    done = itk(emulator, "resetPassword", {"oobCode": code, "newPassword": "secret2"})
    assert done.ok and done.json()["requestType"] == "PASSWORD_RESET"
    assert oob_codes(emulator) == []
    assert code_of(itk(emulator, "resetPassword", {"oobCode": code, "newPassword": "secret2"})) == "INVALID_OOB_CODE"

    assert code_of(itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret1"})) == wrong_password(emulator)
    s = itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret2"}).json()
    assert s["localId"] == uid and claims(s["idToken"])["email_verified"] is True
    assert code_of(itk(emulator, "lookup", {"idToken": old["idToken"]})) == "TOKEN_EXPIRED"
    if emulator.like_production:
        # As production: the reset ended the refresh tokens minted before it, in Secure Token's envelope.
        expired = refresh(emulator, old["refreshToken"])
        assert expired.status_code == 400
        assert expired.json() == {"error": {"code": 400, "message": "TOKEN_EXPIRED", "status": "INVALID_ARGUMENT"}}
        assert s["displayName"] == ""
    else:
        assert refresh(emulator, old["refreshToken"]).ok  # the official emulator's refresh tokens are stateless


def test_firebase_verify_email_update_and_delete(emulator):
    s = itk(emulator, "signUp", {"email": "a@x.io", "password": "secret1"}).json()
    assert code_of(itk(emulator, "sendOobCode", {"requestType": "VERIFY_EMAIL", "email": "a@x.io"})) == "INVALID_ID_TOKEN"
    assert itk(emulator, "sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": s["idToken"]}).ok
    code = [c for c in oob_codes(emulator) if c["requestType"] == "VERIFY_EMAIL"][-1]["oobCode"]
    applied = itk(emulator, "update", {"oobCode": code}).json()
    assert applied["emailVerified"] is True and "idToken" not in applied

    profile = itk(emulator, "update", {"idToken": s["idToken"], "displayName": "Alice", "returnSecureToken": True}).json()
    assert profile["displayName"] == "Alice" and "idToken" not in profile
    gone = itk(emulator, "update", {"idToken": s["idToken"], "deleteAttribute": ["DISPLAY_NAME"]}).json()
    assert "displayName" not in gone

    changed = itk(emulator, "update", {"idToken": s["idToken"], "password": "secret2"}).json()
    assert changed["idToken"] and changed["refreshToken"] and changed["expiresIn"] == "3600"
    assert code_of(itk(emulator, "update", {"displayName": "x"})) == "INVALID_REQ_TYPE"

    deleted = itk(emulator, "delete", {"idToken": changed["idToken"]})
    assert deleted.json() == {"kind": "identitytoolkit#DeleteAccountResponse"}
    assert code_of(itk(emulator, "lookup", {"idToken": changed["idToken"]})) == "USER_NOT_FOUND"
    assert code_of(refresh(emulator, changed["refreshToken"])) == "INVALID_REFRESH_TOKEN"


def test_firebase_create_auth_uri_and_utilities(emulator):
    assert requests.get(f"{emulator.base}/", timeout=10).json()["authEmulator"]["ready"] is True
    itk(emulator, "signUp", {"email": "a@x.io", "password": "secret1"})
    r = itk(emulator, "createAuthUri", {"identifier": "a@x.io", "continueUri": "http://localhost/"}).json()
    if emulator.like_production:
        assert set(r) == {"kind", "sessionId"}  # enumeration protection: nothing about the account
    else:
        assert r["registered"] is True and r["signinMethods"] == ["password"]
        r = itk(emulator, "createAuthUri", {"identifier": "b@x.io", "continueUri": "http://localhost/"}).json()
        assert r["registered"] is False and r.get("signinMethods", []) == []

    cleared = requests.delete(f"{emulator.base}/emulator/v1/projects/{emulator.project}/accounts", timeout=10)
    assert cleared.ok and cleared.json() == {}
    assert code_of(itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "secret1"})) == unknown_email(emulator)
    # Another project id is a separate, empty state.
    assert oob_codes(emulator, "some-other-project") == []


def test_firebase_email_privacy_via_patch_config(emulator):
    itk(emulator, "signUp", {"email": "a@x.io", "password": "secret1"})
    cfg = requests.get(f"{emulator.base}/emulator/v1/projects/{emulator.project}/config", timeout=10).json()
    assert cfg == {"signIn": {"email": {"enabled": True, "passwordRequired": True}, "allowDuplicateEmails": False},
                   "emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}}
    cfg = patch_config(emulator, {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}})
    assert cfg["emailPrivacyConfig"]["enableImprovedEmailPrivacy"] is True
    assert code_of(itk(emulator, "signInWithPassword", {"email": "x@x.io", "password": "secret1"})) == "INVALID_LOGIN_CREDENTIALS"
    assert code_of(itk(emulator, "signInWithPassword", {"email": "a@x.io", "password": "wrong1"})) == "INVALID_LOGIN_CREDENTIALS"
    r = itk(emulator, "sendOobCode", {"requestType": "PASSWORD_RESET", "email": "ghost@x.io"})
    assert r.ok and oob_codes(emulator) == []
    patch_config(emulator, {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}})
    # Like production, protection stays on whatever the project setting says.
    assert code_of(itk(emulator, "signInWithPassword", {"email": "x@x.io", "password": "secret1"})) == unknown_email(emulator)


def test_firebase_email_privacy_flag(emulator_factory):
    emu = emulator_factory("--email-privacy")
    itk(emu, "signUp", {"email": "a@x.io", "password": "secret1"})
    assert code_of(itk(emu, "signInWithPassword", {"email": "x@x.io", "password": "secret1"})) == "INVALID_LOGIN_CREDENTIALS"
    assert code_of(itk(emu, "signInWithPassword", {"email": "a@x.io", "password": "wrong1"})) == "INVALID_LOGIN_CREDENTIALS"
    r = itk(emu, "createAuthUri", {"identifier": "a@x.io", "continueUri": "http://localhost/"}).json()
    assert set(r) == {"kind", "sessionId"}
    cfg = requests.get(f"{emu.base}/emulator/v1/projects/{emu.project}/config", timeout=10).json()
    assert cfg["emailPrivacyConfig"]["enableImprovedEmailPrivacy"] is True


def test_firebase_like_production_reset_code_and_refresh(emulator_factory):
    """Production behaviour through the REST API: a password change ends earlier refresh tokens."""
    emu = emulator_factory("--like-production")
    s = itk(emu, "signUp", {"email": "p@x.io", "password": "secret1"}).json()
    assert refresh(emu, s["refreshToken"]).ok
    changed = itk(emu, "update", {"idToken": s["idToken"], "password": "secret2", "returnSecureToken": True}).json()
    expired = refresh(emu, s["refreshToken"])
    assert expired.json() == {"error": {"code": 400, "message": "TOKEN_EXPIRED", "status": "INVALID_ARGUMENT"}}
    assert refresh(emu, changed["refreshToken"]).ok
    unknown = itk(emu, "sendOobCode", {"requestType": "PASSWORD_RESET", "email": "ghost@x.io"})
    assert unknown.ok and unknown.json()["email"] == "ghost@x.io" and oob_codes(emu) == []
