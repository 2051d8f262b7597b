"""`accounts:signInWithCustomToken` on the emulator with the tokens firebase-admin's
`create_custom_token` makes (unsigned for an emulator), with and without developer claims, for a
tenant, and the official emulator's errors; firebase-admin's `verify_id_token` and `get_user` are
the oracle for what the sign-in made."""
import base64
import json
import uuid

import firebase_admin
import pytest
import requests
from firebase_admin import auth, credentials, tenant_mgt

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
