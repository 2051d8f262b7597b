"""The official supabase-auth client drives the emulator's second factors (TOTP codes from pyotp),
its audit trail, invitations, /otp and the emulator's IdP sign-in, in both emulator modes."""
import pyotp
import pytest
import requests
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

PASSWORD = "correct-horse-1"


@pytest.fixture
def emulator(emulator_in_both_modes):
    return emulator_in_both_modes


def client(emu, key=None) -> SyncGoTrueClient:
    key = key or emu.anon_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False)


def admin(emu):
    return client(emu, emu.service_role_key).admin


def signed_in(emu, email):
    """A client signed in as a new account (like production: the mailed code confirms it)."""
    c = client(emu)
    r = c.sign_up({"email": email, "password": PASSWORD})
    if r.session is None:
        [mail] = [m for m in emu.outbox(email) if m["kind"] == "signup"]
        c.verify_otp({"email": email, "token": mail["code"], "type": "signup"})
    return c


def api_error(call):
    with pytest.raises(AuthApiError) as info:
        call()
    return info.value


def audit(emu, query):
    r = requests.get(f"{emu.supabase_url}/admin/audit", params={"query": query},
                     headers={"Authorization": f"Bearer {emu.service_role_key}", "apikey": emu.service_role_key}, timeout=5)
    r.raise_for_status()
    return [entry["payload"]["action"] for entry in r.json()]


def test_enroll_challenge_verify_list_and_assurance_levels(emulator):
    c = signed_in(emulator, "ada@example.com")
    aal = c.mfa.get_authenticator_assurance_level()
    assert (aal.current_level, aal.next_level) == ("aal1", "aal1")
    # Without an issuer GoTrue names the site URL's host:port (whose ":" an app may split at).
    default = c.mfa.enroll({"factor_type": "totp", "friendly_name": "laptop"})
    assert default.totp.uri.startswith("otpauth://totp/127.0.0.1:3000:ada@example.com?algorithm=SHA1&digits=6&issuer=127.0.0.1:3000")
    c.mfa.unenroll({"factor_id": default.id})
    enrolled = c.mfa.enroll({"factor_type": "totp", "friendly_name": "phone", "issuer": "Example App"})
    assert enrolled.type == "totp" and enrolled.friendly_name == "phone"
    assert enrolled.totp.qr_code.startswith("data:image/svg+xml;utf-8,<?xml")
    parsed = pyotp.parse_uri(enrolled.totp.uri)
    assert parsed.secret == enrolled.totp.secret and parsed.name == "ada@example.com" and parsed.issuer == "Example App"
    totp = pyotp.TOTP(enrolled.totp.secret)
    assert [f.status for f in c.mfa.list_factors().all] == ["unverified"]
    challenge = c.mfa.challenge({"factor_id": enrolled.id})
    wrong = api_error(lambda: c.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id,
                                            "code": totp.at(0)}))
    assert (wrong.status, wrong.code) == (422, "mfa_verification_failed")
    verified = c.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": totp.now()})
    assert verified.access_token and verified.user.factors[0].status == "verified"
    aal = c.mfa.get_authenticator_assurance_level()
    assert (aal.current_level, aal.next_level) == ("aal2", "aal2")
    first_factor = "otp" if emulator.like_production else "password"  # like production the mailed code signed in
    assert [m.method for m in aal.current_authentication_methods] == ["totp", first_factor]
    factors = c.mfa.list_factors()
    assert [f.id for f in factors.totp] == [enrolled.id] and factors.all[0].status == "verified"
    # A password sign-in of the account is aal1 with aal2 next: the second step is due.
    other = client(emulator)
    other.sign_in_with_password({"email": "ada@example.com", "password": PASSWORD})
    aal = other.mfa.get_authenticator_assurance_level()
    assert (aal.current_level, aal.next_level) == ("aal1", "aal2")
    done = other.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": totp.now()})
    assert done.access_token
    assert other.mfa.get_authenticator_assurance_level().current_level == "aal2"
    assert audit(emulator, "type:factor")[:3] == ["verification_attempted", "challenge_created", "verification_attempted"]


def test_unenroll_needs_aal2_and_admin_removes_a_lost_factor(emulator):
    c = signed_in(emulator, "bob@example.com")
    enrolled = c.mfa.enroll({"factor_type": "totp", "friendly_name": "phone"})
    totp = pyotp.TOTP(enrolled.totp.secret)
    c.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": totp.now()})
    aal1 = client(emulator)
    aal1.sign_in_with_password({"email": "bob@example.com", "password": PASSWORD})
    refused = api_error(lambda: aal1.mfa.unenroll({"factor_id": enrolled.id}))
    assert (refused.status, refused.code) == (422, "insufficient_aal")
    user_id = c.get_user().user.id
    listed = admin(emulator).mfa.list_factors({"user_id": user_id})
    assert [f.id for f in listed] == [enrolled.id] and listed[0].status == "verified"
    # "I lost my phone": support deletes the factor; the password alone is aal2-free again.
    deleted = admin(emulator).mfa.delete_factor({"user_id": user_id, "id": enrolled.id})
    assert deleted.id == enrolled.id
    assert admin(emulator).mfa.list_factors({"user_id": user_id}) == []
    again = client(emulator)
    again.sign_in_with_password({"email": "bob@example.com", "password": PASSWORD})
    aal = again.mfa.get_authenticator_assurance_level()
    assert (aal.current_level, aal.next_level) == ("aal1", "aal1")
    # And the user can enrol and unenrol a fresh factor themselves.
    fresh = again.mfa.enroll({"factor_type": "totp", "friendly_name": "new phone"})
    assert again.mfa.unenroll({"factor_id": fresh.id}).id == fresh.id
    assert "factor_deleted" in audit(emulator, "author:bob@example.com")


def test_list_endpoint_has_no_factors_but_get_by_id_does(emulator):
    c = signed_in(emulator, "carol@example.com")
    enrolled = c.mfa.enroll({"factor_type": "totp", "friendly_name": "phone"})
    c.mfa.challenge_and_verify({"factor_id": enrolled.id, "code": pyotp.TOTP(enrolled.totp.secret).now()})
    [listed] = admin(emulator).list_users()
    assert listed.factors is None and listed.identities is None
    loaded = admin(emulator).get_user_by_id(listed.id).user
    assert [f.id for f in loaded.factors] == [enrolled.id] and [i.provider for i in loaded.identities] == ["email"]


def test_invite_otp_and_social_accounts(emulator):
    invited = admin(emulator).invite_user_by_email("newt@example.com").user
    assert invited.invited_at is not None and invited.confirmed_at is None
    err = api_error(lambda: client(emulator).sign_in_with_password({"email": "newt@example.com", "password": PASSWORD}))
    assert err.code == "invalid_credentials"
    assert "user_invited" in audit(emulator, "action:user_invited")
    c = client(emulator)
    c.sign_in_with_otp({"email": "otp@example.com"})
    [mail] = [m for m in emulator.outbox("otp@example.com") if m["kind"] in ("magiclink", "signup")]
    session = c.verify_otp({"email": "otp@example.com", "token": mail["code"], "type": "email"}).session
    assert session is not None and session.user.email == "otp@example.com"
    r = requests.post(f"{emulator.base}/emulator/v1/supabase/idp", json={"provider": "google", "email": "gus@example.com"}, timeout=5)
    assert r.status_code == 200
    google = client(emulator)
    google.set_session(r.json()["access_token"], r.json()["refresh_token"])
    user = google.get_user().user
    assert user.app_metadata == {"provider": "google", "providers": ["google"]}
    assert [i.provider for i in user.identities] == ["google"]


def test_an_abandoned_factor_keeps_its_name_and_challenges_are_rate_limited(emulator):
    """GoTrue keeps an unverified factor that was challenged (its name stays taken), and like
    production `/factors/{id}/challenge` has a bucket of 30 per address (15 a minute after that)."""
    c = signed_in(emulator, "guess@example.com")
    enrolled = c.mfa.enroll({"factor_type": "totp", "friendly_name": "phone"})
    challenge = c.mfa.challenge({"factor_id": enrolled.id})
    wrong = api_error(lambda: c.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": "000000"}))
    assert (wrong.status, wrong.code) == (422, "mfa_verification_failed")
    conflict = api_error(lambda: c.mfa.enroll({"factor_type": "totp", "friendly_name": "phone"}))
    assert (conflict.status, conflict.code) == (422, "mfa_factor_name_conflict")
    statuses = []
    for _ in range(35):
        try:
            c.mfa.challenge({"factor_id": enrolled.id})
            statuses.append(200)
        except AuthApiError as error:
            statuses.append((error.status, error.code))
    assert statuses[:29] == [200] * 29
    if emulator.like_production:
        assert (429, "over_request_rate_limit") in statuses[29:], statuses
    else:
        assert statuses == [200] * 35
