"""Production's limits in `authsh emulator --like-production`, through the official clients, in
both directions: the emulator refuses where a hosted project refuses, and a script written for
the hosted limits passes."""
import pytest
import requests
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

PASSWORD = "correct-horse-1"
KEY = {"key": "fake-api-key"}


def client(emu, key=None, address=None) -> SyncGoTrueClient:
    key = key or emu.anon_key
    headers = {"apikey": key, "Authorization": f"Bearer {key}"}
    if address:  # the client's address, as Supabase's proxy passes it on
        headers["X-Forwarded-For"] = address
    return SyncGoTrueClient(url=emu.supabase_url, headers=headers, persist_session=False, auto_refresh_token=False)


def api_error(call):
    with pytest.raises(AuthApiError) as info:
        call()
    return info.value


def test_built_in_mail_reaches_only_the_team(emulator_factory):
    emu = emulator_factory("--like-production", "--team", "ada@example.com")
    c = client(emu)
    err = api_error(lambda: c.sign_up({"email": "eve@example.com", "password": PASSWORD}))
    assert (err.status, err.code) == (400, "email_address_not_authorized")
    assert err.message == 'Email address "eve@example.com" cannot be used as it is not authorized'
    assert emu.outbox("eve@example.com") == []
    assert c.sign_up({"email": "ada+ci@example.com", "password": PASSWORD}).user.email == "ada+ci@example.com"
    assert [m["kind"] for m in emu.outbox("ada+ci@example.com")] == ["signup"]


def test_a_smoke_script_for_a_hosted_project_creates_confirmed_accounts(emulator_factory):
    """No team, built-in mail: the way that works on a hosted project works here too (admin-created,
    confirmed accounts need no mail), and the way that does not (sign-up) fails here too."""
    emu = emulator_factory("--like-production")
    admin = client(emu, emu.service_role_key).admin
    for i in range(5):
        admin.create_user({"email": f"smoke{i}@example.com", "password": PASSWORD, "email_confirm": True})
        session = client(emu).sign_in_with_password({"email": f"smoke{i}@example.com", "password": PASSWORD}).session
        assert session.access_token
    assert api_error(lambda: client(emu).sign_up({"email": "new@example.com", "password": PASSWORD})).code == \
        "email_address_not_authorized"


def test_custom_smtp_sends_30_an_hour(emulator_factory):
    emu = emulator_factory("--like-production", "--smtp", "custom")
    for i in range(30):
        assert client(emu, address=f"203.0.113.{i}").sign_up({"email": f"c{i}@example.com", "password": PASSWORD}).user
    err = api_error(lambda: client(emu, address="203.0.113.99").sign_up({"email": "c30@example.com", "password": PASSWORD}))
    assert (err.status, err.code) == (429, "over_email_send_rate_limit")


@pytest.mark.parametrize("route", ["recover", "resend", "otp"])
def test_per_address_limits(emulator_factory, route):
    emu = emulator_factory("--like-production", "--smtp", "custom")
    body = {"recover": {"email": "nobody@example.com"}, "resend": {"type": "signup", "email": "nobody@example.com"},
            "otp": {"email": "nobody@example.com", "create_user": False}}[route]
    for _ in range(30):
        assert requests.post(f"{emu.supabase_url}/{route}", json=body, timeout=5).status_code != 429
    r = requests.post(f"{emu.supabase_url}/{route}", json=body, timeout=5)
    assert r.status_code == 429 and r.json()["error_code"] == "over_request_rate_limit"
    other = requests.post(f"{emu.supabase_url}/{route}", json=body, headers={"X-Forwarded-For": "198.51.100.4"}, timeout=5)
    assert other.status_code != 429


def test_captcha_refuses_anon_calls_and_admin_keys_skip_it(emulator_factory):
    emu = emulator_factory("--captcha")
    err = api_error(lambda: client(emu).sign_up({"email": "cap@example.com", "password": PASSWORD}))
    assert (err.status, err.code) == (400, "captcha_failed")
    r = client(emu).sign_up({"email": "cap@example.com", "password": PASSWORD, "options": {"captcha_token": "token-1"}})
    assert r.user.email == "cap@example.com"
    resent = requests.post(f"{emu.supabase_url}/resend", json={"type": "signup", "email": "cap@example.com"},
                           headers={"apikey": emu.service_role_key, "Authorization": f"Bearer {emu.service_role_key}"},
                           timeout=5)
    assert resent.status_code in (200, 429)  # 429: the per-user mail interval, not the CAPTCHA
    assert resent.json().get("error_code") != "captcha_failed"


def test_firebase_new_accounts_per_address(emulator_factory):
    emu = emulator_factory("--like-production")
    url = f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signUp"
    for i in range(100):
        r = requests.post(url, params=KEY, json={"email": f"n{i}@x.io", "password": "secret1"}, timeout=5)
        assert r.status_code == 200, r.text
    r = requests.post(url, params=KEY, json={"email": "n100@x.io", "password": "secret1"}, timeout=5)
    assert r.status_code == 400
    assert r.json()["error"]["message"] == "TOO_MANY_ATTEMPTS_TRY_LATER"
    assert r.json()["error"]["errors"][0]["reason"] == "invalid"


def test_firebase_sign_in_link_mails_per_day(emulator_factory):
    emu = emulator_factory("--like-production")
    url = f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode"
    body = {"requestType": "EMAIL_SIGNIN", "email": "l@x.io", "continueUrl": "https://app.example.com/"}
    for _ in range(5):
        assert requests.post(url, params=KEY, json=body, timeout=5).status_code == 200
    r = requests.post(url, params=KEY, json=body, timeout=5)
    assert r.json()["error"]["message"] == "QUOTA_EXCEEDED : Exceeded daily quota for email sign-in."
