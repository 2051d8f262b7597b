"""PKCE against `authsh emulator` as supabase-auth runs it (`flow_type="pkce"`, the default of
@supabase/ssr): the mailed link redirects with `?code=`, `exchange_code_for_session` trades it and
the stored verifier for the session, and GoTrue's errors for a bad verifier, a used code and a
challenge of the wrong length."""
import base64
import hashlib
import secrets
from urllib.parse import parse_qs, urlparse

import pytest
import requests
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

PASSWORD = "correct-horse-1"
APP = "http://localhost:3000/auth/callback"
# As the official clients send it: errors come as {code, message}.
DATED = {"X-Supabase-Api-Version": "2024-01-01"}


def client(emu, flow_type="pkce") -> SyncGoTrueClient:
    key = emu.anon_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False, flow_type=flow_type)


def follow_mail(emu, email, kind):
    """Opens the newest mail's link as a browser would (without following the 303) and returns
    the redirect's URL."""
    mail = [m for m in emu.outbox(email) if m["kind"] == kind][-1]
    assert "token=pkce_" in mail["link"]
    r = requests.get(mail["link"], allow_redirects=False, timeout=5)
    assert r.status_code == 303
    return urlparse(r.headers["Location"])


def challenge_pair():
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    return verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def exchange(emu, code, verifier):
    return requests.post(f"{emu.supabase_url}/token", params={"grant_type": "pkce"},
                         json={"auth_code": code, "code_verifier": verifier},
                         headers={"apikey": emu.anon_key, **DATED}, timeout=5)


def test_reset_password_for_email_with_pkce_then_exchange_code_for_session(emulator):
    client(emulator, "implicit").sign_up({"email": "ada@example.com", "password": PASSWORD})
    c = client(emulator)
    c.reset_password_for_email("ada@example.com", {"redirect_to": APP})
    url = follow_mail(emulator, "ada@example.com", "recovery")
    assert f"{url.scheme}://{url.netloc}{url.path}" == APP
    assert url.fragment == "" and "access_token" not in url.query
    [code] = parse_qs(url.query)["code"]
    events = []
    c.on_auth_state_change(lambda event, session: events.append(event))
    r = c.exchange_code_for_session({"auth_code": code})
    assert r.session is not None and r.user.email == "ada@example.com"
    assert events[-1] == "PASSWORD_RECOVERY"
    c.update_user({"password": "a-new-password-2"})
    signed_in = client(emulator, "implicit").sign_in_with_password(
        {"email": "ada@example.com", "password": "a-new-password-2"})
    assert signed_in.session is not None


def test_sign_in_with_otp_with_pkce_then_exchange_code_for_session(emulator):
    c = client(emulator)
    c.sign_in_with_otp({"email": "grace@example.com", "options": {"email_redirect_to": APP}})
    url = follow_mail(emulator, "grace@example.com", "magiclink")
    [code] = parse_qs(url.query)["code"]
    r = c.exchange_code_for_session({"auth_code": code})
    assert r.session is not None and r.user.email == "grace@example.com"
    assert r.user.email_confirmed_at is not None
    assert c.get_user(r.session.access_token).user.id == r.user.id


def test_sign_up_with_confirmation_and_pkce(emulator_factory):
    emu = emulator_factory("--confirm-email")
    c = client(emu)
    r = c.sign_up({"email": "lin@example.com", "password": PASSWORD, "options": {"email_redirect_to": APP}})
    assert r.session is None
    url = follow_mail(emu, "lin@example.com", "signup")
    [code] = parse_qs(url.query)["code"]
    session = c.exchange_code_for_session({"auth_code": code})
    assert session.user.email_confirmed_at is not None


def test_a_wrong_verifier_is_refused_and_a_used_code_is_gone(emulator):
    client(emulator, "implicit").sign_up({"email": "bob@example.com", "password": PASSWORD})
    verifier, challenge = challenge_pair()
    r = requests.post(f"{emulator.supabase_url}/recover", params={"redirect_to": APP},
                      json={"email": "bob@example.com", "code_challenge": challenge,
                            "code_challenge_method": "s256"}, headers=DATED, timeout=5)
    assert r.status_code == 200 and r.json() == {}
    [code] = parse_qs(follow_mail(emulator, "bob@example.com", "recovery").query)["code"]
    wrong = exchange(emulator, code, verifier + "x")
    assert wrong.status_code == 400
    assert wrong.json() == {"code": "bad_code_verifier",
                            "message": "code challenge does not match previously saved code verifier"}
    ok = exchange(emulator, code, verifier)
    assert ok.status_code == 200 and ok.json()["user"]["email"] == "bob@example.com"
    reused = exchange(emulator, code, verifier)
    assert reused.status_code == 404
    assert reused.json() == {"code": "flow_state_not_found",
                             "message": "invalid flow state, no valid flow state found"}
    # The official client raises GoTrue's code as it is.
    with pytest.raises(AuthApiError) as info:
        client(emulator).exchange_code_for_session({"auth_code": code, "code_verifier": verifier})
    assert (info.value.status, info.value.code) == (404, "flow_state_not_found")


@pytest.mark.parametrize("body, message", [
    ({"code_challenge": "abcde", "code_challenge_method": "s256"},
     "code challenge has to be between 43 and 128 characters"),
    ({"code_challenge": "a" * 129, "code_challenge_method": "plain"},
     "code challenge has to be between 43 and 128 characters"),
    ({"code_challenge": "a" * 42 + "+", "code_challenge_method": "s256"},
     "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes"),
    ({"code_challenge": "a" * 43}, "PKCE flow requires code_challenge_method and code_challenge"),
    ({"code_challenge_method": "s256"}, "PKCE flow requires code_challenge_method and code_challenge"),
])
def test_a_bad_challenge_is_refused_before_any_mail(emulator, body, message):
    client(emulator, "implicit").sign_up({"email": "eve@example.com", "password": PASSWORD})
    for route in ["recover", "otp", "magiclink"]:
        r = requests.post(f"{emulator.supabase_url}/{route}", json={"email": "eve@example.com", **body},
                          headers=DATED, timeout=5)
        assert r.status_code == 400, route
        assert r.json() == {"code": "validation_failed", "message": message}, route
    r = requests.post(f"{emulator.supabase_url}/resend", json={"type": "signup", "email": "eve@example.com", **body},
                      headers=DATED, timeout=5)
    assert (r.status_code, r.json()["code"]) == (400, "validation_failed")
    assert emulator.outbox("eve@example.com") == []
