"""supabase-auth's admin API (SyncGoTrueAdminAPI) against the emulator with the new-style secret key."""
import pytest
import requests
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

SECRET = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"
PASSWORD = "correct-horse-1"


def secret_admin(emu):
    """As the SDKs send a secret key: `apikey` only, no Authorization header."""
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": SECRET},
                            persist_session=False, auto_refresh_token=False).admin


def api_error(call):
    with pytest.raises(AuthApiError) as info:
        call()
    return info.value


def test_secret_key_admin_round_trip(emulator):
    a = secret_admin(emulator)
    ids = [a.create_user({"email": f"u{i}@x.io", "password": PASSWORD}).user.id for i in range(3)]
    assert [u.email for u in a.list_users(page=1, per_page=2)] == ["u2@x.io", "u1@x.io"]
    r = requests.get(f"{emulator.supabase_url}/admin/users", params={"filter": "u0@x.io"},
                     headers={"apikey": SECRET}, timeout=5)
    assert r.headers["X-Total-Count"] == "1" and r.json()["users"][0]["id"] == ids[0]

    user = a.get_user_by_id(ids[0]).user
    assert user.email_confirmed_at is None
    confirmed = a.update_user_by_id(ids[0], {"email_confirm": True, "ban_duration": "24h"}).user
    assert confirmed.email_confirmed_at is not None and confirmed.banned_until is not None
    unbanned = a.update_user_by_id(ids[0], {"ban_duration": "none"}).user
    assert unbanned.banned_until is None

    for kind, extra in [("recovery", {}), ("magiclink", {}), ("invite", {"email": "new@x.io"}),
                        ("signup", {"email": "s@x.io", "password": PASSWORD})]:
        link = a.generate_link({"type": kind, "email": "u1@x.io", **extra})
        props = link.properties
        assert props.action_link.startswith(f"{emulator.supabase_url}/verify?token={props.hashed_token}")
        assert props.email_otp and props.verification_type in (kind, "signup", "invite")
    assert emulator.outbox("u1@x.io") == [] and emulator.outbox("new@x.io") == []

    a.delete_user(ids[1], should_soft_delete=True)
    soft = requests.get(f"{emulator.supabase_url}/admin/users/{ids[1]}", headers={"apikey": SECRET}, timeout=5).json()
    assert soft["deleted_at"] and soft["email"] != "u1@x.io"
    a.delete_user(ids[2])
    gone = api_error(lambda: a.get_user_by_id(ids[2]))
    assert (gone.status, gone.code) == (404, "user_not_found")


def test_secret_key_as_a_bearer_is_not_a_jwt(emulator):
    c = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": SECRET, "Authorization": f"Bearer {SECRET}"},
                         persist_session=False, auto_refresh_token=False)
    error = api_error(lambda: c.admin.list_users())
    assert (error.status, error.code) == (403, "bad_jwt")
