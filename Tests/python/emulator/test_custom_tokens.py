"""`accounts:signInWithCustomToken` on the emulator with the tokens firebase-admin's
`create_custom_token` makes (unsigned for an emulator), with and without developer claims, for a
tenant, and the official emulator's errors; firebase-admin's `verify_id_token` and `get_user` are
the oracle for what the sign-in made."""
import base64
import json
import subprocess
import uuid

import firebase_admin
import pytest
import requests
from firebase_admin import auth, credentials, tenant_mgt

from conftest import authsh_binary, user_env

AUDIENCE = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"


def itk(emu, body, op="signInWithCustomToken"):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:{op}",
                         params={"key": emu.api_key}, json=body, timeout=10)


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def unsigned(payload):
    segment = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    return segment({"alg": "none", "typ": "JWT"}) + "." + segment(payload) + "."


def error(answer):
    assert answer.status_code == 400, answer.text
    return answer.json()["error"]["message"]


def test_a_new_uid_is_made_and_developer_claims_reach_the_id_token_and_its_refresh(emulator, admin_app):
    token = auth.create_custom_token("shop-42", {"role": "admin", "plan": "pro"}, app=admin_app).decode()
    answer = itk(emulator, {"token": token, "returnSecureToken": True})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["kind"] == "identitytoolkit#VerifyCustomTokenResponse" and body["isNewUser"] is True
    decoded = auth.verify_id_token(body["idToken"], app=admin_app)
    assert decoded["uid"] == "shop-42" and decoded["role"] == "admin" and decoded["plan"] == "pro"
    assert decoded["firebase"]["sign_in_provider"] == "custom"
    made = auth.get_user("shop-42", app=admin_app)
    assert made.uid == "shop-42" and made.user_metadata.last_sign_in_timestamp is not None

    refreshed = requests.post(f"{emulator.base}/securetoken.googleapis.com/v1/token",
                              params={"key": emulator.api_key},
                              data={"grant_type": "refresh_token", "refresh_token": body["refreshToken"]}, timeout=10)
    assert refreshed.status_code == 200, refreshed.text
    assert claims(refreshed.json()["id_token"])["role"] == "admin"

    again = itk(emulator, {"token": auth.create_custom_token("shop-42", app=admin_app).decode()})
    assert again.status_code == 200 and again.json()["isNewUser"] is False
    assert "role" not in claims(again.json()["idToken"]), "claims come from the token, not the account"


def test_an_existing_account_signs_in_with_its_stored_claims_unless_disabled(emulator, admin_app):
    user = auth.create_user(email="ada@example.com", app=admin_app)
    auth.set_custom_user_claims(user.uid, {"team": "engines"}, app=admin_app)
    answer = itk(emulator, {"token": auth.create_custom_token(user.uid, app=admin_app).decode()})
    assert answer.status_code == 200 and answer.json()["isNewUser"] is False
    decoded = claims(answer.json()["idToken"])
    assert decoded["team"] == "engines" and decoded["email"] == "ada@example.com"
    auth.update_user(user.uid, disabled=True, app=admin_app)
    assert error(itk(emulator, {"token": auth.create_custom_token(user.uid, app=admin_app).decode()})) == "USER_DISABLED"


@pytest.mark.parametrize("body,expected", [
    ({}, "MISSING_CUSTOM_TOKEN"),
    ({"token": "not-a-jwt"}, "INVALID_CUSTOM_TOKEN : Invalid assertion format. 3 dot separated segments required."),
    ({"token": "{not json"},
     "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))"),
    ({"token": unsigned({"aud": "https://example.com", "uid": "x"})},
     f"INVALID_CUSTOM_TOKEN : ((Invalid audience. Expected {AUDIENCE}.))"),
    ({"token": unsigned({"aud": AUDIENCE})}, "MISSING_IDENTIFIER"),
    ({"token": unsigned({"aud": AUDIENCE, "uid": "x", "claims": {"sub": "y"}})}, "FORBIDDEN_CLAIM : sub"),
    ({"token": unsigned({"aud": AUDIENCE, "uid": "x", "claims": {"blob": "z" * 1000}})}, "CLAIMS_TOO_LARGE"),
])
def test_the_official_emulators_errors(emulator, body, expected):
    assert error(itk(emulator, body)) == expected


def test_strict_json_is_taken_as_a_fake_token(emulator, admin_app):
    answer = itk(emulator, {"token": json.dumps({"uid": "json-uid", "claims": {"tier": 2}})})
    assert answer.status_code == 200, answer.text
    assert claims(answer.json()["idToken"])["tier"] == 2
    assert auth.get_user("json-uid", app=admin_app).uid == "json-uid"


class OwnerCredential(credentials.Base):
    def get_credential(self):
        return firebase_admin._utils.EmulatorAdminCredentials()


def test_a_tenants_token_signs_in_to_that_tenant_only(emulator, monkeypatch):
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", emulator.host)
    monkeypatch.setattr(tenant_mgt._TenantManagementService, "TENANT_MGT_URL",
                        f"http://{emulator.host}/identitytoolkit.googleapis.com/v2")
    app = firebase_admin.initialize_app(OwnerCredential(), options={"projectId": emulator.project},
                                        name=f"custom-{uuid.uuid4()}")
    try:
        eu = tenant_mgt.create_tenant("Shop-EU", app=app)
        us = tenant_mgt.create_tenant("Shop-US", app=app)
        client = tenant_mgt.auth_for_tenant(eu.tenant_id, app=app)
        token = client.create_custom_token("eu-1", {"region": "eu"}).decode()
        assert claims(token)["tenant_id"] == eu.tenant_id
        answer = itk(emulator, {"token": token, "tenantId": eu.tenant_id})
        assert answer.status_code == 200, answer.text
        decoded = claims(answer.json()["idToken"])
        assert decoded["firebase"]["tenant"] == eu.tenant_id and decoded["region"] == "eu"
        assert client.get_user("eu-1").tenant_id == eu.tenant_id
        assert error(itk(emulator, {"token": token, "tenantId": us.tenant_id})) == "TENANT_ID_MISMATCH"
    finally:
        firebase_admin.delete_app(app)


def authsh(env, *args):
    return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)


def test_login_with_a_custom_token_saves_the_session_and_whoami_shows_its_claims(emulator, admin_app, tmp_path):
    env = user_env(tmp_path, emulator, "firebase", FIREBASE_API_KEY=emulator.api_key, AUTHSH_CREDENTIAL_STORE="file")
    token = auth.create_custom_token("app-user-7", {"role": "editor"}, app=admin_app).decode()
    done = authsh({**env, "TOK": token}, "login", "--custom-token-env", "TOK")
    assert done.returncode == 0, done.stderr
    assert "Signed in with a custom token as app-user-7" in done.stdout + done.stderr
    assert token not in done.stdout + done.stderr
    who = authsh(env, "whoami", "--claims", "--json")
    assert who.returncode == 0, who.stderr
    doc = json.loads(who.stdout)
    assert doc["user"]["id"] == "app-user-7"
    assert doc["claims"]["role"] == "editor" and doc["claims"]["firebase"]["sign_in_provider"] == "custom", doc
    shown = authsh(env, "whoami", "--claims")
    assert "editor" in shown.stdout, shown.stdout

    # The token on the command line works too; it never shows in --verbose.
    other = auth.create_custom_token("app-user-8", app=admin_app).decode()
    done = authsh(env, "login", "--custom-token", other, "--verbose")
    assert done.returncode == 0, done.stderr
    assert other not in done.stdout + done.stderr
    assert json.loads(authsh(env, "whoami", "--json").stdout)["user"]["id"] == "app-user-8"

    bad = authsh(env, "login", "--custom-token", "not-a-jwt")
    assert bad.returncode != 0 and "INVALID_CUSTOM_TOKEN" in bad.stderr, bad.stderr
    unset = authsh(env, "login", "--custom-token-env", "NOPE")
    assert unset.returncode == 64 and "NOPE is not set" in unset.stderr
    both = authsh(env, "login", "ada@example.com", "--custom-token", other)
    assert both.returncode == 64 and "token alone" in both.stderr


def test_supabase_has_no_custom_tokens(emulator, tmp_path):
    env = user_env(tmp_path, emulator, "supabase", AUTHSH_CREDENTIAL_STORE="file")
    done = authsh(env, "login", "--custom-token", "x.y.z")
    assert done.returncode != 0 and "not_supported" in done.stderr, done.stderr
