"""Look-ups by what support is handed: an E.164 number finds the account on both backends
(Firebase `accounts:lookup` by `phoneNumber`; Supabase through the admin list, GoTrue storing the
digits without `+`), with accounts made by the official clients; a name is refused before anything
is sent and the search that finds it (`user list --filter`, which matches names) is named."""
import json
import os
import subprocess

import pytest
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary

NUMBER = "+15551234567"


def gotrue_admin(emu):
    key = emu.service_role_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False).admin


def run(emu, home, side, *args, json_out=True):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "NO_COLOR": "1", "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state")}
    sides = {
        "supabase": {"SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
                     "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key},
        "firebase": {"FIREBASE_AUTH_EMULATOR_HOST": emu.host, "FIREBASE_API_KEY": emu.api_key,
                     "FIREBASE_PROJECT_ID": emu.project},
    }
    done = subprocess.run([authsh_binary(), "--provider", side, *args, *(["--json"] if json_out else [])],
                          env={**env, **sides[side]}, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)
    return done


def make_accounts(emu, side, admin_app):
    """Ada (named, the number to come) among others, made by the backend's official client."""
    if side == "supabase":
        admin = gotrue_admin(emu)
        for n in range(12):
            admin.create_user({"email": f"other{n}@example.com", "password": "correct-horse-1", "email_confirm": True,
                               "phone": f"4420794609{n:02d}"})
        return admin.create_user({"email": "ada@example.com", "password": "correct-horse-1", "email_confirm": True,
                                  "user_metadata": {"full_name": "Ada Lovelace"}}).user.id
    for n in range(12):
        auth.create_user(email=f"other{n}@example.com", password="correct-horse-1",
                         phone_number=f"+4420794609{n:02d}", app=admin_app)
    return auth.create_user(email="ada@example.com", password="correct-horse-1", display_name="Ada Lovelace",
                            app=admin_app).uid


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_a_phone_number_finds_the_account_in_show_diagnose_list_and_from(emulator, admin_app, tmp_path, side):
    uid = make_accounts(emulator, side, admin_app)
    done = run(emulator, tmp_path, side, "user", "update", "ada@example.com", "--phone", NUMBER, "--yes")
    assert done.returncode == 0, done.stderr
    # The official client sees the number the way its backend keeps it.
    if side == "supabase":
        assert gotrue_admin(emulator).get_user_by_id(uid).user.phone == NUMBER[1:]
    else:
        assert auth.get_user(uid, app=admin_app).phone_number == NUMBER

    for typed in (NUMBER, "+1 555 123-4567"):
        done = run(emulator, tmp_path, side, "user", "show", typed)
        assert done.returncode == 0, done.stdout + done.stderr
        (lookup,) = json.loads(done.stdout)["users"]
        assert lookup["user"]["id"] == uid and lookup["user"]["phone"] == NUMBER

    done = run(emulator, tmp_path, side, "user", "show", NUMBER, json_out=False)
    assert done.returncode == 0 and "ada@example.com" in done.stdout, done.stdout + done.stderr

    done = run(emulator, tmp_path, side, "diagnose", NUMBER)
    doc = json.loads(done.stdout)
    codes = [f["code"] for f in doc["diagnosis"]["findings"]]
    assert "no_account" not in codes and doc["diagnosis"]["can_sign_in"] is True, doc
    assert doc["user"]["id"] == uid

    done = run(emulator, tmp_path, side, "user", "list", "--filter", NUMBER)
    assert done.returncode == 0, done.stderr
    assert [u["id"] for u in json.loads(done.stdout)["users"]] == [uid]

    listed = tmp_path / "ticket.txt"
    listed.write_text(f"# ticket 4711\n{NUMBER}\nother3@example.com\n")
    done = run(emulator, tmp_path, side, "user", "show", "--from", str(listed))
    assert done.returncode == 0, done.stderr
    assert [u["user"]["id"] for u in json.loads(done.stdout)["users"]][0] == uid

    # A bulk change takes numbers too.
    done = run(emulator, tmp_path, side, "user", "disable", "--from", str(listed), "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    if side == "supabase":
        assert gotrue_admin(emulator).get_user_by_id(uid).user.banned_until is not None
    else:
        assert auth.get_user(uid, app=admin_app).disabled is True


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_a_number_nobody_has_is_no_account_and_no_address_is_suggested(emulator, admin_app, tmp_path, side):
    make_accounts(emulator, side, admin_app)
    done = run(emulator, tmp_path, side, "user", "show", "+15550000000")
    assert done.returncode == 1 and json.loads(done.stdout)["users"][0]["error"]["code"] == "user_not_found"
    done = run(emulator, tmp_path, side, "diagnose", "+15550000000", json_out=False)
    assert done.returncode == 1
    assert "no account with the phone number +15550000000" in done.stdout, done.stdout
    assert "similar address" not in done.stdout


@pytest.mark.parametrize("side", ["supabase", "firebase"])
@pytest.mark.parametrize("typed", ["ada", "Ada Lovelace"])
def test_a_name_is_refused_before_sending_and_the_search_it_names_finds_her(emulator, admin_app, tmp_path, side,
                                                                           typed):
    uid = make_accounts(emulator, side, admin_app)
    for command in (["user", "show", typed], ["diagnose", typed]):
        # --verbose prints every request: none goes out.
        done = run(emulator, tmp_path, side, *command, "--verbose", json_out=False)
        assert done.returncode == 64, (command, done.returncode, done.stdout, done.stderr)
        assert "is not an e-mail address" in done.stderr and "E.164 phone number" in done.stderr, done.stderr
        quoted = "'Ada Lovelace'" if " " in typed else typed
        assert f"authsh user list --filter {quoted}" in done.stderr, done.stderr
        assert "> GET " not in done.stderr and "> POST " not in done.stderr, done.stderr
        assert "no such account" not in done.stdout + done.stderr
    # Unquoted, the words of a name are one search.
    if " " in typed:
        done = run(emulator, tmp_path, side, "user", "show", *typed.split(), json_out=False)
        assert done.returncode == 64 and "authsh user list --filter 'Ada Lovelace'" in done.stderr, done.stderr
    done = run(emulator, tmp_path, side, "user", "list", "--filter", typed, "--verbose")
    assert done.returncode == 0, done.stderr
    assert "> GET " in done.stderr, "--verbose shows the requests a command sends"
    assert uid in [u["id"] for u in json.loads(done.stdout)["users"]]
