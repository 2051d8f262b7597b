"""The official supabase-auth client and authsh agree on second factors, both ways (issue 21): a
factor enrolled by the client (codes from pyotp) is used by `authsh login`, and one enrolled by
`authsh mfa enroll` is listed, challenged and verified by the client; each sees the other's aal2."""
import json

import pyotp
from supabase_auth import SyncGoTrueClient

from test_login_second_factor import PASSWORD, authsh, environment, seeded  # noqa: F401 (seeded: a shared fixture)


def client(emu) -> SyncGoTrueClient:
    key = emu.anon_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False)


def test_a_factor_enrolled_by_the_client_is_used_by_authsh(tmp_path, seeded):
    c = client(seeded)
    c.sign_in_with_password({"email": "ada@example.com", "password": PASSWORD})
    enrolled = c.mfa.enroll({"factor_type": "totp", "friendly_name": "phone"})
    totp = pyotp.TOTP(enrolled.totp.secret)
    challenge = c.mfa.challenge({"factor_id": enrolled.id})
    c.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": totp.now()})

    env = environment(tmp_path, seeded, "supabase")
    listed = authsh(env, "login", "ada@example.com", "--password-env", "PW", "--code", totp.now(), "--json")
    assert listed.returncode == 0, listed.stderr
    result = json.loads(listed.stdout)
    assert result["session"]["aal"] == "aal2"
    assert [f["id"] for f in result["user"]["factors"]] == [enrolled.id]
    factors = json.loads(authsh(env, "mfa", "list", "--json").stdout)["factors"]
    assert [(f["id"], f["name"], f["status"]) for f in factors] == [(enrolled.id, "phone", "verified")]
    # authsh's aal2 session may remove a verified factor; the client then sees none.
    assert authsh(env, "mfa", "remove", "phone", "--yes").returncode == 0
    c.sign_in_with_password({"email": "ada@example.com", "password": PASSWORD})
    assert c.mfa.list_factors().all == []
    assert c.mfa.get_authenticator_assurance_level().next_level == "aal1"


def test_a_factor_enrolled_by_authsh_is_used_by_the_client(tmp_path, seeded):
    env = environment(tmp_path, seeded, "supabase")
    assert authsh(env, "login", "ada@example.com", "--password-env", "PW").returncode == 0
    shown = authsh(env, "mfa", "enroll", "--name", "ci", "--self-verify", "--json", "--show-tokens")
    assert shown.returncode == 0, shown.stderr
    enrollment = json.loads(shown.stdout)["enrollment"]

    c = client(seeded)
    c.sign_in_with_password({"email": "ada@example.com", "password": PASSWORD})
    aal = c.mfa.get_authenticator_assurance_level()
    assert (aal.current_level, aal.next_level) == ("aal1", "aal2")
    [factor] = c.mfa.list_factors().totp
    assert (factor.id, factor.friendly_name, factor.status) == (enrollment["id"], "ci", "verified")
    challenge = c.mfa.challenge({"factor_id": factor.id})
    c.mfa.verify({"factor_id": factor.id, "challenge_id": challenge.id,
                  "code": pyotp.TOTP(enrollment["secret"]).now()})
    assert c.mfa.get_authenticator_assurance_level().current_level == "aal2"
