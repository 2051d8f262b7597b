"""The official supabase-auth admin API as the oracle for `authsh user …` / `diagnose` on Supabase,
in both directions, against the real `authsh emulator` binary:

- accounts created, banned, confirmed or deleted with `SyncGoTrueClient(...).admin` are seen
  correctly by `authsh user show --json` and `authsh diagnose --json`;
- changes made by authsh (`user confirm`, `user disable`, `user enable`, `user set-password`,
  `user delete`, `user create`, `user link recovery`) are seen by the official client.
"""
import json
import os
import subprocess
import time
from datetime import datetime, timezone

import jwt  # PyJWT, installed with supabase-auth
import pytest
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from conftest import authsh_binary

PASSWORD = "correct-horse-1"


def client(emu, key=None) -> SyncGoTrueClient:
    key = key or emu.anon_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False)


def admin(emu):
    return client(emu, emu.service_role_key).admin


class Authsh:
    """Runs the binary one-shot with `--json` against the emulator, with the service_role key."""

    def __init__(self, emu, home):
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
            "SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
            "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key, "NO_COLOR": "1",
        }

    def __call__(self, *args, env=None):
        result = subprocess.run([authsh_binary(), *args, "--json"], env={**self.env, **(env or {})},
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        assert result.stdout, f"no JSON on stdout (exit {result.returncode}): {result.stderr}"
        return result.returncode, json.loads(result.stdout)


@pytest.fixture
def authsh(emulator, tmp_path):
    return Authsh(emulator, tmp_path)


def lookup_error(doc):
    """The error code of a single lookup, whether the result carries it on top or per account."""
    if doc.get("error"):
        return doc["error"]["code"]
    users = doc.get("users") or []
    return users[0]["error"]["code"] if users and users[0].get("error") else None


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


# ---- official client → authsh -------------------------------------------------------------------

def test_accounts_made_by_the_official_admin_api_are_seen_by_user_show(emulator, authsh):
    a = admin(emulator)
    made = a.create_user({"email": "Ada@Example.com", "password": PASSWORD, "email_confirm": False,
                          "user_metadata": {"full_name": "Ada Lovelace", "team": "engines"}}).user
    code, doc = authsh("user", "show", "ada@example.com")
    assert code == 0 and doc["ok"] is True
    user = doc["user"]
    assert user["id"] == made.id and user["email"] == "ada@example.com"
    assert user["confirmed"] is False and user["confirmed_at"] is None
    assert user["methods"] == ["password"] and user["name"] == "Ada Lovelace"
    assert user["metadata"]["team"] == "engines"
    assert user["disabled"] is False and user["last_sign_in_at"] is None
    assert parse_time(user["created_at"]) == parse_time(made.created_at.isoformat()).replace(microsecond=0)

    # Looked up by id as well, with the same answer.
    code, by_id = authsh("user", "show", made.id)
    assert code == 0 and by_id["user"]["email"] == "ada@example.com"

    a.update_user_by_id(made.id, {"email_confirm": True})
    confirmed_at = a.get_user_by_id(made.id).user.email_confirmed_at
    _, doc = authsh("user", "show", "ada@example.com")
    assert doc["user"]["confirmed"] is True
    assert parse_time(doc["user"]["confirmed_at"]) == confirmed_at.replace(microsecond=0)

    client(emulator).sign_in_with_password({"email": "ada@example.com", "password": PASSWORD})
    _, doc = authsh("user", "show", "ada@example.com")
    assert doc["user"]["last_sign_in_at"] is not None

    a.update_user_by_id(made.id, {"ban_duration": "2h"})
    banned_until = a.get_user_by_id(made.id).user.banned_until
    _, doc = authsh("user", "show", "ada@example.com")
    assert doc["user"]["disabled"] is True
    assert parse_time(doc["user"]["disabled_until"]) == parse_time(banned_until).replace(microsecond=0)

    a.update_user_by_id(made.id, {"ban_duration": "none"})
    _, doc = authsh("user", "show", "ada@example.com")
    assert doc["user"]["disabled"] is False and doc["user"]["disabled_until"] is None

    a.delete_user(made.id)
    code, doc = authsh("user", "show", "ada@example.com")
    assert lookup_error(doc) == "user_not_found"
    code, doc = authsh("user", "show", made.id)
    assert lookup_error(doc) == "user_not_found"


def test_user_list_matches_the_official_list(emulator, authsh):
    a = admin(emulator)
    for i in range(3):
        a.create_user({"email": f"user{i}@example.com", "password": PASSWORD, "email_confirm": True})
        time.sleep(0.01)
    official = [u.email for u in a.list_users(page=1, per_page=50)]
    code, doc = authsh("user", "list", "--limit", "2")
    assert code == 0 and doc["total"] == 3
    assert [u["email"] for u in doc["users"]] == official[:2] == ["user2@example.com", "user1@example.com"]
    _, rest = authsh("user", "list", "--limit", "2", "--page-token", doc["next_page_token"])
    assert [u["email"] for u in rest["users"]] == official[2:] and rest["next_page_token"] is None


def codes(doc):
    return [f["code"] for f in doc["diagnosis"]["findings"]]


def test_diagnose_follows_what_the_official_admin_api_did(emulator, authsh):
    a = admin(emulator)
    made = a.create_user({"email": "dee@example.com", "password": PASSWORD, "email_confirm": False}).user
    _, doc = authsh("diagnose", "dee@example.com")
    assert codes(doc)[0] == "email_unconfirmed" and doc["diagnosis"]["can_sign_in"] is False

    a.update_user_by_id(made.id, {"email_confirm": True, "ban_duration": "3h"})
    _, doc = authsh("diagnose", "dee@example.com")
    assert codes(doc)[0] == "disabled" and "email_unconfirmed" not in codes(doc)
    assert doc["diagnosis"]["can_sign_in"] is False

    a.update_user_by_id(made.id, {"ban_duration": "none"})
    _, doc = authsh("diagnose", "dee@example.com")
    assert codes(doc) == ["ok", "rate_limit_possible"] and doc["diagnosis"]["can_sign_in"] is True
    client(emulator).sign_in_with_password({"email": "dee@example.com", "password": PASSWORD})

    a.generate_link({"type": "recovery", "email": "dee@example.com"})
    _, doc = authsh("diagnose", "dee@example.com")
    assert "recovery_pending" in codes(doc) and doc["diagnosis"]["can_sign_in"] is True

    a.delete_user(made.id)
    _, doc = authsh("diagnose", "dee@example.com")
    assert codes(doc) == ["no_account"] and doc["diagnosis"]["can_sign_in"] is False


# ---- authsh → official client -------------------------------------------------------------------

@pytest.mark.parametrize("given, seconds", [("7d", 7 * 86400), ("2w", 14 * 86400), ("1y", 365 * 86400)])
def test_a_ban_of_days_weeks_or_years_reaches_banned_until(emulator, authsh, given, seconds):
    """`user disable --until 7d`, the help's own example, end to end: the official admin client
    reads the ban GoTrue stored."""
    a = admin(emulator)
    email = f"ban-{given}@example.com"
    made = a.create_user({"email": email, "password": PASSWORD, "email_confirm": True}).user
    code, doc = authsh("user", "disable", email, "--until", given, "--yes")
    assert code == 0 and doc["ok"] is True
    banned_until = parse_time(a.get_user_by_id(made.id).user.banned_until)
    assert abs((banned_until - datetime.now(timezone.utc)).total_seconds() - seconds) < 300
    with pytest.raises(AuthApiError) as refused:
        client(emulator).sign_in_with_password({"email": email, "password": PASSWORD})
    assert refused.value.code == "user_banned"


def test_changes_made_by_authsh_are_seen_by_the_official_client(emulator, authsh):
    a = admin(emulator)
    made = a.create_user({"email": "grace@example.com", "password": PASSWORD, "email_confirm": False}).user

    code, doc = authsh("user", "confirm", "grace@example.com")
    assert code == 0 and doc["ok"] is True
    assert a.get_user_by_id(made.id).user.email_confirmed_at is not None

    code, _ = authsh("user", "disable", "grace@example.com", "--until", "1h", "--yes")
    assert code == 0
    banned_until = parse_time(a.get_user_by_id(made.id).user.banned_until)
    assert abs((banned_until - datetime.now(timezone.utc)).total_seconds() - 3600) < 300
    with pytest.raises(AuthApiError) as refused:
        client(emulator).sign_in_with_password({"email": "grace@example.com", "password": PASSWORD})
    assert refused.value.code == "user_banned"

    code, _ = authsh("user", "enable", "grace@example.com")
    assert code == 0
    assert a.get_user_by_id(made.id).user.banned_until is None
    client(emulator).sign_in_with_password({"email": "grace@example.com", "password": PASSWORD})

    code, _ = authsh("user", "set-password", "grace@example.com", "--password-env", "NEW_PW", "--yes",
                     env={"NEW_PW": "correct-horse-2"})
    assert code == 0
    with pytest.raises(AuthApiError):
        client(emulator).sign_in_with_password({"email": "grace@example.com", "password": PASSWORD})
    signed_in = client(emulator).sign_in_with_password({"email": "grace@example.com", "password": "correct-horse-2"})
    assert signed_in.user.id == made.id

    code, _ = authsh("user", "delete", "grace@example.com", "--yes")
    assert code == 0
    with pytest.raises(AuthApiError) as gone:
        a.get_user_by_id(made.id)
    assert (gone.value.status, gone.value.code) == (404, "user_not_found")


def test_accounts_created_by_authsh_are_seen_by_the_official_client(emulator, authsh):
    code, doc = authsh("user", "create", "kay@example.com", "--confirmed", "--name", "Kay Hopper",
                       "--password-env", "PW", env={"PW": PASSWORD})
    assert code == 0, doc
    user = admin(emulator).get_user_by_id(doc["user"]["id"]).user
    assert user.email == "kay@example.com" and user.email_confirmed_at is not None
    assert user.user_metadata["full_name"] == "Kay Hopper"
    assert [i.provider for i in user.identities] == ["email"]
    client(emulator).sign_in_with_password({"email": "kay@example.com", "password": PASSWORD})


def test_a_recovery_link_from_authsh_is_accepted_by_the_official_client(emulator, authsh):
    admin(emulator).create_user({"email": "lin@example.com", "password": PASSWORD, "email_confirm": True})
    code, doc = authsh("user", "link", "recovery", "lin@example.com", "--yes")
    assert code == 0 and doc["link"]["kind"] == "recovery"
    token_hash = doc["link"]["url"].split("token=")[1].split("&")[0]
    verified = client(emulator).verify_otp({"token_hash": token_hash, "type": "recovery"})
    assert verified.session is not None and verified.user.email == "lin@example.com"
    assert emulator.outbox("lin@example.com") == [], "a link for support: no mail was sent"


def test_a_service_role_key_of_another_project_is_a_config_error_exit_1(emulator, authsh):
    # A well-formed service_role JWT signed with another project's secret: the server refuses it.
    foreign = jwt.encode({"iss": "supabase-demo", "role": "service_role", "exp": int(time.time()) + 3600},
                         "another-projects-secret-at-least-32-characters", algorithm="HS256")
    code, doc = authsh("user", "list", env={"SUPABASE_SERVICE_ROLE_KEY": foreign})
    assert code == 1 and doc["error"]["code"] == "config_error"
    assert doc["error"]["status"] == 403 and doc["error"]["provider_code"] == "bad_jwt"
    assert "service_role key" in doc["error"]["message"]
    assert foreign not in json.dumps(doc)


def test_the_secret_key_is_accepted_in_place_of_the_service_role_key(emulator, authsh):
    secret = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"  # the emulator's, as its banner prints it
    made = admin(emulator).create_user({"email": "sec@example.com", "password": PASSWORD, "email_confirm": True}).user
    code, doc = authsh("user", "show", "sec@example.com",
                       env={"SUPABASE_SECRET_KEY": secret, "SUPABASE_SERVICE_ROLE_KEY": ""})
    assert code == 0 and doc["user"]["id"] == made.id
    assert secret not in json.dumps(doc)
