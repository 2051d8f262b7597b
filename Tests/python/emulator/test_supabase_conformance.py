"""The official supabase-auth client (SyncGoTrueClient) against `authsh emulator`."""
import hashlib
import re
from urllib.parse import parse_qs, urlparse

import pytest
import requests
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError, AuthWeakPasswordError

PASSWORD = "correct-horse-1"



@pytest.fixture
def emulator(emulator_in_both_modes):
    """Every test here runs in both emulator modes (see conftest)."""
    return emulator_in_both_modes

def client(emu, key=None) -> SyncGoTrueClient:
    key = key or emu.anon_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False)


def admin(emu):
    return client(emu, emu.service_role_key).admin


def sign_up(emu, c, credentials):
    """Signs up and returns the session; like production (confirmation on) that takes the mailed code."""
    r = c.sign_up(credentials)
    if not emu.like_production:
        return r.session
    assert r.session is None
    email = credentials["email"].lower()
    [mail] = [m for m in emu.outbox(email) if m["kind"] == "signup"]
    return c.verify_otp({"email": email, "token": mail["code"], "type": "signup"}).session


def mails(emu, email, kind):
    return [m for m in emu.outbox(email) if m["kind"] == kind]


def api_error(call):
    with pytest.raises(AuthApiError) as info:
        call()
    return info.value


def test_sign_up_without_confirmation_returns_a_session(emulator):
    c = client(emulator)
    r = c.sign_up({"email": "Alice@Example.com", "password": PASSWORD, "options": {"data": {"full_name": "Alice"}}})
    if emulator.like_production:
        # As hosted projects: no session until the address is confirmed; signing in says so.
        assert r.session is None and r.user.email_confirmed_at is None and r.user.confirmation_sent_at is not None
        err = api_error(lambda: c.sign_in_with_password({"email": "alice@example.com", "password": PASSWORD}))
        assert (err.status, err.code, err.message) == (400, "email_not_confirmed", "Email not confirmed")
        return
    assert r.session is not None and r.session.token_type == "bearer" and r.session.expires_in == 3600
    assert len(r.session.refresh_token) == 12
    assert r.user.email == "alice@example.com"
    assert r.user.user_metadata == {"email_verified": True, "full_name": "Alice"}
    assert r.user.email_confirmed_at is not None
    assert [i.provider for i in r.user.identities] == ["email"]
    dup = api_error(lambda: c.sign_up({"email": "alice@example.com", "password": PASSWORD}))
    assert (dup.status, dup.code, dup.message) == (422, "user_already_exists", "User already registered")


def test_sign_up_with_confirmation_then_verify_the_mailed_code(emulator_factory):
    emu = emulator_factory("--confirm-email")
    c = client(emu)
    r = c.sign_up({"email": "bob@example.com", "password": PASSWORD})
    assert r.session is None and r.user.email_confirmed_at is None and r.user.confirmation_sent_at is not None
    err = api_error(lambda: c.sign_in_with_password({"email": "bob@example.com", "password": PASSWORD}))
    assert (err.status, err.code) == (400, "email_not_confirmed")
    [mail] = emu.outbox("bob@example.com")
    assert mail["kind"] == "signup" and re.fullmatch(r"\d{6}", mail["code"])
    v = c.verify_otp({"email": "bob@example.com", "token": mail["code"], "type": "signup"})
    assert v.session is not None and v.user.email_confirmed_at is not None
    assert c.sign_in_with_password({"email": "bob@example.com", "password": PASSWORD}).session is not None
    # A confirmed duplicate is not revealed: 200 with a fake user and no identities.
    fake = c.sign_up({"email": "bob@example.com", "password": "whatever-1"})
    assert fake.session is None and fake.user.identities == [] and fake.user.id != v.user.id


def test_sign_in_get_user_and_errors(emulator):
    c = client(emulator)
    sign_up(emulator, c, {"email": "carol@example.com", "password": PASSWORD})
    r = c.sign_in_with_password({"email": "CAROL@example.com", "password": PASSWORD})
    assert r.session.access_token and r.user.email == "carol@example.com"
    assert c.get_user().user.id == r.user.id
    wrong = api_error(lambda: c.sign_in_with_password({"email": "carol@example.com", "password": "nope-nope"}))
    assert (wrong.status, wrong.code, wrong.message) == (400, "invalid_credentials", "Invalid login credentials")
    unknown = api_error(lambda: c.sign_in_with_password({"email": "nobody@example.com", "password": PASSWORD}))
    assert (unknown.status, unknown.code) == (400, "invalid_credentials")
    with pytest.raises(AuthWeakPasswordError) as weak:
        c.sign_up({"email": "dave@example.com", "password": "12345"})
    assert weak.value.status == 422 and weak.value.reasons == ["length"]
    assert weak.value.message == "Password should be at least 6 characters."


def test_refresh_rotation_and_reuse_detection(emulator):
    c = client(emulator)
    first = sign_up(emulator, c, {"email": "erin@example.com", "password": PASSWORD})
    second = c.refresh_session(first.refresh_token).session
    assert second.refresh_token != first.refresh_token
    # The immediate parent of the active token gets that token again (the client lost the answer).
    assert c.refresh_session(first.refresh_token).session.refresh_token == second.refresh_token
    third = c.refresh_session(second.refresh_token).session
    assert third.refresh_token not in (first.refresh_token, second.refresh_token)
    if emulator.like_production:
        # Hosted projects take a used token again for 10 s (refresh_token_reuse_interval); the
        # detection after it is in the Swift tests, which move the clock.
        assert c.refresh_session(first.refresh_token).session.refresh_token
        return
    err = api_error(lambda: c.refresh_session(first.refresh_token))
    assert (err.status, err.code) == (400, "refresh_token_already_used")
    err = api_error(lambda: c.refresh_session(third.refresh_token))
    assert err.code == "refresh_token_already_used"
    assert api_error(lambda: c.refresh_session("abc")).code == "validation_failed"
    assert api_error(lambda: c.refresh_session("abcdefghijkl")).code == "refresh_token_not_found"


def test_password_reset_with_the_code(emulator):
    c = client(emulator)
    sign_up(emulator, c, {"email": "frank@example.com", "password": PASSWORD})
    c.reset_password_for_email("frank@example.com", {"redirect_to": "http://localhost:3000/reset"})
    c.reset_password_for_email("ghost@example.com")  # unknown: same 200, nothing sent
    assert emulator.outbox("ghost@example.com") == []
    [mail] = mails(emulator, "frank@example.com", "recovery")
    assert mail["kind"] == "recovery"
    assert mail["link"].endswith("&type=recovery&redirect_to=http://localhost:3000/reset")
    limited = api_error(lambda: c.reset_password_for_email("frank@example.com"))
    assert (limited.status, limited.code) == (429, "over_email_send_rate_limit")
    assert re.fullmatch(r"For security purposes, you can only request this after (59|60) seconds\.", limited.message)
    r = c.verify_otp({"email": "frank@example.com", "token": mail["code"], "type": "recovery"})
    assert r.session is not None
    same = api_error(lambda: c.update_user({"password": PASSWORD}))
    assert (same.status, same.code) == (422, "same_password")
    c.update_user({"password": "a-brand-new-password"})
    assert c.sign_in_with_password({"email": "frank@example.com", "password": "a-brand-new-password"}).session
    old = api_error(lambda: c.sign_in_with_password({"email": "frank@example.com", "password": PASSWORD}))
    assert old.code == "invalid_credentials"
    used = api_error(lambda: c.verify_otp({"email": "frank@example.com", "token": mail["code"], "type": "recovery"}))
    assert (used.status, used.code) == (403, "otp_expired")


def test_password_reset_with_the_token_hash_of_the_link(emulator):
    c = client(emulator)
    c.sign_up({"email": "grace@example.com", "password": PASSWORD})
    c.reset_password_for_email("grace@example.com")
    [mail] = mails(emulator, "grace@example.com", "recovery")
    token_hash = parse_qs(urlparse(mail["link"]).query)["token"][0]
    assert token_hash == hashlib.sha224(("grace@example.com" + mail["code"]).encode()).hexdigest()
    r = c.verify_otp({"token_hash": token_hash, "type": "recovery"})
    assert r.session is not None and r.user.email == "grace@example.com"
    assert r.session.user.id == r.user.id


def test_sign_out_kills_the_session(emulator):
    c = client(emulator)
    session = sign_up(emulator, c, {"email": "heidi@example.com", "password": PASSWORD})
    c.sign_out()
    assert c.get_session() is None
    err = api_error(lambda: c.get_user(session.access_token))
    assert (err.status, err.code) == (403, "session_not_found")
    assert api_error(lambda: c.refresh_session(session.refresh_token)).code == "refresh_token_not_found"


def test_admin_users_and_generate_link(emulator):
    c = client(emulator)
    ids = [c.sign_up({"email": f"user{i}@example.com", "password": PASSWORD}).user.id for i in range(3)]
    a = admin(emulator)
    users = a.list_users()
    assert sorted(u.id for u in users) == sorted(ids)
    assert len(a.list_users(page=1, per_page=2)) == 2
    assert len(a.list_users(page=2, per_page=2)) == 1
    r = requests.get(f"{emulator.supabase_url}/admin/users", params={"page": 1, "per_page": 2},
                     headers={"Authorization": f"Bearer {emulator.service_role_key}"}, timeout=5)
    assert r.headers["X-Total-Count"] == "3"
    assert r.headers["Link"].startswith("</auth/v1/admin/users?page=2&per_page=2>; rel=\"next\"")
    assert a.get_user_by_id(ids[0]).user.email == "user0@example.com"
    link = a.generate_link({"type": "recovery", "email": "user1@example.com",
                            "options": {"redirect_to": "http://localhost:3000"}})
    props = link.properties
    assert props.verification_type == "recovery" and props.redirect_to == "http://localhost:3000"
    assert props.hashed_token == hashlib.sha224(("user1@example.com" + props.email_otp).encode()).hexdigest()
    assert props.action_link.startswith(f"{emulator.supabase_url}/verify?token={props.hashed_token}&type=recovery")
    assert link.user.email == "user1@example.com"
    assert c.verify_otp({"token_hash": props.hashed_token, "type": "recovery"}).session is not None
    a.delete_user(ids[2])
    gone = api_error(lambda: a.get_user_by_id(ids[2]))
    assert (gone.status, gone.code) == (404, "user_not_found")
    forbidden = api_error(lambda: client(emulator).admin.list_users())
    assert (forbidden.status, forbidden.code) == (403, "not_admin")


def test_mail_link_redirects(emulator_factory):
    emu = emulator_factory("--confirm-email")
    client(emu).sign_up({"email": "ivan@example.com", "password": PASSWORD})
    [mail] = emu.outbox("ivan@example.com")
    r = requests.get(mail["link"], allow_redirects=False, timeout=5)
    assert r.status_code == 303
    fragment = parse_qs(urlparse(r.headers["Location"]).fragment, keep_blank_values=True)
    assert fragment["type"] == ["signup"] and fragment["token_type"] == ["bearer"] and "sb" in fragment
    again = requests.get(mail["link"], allow_redirects=False, timeout=5)
    assert parse_qs(urlparse(again.headers["Location"]).fragment)["error_code"] == ["otp_expired"]


def test_raw_http_edges(emulator):
    big = requests.post(f"{emulator.supabase_url}/signup", data=b"x" * (1024 * 1024 + 10),
                        headers={"X-Supabase-Api-Version": "2024-01-01"}, timeout=10)
    assert big.status_code == 413 and big.json()["code"] == "request_entity_too_large"
    bad = requests.post(f"{emulator.supabase_url}/signup", data=b"{not json", timeout=5)
    assert bad.status_code == 400 and bad.json()["error_code"] == "bad_json" and bad.json()["code"] == 400
    missing = requests.get(f"{emulator.supabase_url}/nope", timeout=5)
    assert (missing.status_code, missing.text) == (404, "404 page not found\n")
    assert requests.delete(f"{emulator.supabase_url}/signup", timeout=5).status_code == 405
    jwks = requests.get(f"{emulator.supabase_url}/.well-known/jwks.json", timeout=5)
    assert jwks.json() == {"keys": []}
    settings = requests.get(f"{emulator.supabase_url}/settings", timeout=5).json()
    assert settings["external"]["email"] is True and settings["mailer_autoconfirm"] is (not emulator.like_production)


def test_like_production_mail_quota_and_redirects(emulator_factory):
    """Hosted limits through the official client, built-in mail: 2 mails an hour for the project
    (team addresses only), then 429. (More in test_hosted_limits.py.)"""
    emu = emulator_factory("--like-production", "--team", "q0@example.com,q1@example.com,q2@example.com")
    c = client(emu)
    for i in range(2):
        assert c.sign_up({"email": f"q{i}@example.com", "password": PASSWORD}).session is None
    over = api_error(lambda: c.sign_up({"email": "q2@example.com", "password": PASSWORD}))
    assert (over.status, over.code, over.message) == (429, "over_email_send_rate_limit", "email rate limit exceeded")
    # The quota is per project; a runtime switch back to the default mode lifts it.
    r = requests.put(f"{emu.base}/emulator/v1/config", json={"like_production": False}, timeout=5)
    assert r.json()["like_production"] is False
    assert c.sign_up({"email": "q2@example.com", "password": PASSWORD}).session is not None


def test_redirect_to_outside_the_allow_list_falls_back_to_the_site_url(emulator):
    c = client(emulator)
    sign_up(emulator, c, {"email": "judy@example.com", "password": PASSWORD})
    c.reset_password_for_email("judy@example.com", {"redirect_to": "https://evil.example/steal"})
    [mail] = mails(emulator, "judy@example.com", "recovery")
    assert mail["link"].endswith("&type=recovery&redirect_to=http://127.0.0.1:3000")


def test_secure_email_change_mails_both_addresses(emulator):
    c = client(emulator)
    sign_up(emulator, c, {"email": "kate@example.com", "password": PASSWORD})
    c.update_user({"email": "kate.new@example.com"})
    [old] = mails(emulator, "kate@example.com", "email_change")
    [new] = mails(emulator, "kate.new@example.com", "email_change")
    r = c.verify_otp({"email": "kate@example.com", "token": old["code"], "type": "email_change"})
    if emulator.like_production:
        # Confirmation on: the first link only counts; the session comes with the second.
        assert r.session is None
        r = c.verify_otp({"email": "kate.new@example.com", "token": new["code"], "type": "email_change"})
    assert r.session is not None and r.user.email == "kate.new@example.com"
