"""Accounts shown as what they are, made by the official clients against the real emulator: a
soft-deleted Supabase account (GoTrue scrambled its e-mail and phone) is "deleted on DATE" with
the scrambled fields left out, in `user show`, `diagnose` and the console's account page; an
anonymous account is named anonymous, with no fact that contradicts it."""
import json
import os
import re
import subprocess

import pytest
import requests
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary

PASSWORD = "correct-horse-1"


def gotrue(emu, key):
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False)


def run(emu, home, side, *args):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "NO_COLOR": "1", "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state")}
    sides = {
        "supabase": {"SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
                     "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key},
        "firebase": {"FIREBASE_AUTH_EMULATOR_HOST": emu.host, "FIREBASE_API_KEY": emu.api_key,
                     "FIREBASE_PROJECT_ID": emu.project},
    }
    return subprocess.run([authsh_binary(), "--provider", side, *args], env={**env, **sides[side]},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def console_page(emu, side, uid):
    page = requests.get(f"{emu.base}/_/accounts/{side}/{uid}", timeout=10)
    assert page.status_code == 200, page.text
    return page.text


def sign_in_facts(html):
    block = html.split('id="signin-facts">', 1)[1].split("</ul>", 1)[0]
    return re.findall(r"<li>(.*?)</li>", block)


@pytest.fixture
def soft_deleted(emulator):
    admin = gotrue(emulator, emulator.service_role_key).admin
    made = admin.create_user({"email": "gone@example.com", "password": PASSWORD, "email_confirm": True,
                              "phone": "15551234567", "user_metadata": {"full_name": "Gone Person"}}).user
    # A pending change of address, so that new_email gets scrambled too.
    person = gotrue(emulator, emulator.anon_key)
    person.sign_in_with_password({"email": "gone@example.com", "password": PASSWORD})
    person.update_user({"email": "gone@new.example"})
    admin.delete_user(made.id, should_soft_delete=True)
    scrambled = admin.get_user_by_id(made.id).user
    assert scrambled.deleted_at is not None if hasattr(scrambled, "deleted_at") else True
    assert scrambled.email != "gone@example.com" and scrambled.phone != "15551234567"
    # GoTrue refuses the password now.
    refused = requests.post(f"{emulator.supabase_url}/token", params={"grant_type": "password"},
                            headers={"apikey": emulator.anon_key},
                            json={"email": "gone@example.com", "password": PASSWORD}, timeout=10)
    assert refused.status_code == 400 and refused.json()["error_code"] == "invalid_credentials"
    return made.id, scrambled


def test_a_soft_deleted_account_is_shown_deleted_without_its_scrambled_fields(emulator, tmp_path, soft_deleted):
    uid, scrambled = soft_deleted
    hashes = [scrambled.email, scrambled.phone, scrambled.new_email]
    hashes = [h for h in hashes if h]
    done = run(emulator, tmp_path, "supabase", "user", "show", uid)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.splitlines()[0] == f"Deleted account {uid}", out
    assert re.search(r"deleted\s+on \d{4}-\d\d-\d\dT", out), out
    labels = re.findall(r"^  (\S+(?: \S+)*?)  ", out, re.M)
    assert labels == ["id", "deleted", "created", "last sign-in"], (labels, out)
    for value in hashes:
        assert value not in out and value[:8] not in out, (value, out)

    done = run(emulator, tmp_path, "supabase", "user", "show", uid, "--json")
    user = json.loads(done.stdout)["users"][0]["user"]
    assert user["deleted_at"] and user["email"] == "" and user["phone"] is None and user["new_email"] is None
    assert user["methods"] == []

    done = run(emulator, tmp_path, "supabase", "diagnose", uid)
    assert done.returncode == 1
    assert "deleted" in done.stdout and not any(value in done.stdout for value in hashes), done.stdout

    html = console_page(emulator, "supabase", uid)
    assert f"Deleted account {uid}" in html
    facts = sign_in_facts(html)
    assert len(facts) == 1 and facts[0].startswith("Deleted on "), facts
    assert "Nothing stops a password sign-in" not in html
    table = html.split("</table>", 1)[0]
    for value in hashes:
        assert value not in table, value


@pytest.fixture(params=["supabase", "firebase"])
def anonymous(request, emulator_factory):
    emu = emulator_factory("--anonymous-sign-ins")
    if request.param == "supabase":
        session = gotrue(emu, emu.anon_key).sign_in_anonymously()
        return emu, request.param, session.user.id
    made = requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signUp", params={"key": emu.api_key},
                         json={"returnSecureToken": True}, timeout=10)
    assert made.status_code == 200, made.text
    return emu, request.param, made.json()["localId"]


def test_an_anonymous_account_is_named_anonymous_and_nothing_contradicts_it(anonymous, tmp_path):
    emu, side, uid = anonymous
    done = run(emu, tmp_path, side, "user", "show", uid)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.splitlines()[0] == f"Anonymous account {uid}", out
    assert re.search(r"e-mail\s+none \(anonymous\)", out), out
    # No address, so nothing about confirming one.
    assert "confirmed" not in out, out

    done = run(emu, tmp_path, side, "diagnose", uid, "--json")
    findings = json.loads(done.stdout)["diagnosis"]["findings"]
    assert findings[0]["code"] == "anonymous"
    assert not {"email_unconfirmed", "ok", "no_password"} & {f["code"] for f in findings}, findings

    html = console_page(emu, side, uid)
    assert f"Anonymous account {uid}" in html
    facts = sign_in_facts(html)
    assert len(facts) == 1 and facts[0].startswith("Anonymous account"), facts
    assert "Nothing stops" not in html and "not confirmed" not in html and "not verified" not in html
