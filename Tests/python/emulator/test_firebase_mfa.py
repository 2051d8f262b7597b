"""Firebase second factors (TOTP, v2 API), e-mail-link and fake-IdP sign-in against the emulator,
with `requests`, pyotp and firebase-admin, in both emulator modes."""
import base64
import json

import pyotp
import pytest
import requests
from firebase_admin import auth

KEY = {"key": "fake-api-key"}
PASSWORD = "correct-horse-1"


@pytest.fixture
def emulator(emulator_in_both_modes):
    return emulator_in_both_modes


def itk(emu, op, body, version="v1"):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/{version}/accounts{'/' if version == 'v2' else ':'}{op}",
                         params=KEY, json=body, timeout=10)


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def error(reply):
    return reply.json()["error"]["message"]


def project_config(emu, method="GET", **extra):
    return requests.request(method, f"{emu.base}/identitytoolkit.googleapis.com/v2/projects/{emu.project}/config",
                            headers={"Authorization": "Bearer owner"}, timeout=10, **extra)


def switch_totp_on(emu, adjacent_intervals=5):
    """What a project owner does once (Identity Platform): TOTP in the project's `mfa` config."""
    body = {"mfa": {"providerConfigs": [{"state": "ENABLED",
                                         "totpProviderConfig": {"adjacentIntervals": adjacent_intervals}}]}}
    reply = project_config(emu, "PATCH", params={"updateMask": "mfa"}, json=body)
    assert reply.status_code == 200, reply.text
    return reply.json()


def enrolled_account(emu, admin_app, email):
    if emu.like_production:
        switch_totp_on(emu)
    user = auth.create_user(email=email, password=PASSWORD, email_verified=True, app=admin_app)
    id_token = itk(emu, "signInWithPassword", {"email": email, "password": PASSWORD, "returnSecureToken": True}).json()["idToken"]
    start = itk(emu, "mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}}, version="v2")
    assert start.status_code == 200, start.text
    info = start.json()["totpSessionInfo"]
    assert (info["verificationCodeLength"], info["hashingAlgorithm"], info["periodSec"]) == (6, "SHA1", 30)
    totp = pyotp.TOTP(info["sharedSecretKey"])
    finish = itk(emu, "mfaEnrollment:finalize", {
        "idToken": id_token, "displayName": "phone",
        "totpVerificationInfo": {"sessionInfo": info["sessionInfo"], "verificationCode": totp.now()}}, version="v2")
    assert finish.status_code == 200, finish.text
    return user, totp, claims(finish.json()["idToken"])["firebase"]["second_factor_identifier"]


def test_password_sign_in_of_an_enrolled_account_needs_the_code(emulator, admin_app):
    user, totp, enrollment_id = enrolled_account(emulator, admin_app, "ada@example.com")
    first = itk(emulator, "signInWithPassword", {"email": "ada@example.com", "password": PASSWORD, "returnSecureToken": True})
    assert first.status_code == 200
    body = first.json()
    assert "idToken" not in body and body["localId"] == user.uid
    assert [m["mfaEnrollmentId"] for m in body["mfaInfo"]] == [enrollment_id] and body["mfaInfo"][0]["totpInfo"] == {}
    pending = body["mfaPendingCredential"]
    wrong = itk(emulator, "mfaSignIn:finalize", {"mfaPendingCredential": pending, "mfaEnrollmentId": enrollment_id,
                                                 "totpVerificationInfo": {"verificationCode": "000000"}}, version="v2")
    assert wrong.status_code == 400 and error(wrong) == "INVALID_CODE"
    done = itk(emulator, "mfaSignIn:finalize", {"mfaPendingCredential": pending, "mfaEnrollmentId": enrollment_id,
                                                "totpVerificationInfo": {"verificationCode": totp.now()}}, version="v2")
    assert done.status_code == 200, done.text
    firebase = claims(done.json()["idToken"])["firebase"]
    assert firebase["sign_in_second_factor"] == "totp" and firebase["second_factor_identifier"] == enrollment_id
    # firebase-admin verifies the emulator's token and sees the second factor.
    decoded = auth.verify_id_token(done.json()["idToken"], app=admin_app)
    assert decoded["firebase"]["sign_in_second_factor"] == "totp"


def test_lookup_shows_mfa_info_and_support_clears_it(emulator, admin_app):
    user, _, enrollment_id = enrolled_account(emulator, admin_app, "bob@example.com")
    headers = {"Authorization": "Bearer owner"}
    base = f"{emulator.base}/identitytoolkit.googleapis.com/v1/projects/{emulator.project}"
    looked = requests.post(f"{base}/accounts:lookup", json={"localId": [user.uid]}, headers=headers, timeout=5).json()
    assert [m["mfaEnrollmentId"] for m in looked["users"][0]["mfaInfo"]] == [enrollment_id]
    listed = requests.get(f"{base}/accounts:batchGet", headers=headers, timeout=5).json()
    assert listed["users"][0]["mfaInfo"][0]["totpInfo"] == {}
    cleared = requests.post(f"{base}/accounts:update", json={"localId": user.uid, "mfa": {"enrollments": []}},
                            headers=headers, timeout=5)
    assert cleared.status_code == 200, cleared.text
    looked = requests.post(f"{base}/accounts:lookup", json={"localId": [user.uid]}, headers=headers, timeout=5).json()
    assert "mfaInfo" not in looked["users"][0]
    assert "idToken" in itk(emulator, "signInWithPassword", {"email": "bob@example.com", "password": PASSWORD}).json()


def test_email_link_account_has_no_password(emulator, admin_app):
    assert itk(emulator, "sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": "link@example.com",
                                         "continueUrl": "http://localhost/done"}).status_code == 200
    [mail] = [m for m in emulator.outbox("link@example.com") if m["kind"] == "EMAIL_SIGNIN"]
    signed_in = itk(emulator, "signInWithEmailLink", {"email": "link@example.com", "oobCode": mail["code"]})
    assert signed_in.status_code == 200 and signed_in.json()["isNewUser"] is True
    user = auth.get_user_by_email("link@example.com", app=admin_app)
    assert [p.provider_id for p in user.provider_data] == ["password"] and user.email_verified
    wrong = itk(emulator, "signInWithPassword", {"email": "link@example.com", "password": PASSWORD})
    assert error(wrong) == ("INVALID_LOGIN_CREDENTIALS" if emulator.like_production else "INVALID_PASSWORD")


def test_google_only_account_from_a_fake_idp_token(emulator, admin_app):
    header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
    payload = base64.urlsafe_b64encode(json.dumps(
        {"sub": "g-1234", "email": "gus@example.com", "email_verified": True, "name": "Gus"}).encode()).rstrip(b"=").decode()
    token = f"{header}.{payload}."
    r = itk(emulator, "signInWithIdp", {"requestUri": "http://localhost", "returnSecureToken": True,
                                        "postBody": f"id_token={token}&providerId=google.com"})
    assert r.status_code == 200, r.text
    assert r.json()["isNewUser"] is True and claims(r.json()["idToken"])["firebase"]["sign_in_provider"] == "google.com"
    user = auth.get_user_by_email("gus@example.com", app=admin_app)
    assert [(p.provider_id, p.uid) for p in user.provider_data] == [("google.com", "g-1234")]
    assert user.display_name == "Gus"
    failed = itk(emulator, "signInWithPassword", {"email": "gus@example.com", "password": PASSWORD})
    assert failed.status_code == 400
    auth.update_user(user.uid, providers_to_delete=["google.com"], app=admin_app)
    assert auth.get_user(user.uid, app=admin_app).provider_data == []


def test_totp_is_off_until_the_project_mfa_config_switches_it_on(emulator, admin_app):
    """Like production TOTP enrolment needs the project's `mfa` config (Identity Platform); in the
    default mode a project starts with it on, as a local emulator should. A PATCH decides in both."""
    initial = project_config(emulator).json()["mfa"]
    if emulator.like_production:
        assert initial == {}
    else:
        assert initial["providerConfigs"] == [{"state": "ENABLED", "totpProviderConfig": {"adjacentIntervals": 5}}]
    auth.create_user(email="off@example.com", password=PASSWORD, email_verified=True, app=admin_app)
    id_token = itk(emulator, "signInWithPassword", {"email": "off@example.com", "password": PASSWORD,
                                                    "returnSecureToken": True}).json()["idToken"]
    start = itk(emulator, "mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}}, version="v2")
    if emulator.like_production:
        assert start.status_code == 400 and error(start) == "OPERATION_NOT_ALLOWED : TOTP based MFA not enabled."
        assert start.json()["error"]["status"] == "INVALID_ARGUMENT"
    else:
        assert start.status_code == 200, start.text
    config = switch_totp_on(emulator, adjacent_intervals=3)
    assert config["mfa"]["providerConfigs"] == [{"state": "ENABLED", "totpProviderConfig": {"adjacentIntervals": 3}}]
    assert project_config(emulator).json()["mfa"] == config["mfa"]
    again = itk(emulator, "mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}}, version="v2")
    assert again.status_code == 200, again.text
    bad = project_config(emulator, "PATCH", params={"updateMask": "mfa"}, json={"mfa": {"providerConfigs": [
        {"state": "ENABLED", "totpProviderConfig": {"adjacentIntervals": 11}}]}})
    assert bad.status_code == 400
    off = project_config(emulator, "PATCH", params={"updateMask": "mfa"}, json={"mfa": {"providerConfigs": []}})
    assert off.status_code == 200 and off.json()["mfa"] == {}
    refused = itk(emulator, "mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}}, version="v2")
    assert refused.status_code == 400 and error(refused) == "OPERATION_NOT_ALLOWED : TOTP based MFA not enabled."


def test_wrong_second_factor_codes_are_limited_like_production(emulator, admin_app):
    """Production stops a code-guessing loop (TOO_MANY_ATTEMPTS_TRY_LATER); Google publishes no
    number, the emulator allows 5 wrong codes an hour per account like production. The default mode
    keeps guessing unlimited, as the official emulator does."""
    user, totp, enrollment_id = enrolled_account(emulator, admin_app, "guess@example.com")

    def finalize(code):
        first = itk(emulator, "signInWithPassword", {"email": "guess@example.com", "password": PASSWORD,
                                                     "returnSecureToken": True}).json()
        return itk(emulator, "mfaSignIn:finalize", {"mfaPendingCredential": first["mfaPendingCredential"],
                                                    "mfaEnrollmentId": enrollment_id,
                                                    "totpVerificationInfo": {"verificationCode": code}}, version="v2")

    wrong = f"{(int(totp.now()) + 500_000) % 1_000_000:06d}"
    for _ in range(5):
        assert error(finalize(wrong)) == "INVALID_CODE"
    after = finalize(totp.now())
    if emulator.like_production:
        assert after.status_code == 400 and error(after).startswith("TOO_MANY_ATTEMPTS_TRY_LATER"), after.text
    else:
        assert after.status_code == 200, after.text
