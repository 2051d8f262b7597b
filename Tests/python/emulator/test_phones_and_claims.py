"""Phone numbers and custom claims as both backends hold them, seen through authsh and the
official admin clients:

- the emulator keeps a phone number on a Supabase account as GoTrue does (digits without `+`,
  `phone_confirmed_at`, a `phone` identity, 422 `phone_exists`, 400 for a number that is not E.164);
- `authsh user update --phone` changes it on both backends and `user show` shows it in E.164;
- custom claims are at `user.claims` on both backends (and called claims in the human output)."""
import json

import pytest
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from one_shot import authsh, environment


def supabase_admin(emu):
    return SyncGoTrueClient(url=emu.supabase_url,
                            headers={"apikey": emu.service_role_key, "Authorization": f"Bearer {emu.service_role_key}"},
                            persist_session=False, auto_refresh_token=False).admin


def test_supabase_accounts_keep_phone_numbers_as_gotrue_does(emulator):
    admin = supabase_admin(emulator)
    made = admin.create_user({"email": "ada@example.com", "password": "pw-123456", "phone": "+1 555 123 4567",
                              "phone_confirm": True}).user
    assert made.phone == "15551234567" and made.phone_confirmed_at is not None
    assert {i.provider for i in made.identities} == {"email", "phone"}
    assert "phone" in made.app_metadata["providers"]
    only_phone = admin.create_user({"phone": "+447700900123"}).user
    assert only_phone.email in ("", None) and only_phone.phone == "447700900123" and only_phone.phone_confirmed_at is None

    with pytest.raises(AuthApiError) as taken:
        admin.create_user({"email": "bob@example.com", "phone": "15551234567"})
    assert taken.value.status == 422 and taken.value.code == "phone_exists"
    with pytest.raises(AuthApiError) as bad:
        admin.create_user({"email": "eve@example.com", "phone": "+0123"})
    assert bad.value.status == 400 and "E.164" in bad.value.message


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_user_update_phone_and_claims_read_the_same_on_both_backends(emulator, admin_app, tmp_path, side):
    if side == "supabase":
        supabase_admin(emulator).create_user({"email": "ada@example.com", "password": "pw-123456"})
    else:
        auth.create_user(email="ada@example.com", password="pw-123456", app=admin_app)
    env = environment(tmp_path, emulator, side)

    bad = authsh(env, "user", "update", "ada@example.com", "--phone", "555-1234")
    assert bad.returncode == 64 and "E.164" in bad.stderr
    changed = authsh(env, "user", "update", "ada@example.com", "--phone", "+1 (555) 765-4321",
                     "--claims", '{"tier":"gold"}', "--yes")
    assert changed.returncode == 0, changed.stderr
    assert "the phone number" in changed.stdout and "claims tier" in changed.stdout

    shown = authsh(env, "user", "show", "ada@example.com", "--json")
    assert shown.returncode == 0, shown.stderr
    user = json.loads(shown.stdout)["user"]
    assert user["phone"] == "+15557654321"
    assert user["claims"] == {"tier": "gold"}
    human = authsh(env, "user", "show", "ada@example.com")
    assert 'claims' in human.stdout and '{"tier":"gold"}' in human.stdout and "+15557654321" in human.stdout
    assert "metadata" not in human.stdout.replace("user metadata", "")

    if side == "supabase":
        seen = supabase_admin(emulator).list_users()[0]
        assert seen.phone == "15557654321" and seen.app_metadata["tier"] == "gold"
    else:
        seen = auth.get_user_by_email("ada@example.com", app=admin_app)
        assert seen.phone_number == "+15557654321" and seen.custom_claims == {"tier": "gold"}
