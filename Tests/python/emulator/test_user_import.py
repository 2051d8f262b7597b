"""`authsh user import` between the emulator's two backends, checked with the official clients:
accounts made by firebase-admin sign in through supabase-auth after the move, bcrypt accounts
from Supabase sign in through Firebase's REST API, Firebase's auth:import format with
--hash-config, --dry-run sends nothing, accounts already there are skipped and reported."""
import json
import os
import uuid
import subprocess

import bcrypt
import pytest
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from backend_accounts import firebase_accounts
from conftest import authsh_binary
from hashes import hash_config

KEY = {"key": "fake-api-key"}


@pytest.fixture
def authsh(emulator, tmp_path):
    """The binary one-shot, with both of the emulator's backends configured (--provider picks)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"), "NO_COLOR": "1",
        "SUPABASE_URL": emulator.base, "SUPABASE_ANON_KEY": emulator.anon_key,
        "SUPABASE_SERVICE_ROLE_KEY": emulator.service_role_key,
        "FIREBASE_AUTH_EMULATOR_HOST": emulator.host, "FIREBASE_API_KEY": emulator.api_key,
        "FIREBASE_PROJECT_ID": emulator.project,
    }

    def run(*args):
        return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=300)
    return run



def exported_jsonl_from_firebase(authsh) -> str:
    """`authsh user export --provider firebase`: the accounts with their `$fbscrypt$` hashes, made
    from batchGet's passwordHash/salt and the v2 project config's hash parameters."""
    done = authsh("user", "export", "--provider", "firebase")
    assert done.returncode == 0, done.stderr
    assert "password hashes and the project's signer key" in done.stderr
    return done.stdout


def supabase_count(emu):
    r = requests.get(f"{emu.supabase_url}/admin/users", params={"per_page": 1},
                     headers={"apikey": emu.service_role_key, "Authorization": f"Bearer {emu.service_role_key}"}, timeout=10)
    return int(r.headers["X-Total-Count"])


def firebase_sign_in(emu, email, password):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", params=KEY,
                         json={"email": email, "password": password, "returnSecureToken": True}, timeout=10)


def test_500_firebase_accounts_move_to_supabase_and_sign_in_with_supabase_auth(emulator, admin_app, authsh, tmp_path):
    passwords = {f"user{i}@example.com": f"pw-{i}-{uuid.uuid4().hex[:8]}" for i in range(500)}
    for index, (email, password) in enumerate(passwords.items()):
        auth.create_user(email=email, password=password, email_verified=index % 2 == 0, app=admin_app)
    export = tmp_path / "users.jsonl"
    export.write_text(exported_jsonl_from_firebase(authsh))
    report = tmp_path / "report.jsonl"

    # Half were never confirmed on Firebase, where they sign in anyway; Supabase's password sign-in
    # refuses an unconfirmed address, so they are held back until that is accepted by name.
    dry = authsh("user", "import", str(export), "--provider", "supabase", "--dry-run")
    assert dry.returncode == 1 and "held back:             250" in dry.stdout, dry.stdout
    done = authsh("user", "import", str(export), "--provider", "supabase", "--yes", "--jobs", "8", "--report", str(report),
                  "--confirm-unverified")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Imported 500 of 500 accounts" in done.stdout and "failed:                0" in done.stdout
    assert "$fbscrypt$" not in done.stdout + done.stderr + report.read_text()
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(lines) == 500 and all(line["status"] == "imported" and line["new_id"] for line in lines)

    client = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.anon_key},
                              persist_session=False, auto_refresh_token=False)
    admin = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.service_role_key,
                             "Authorization": f"Bearer {emulator.service_role_key}"},
                             persist_session=False, auto_refresh_token=False).admin
    assert all(u.email_confirmed_at for u in admin.list_users(per_page=1000))
    for email, password in passwords.items():
        assert client.sign_in_with_password({"email": email, "password": password}).user.email == email


def test_supabase_bcrypt_accounts_move_to_firebase_and_sign_in_through_rest(emulator, authsh, tmp_path):
    records, passwords = [], {}
    for i in range(30):
        email, password = f"sb{i}@example.com", f"bcrypt-pw-{i}"
        passwords[email] = password
        records.append({"id": str(uuid.uuid4()), "email": email, "email_verified": True, "source": "supabase",
                        "user_metadata": {"full_name": f"Person {i}"}, "app_metadata": {"provider": "email", "role": "staff"},
                        "password_hash": bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=4)).decode()})
    records.append({"id": str(uuid.uuid4()), "email": "argon@example.com", "source": "supabase",
                    "password_hash": "$argon2id$v=19$m=16,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"})
    export = tmp_path / "supabase.jsonl"
    export.write_text("\n".join(json.dumps(r) for r in records) + "\n")

    # The argon2 account would arrive without its password: held back, and the import exits 1.
    held = authsh("user", "import", str(export), "--provider", "firebase", "--yes")
    assert held.returncode == 1, held.stdout + held.stderr
    assert "Imported 30 of 31 accounts" in held.stdout and "held back:             1" in held.stdout
    assert "argon@example.com: would arrive without its password (Firebase cannot import argon2 hashes)" in held.stdout
    assert "--without-passwords" in held.stderr
    # Said yes to by name, it goes (the others are there already).
    done = authsh("user", "import", str(export), "--provider", "firebase", "--yes", "--without-passwords")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Imported 1 of 31 accounts" in done.stdout
    assert "argon@example.com: Firebase cannot import argon2 hashes" in done.stdout
    for email, password in passwords.items():
        r = firebase_sign_in(emulator, email, password)
        assert r.status_code == 200, r.text
    users = {u["email"]: u for u in firebase_accounts(emulator)}
    first = records[0]
    assert users["sb0@example.com"]["localId"] == first["id"] and users["sb0@example.com"]["displayName"] == "Person 0"
    assert json.loads(users["sb0@example.com"]["customAttributes"]) == {"role": "staff"}
    assert users["sb0@example.com"]["emailVerified"] is True
    assert "passwordHash" not in users["argon@example.com"]


def test_firebase_format_with_hash_config_is_read_back(emulator, admin_app, authsh, tmp_path):
    for i in range(5):
        auth.create_user(email=f"fmt{i}@example.com", password=f"format-pw-{i}", email_verified=True, app=admin_app)
    users = [{"localId": u["localId"], "email": u["email"], "emailVerified": True, "passwordHash": u["passwordHash"],
              "salt": u["salt"], "createdAt": u["createdAt"], "providerUserInfo": u.get("providerUserInfo", [])}
             for u in firebase_accounts(emulator)]
    (tmp_path / "users.json").write_text(json.dumps({"users": users}))
    (tmp_path / "hash.json").write_text(json.dumps(hash_config(emulator)))

    # Hashes without their parameters: refused before anything is sent, naming --hash-config.
    without = authsh("user", "import", str(tmp_path / "users.json"), "--provider", "supabase", "--dry-run")
    assert without.returncode == 64, without.stdout + without.stderr
    assert "5 accounts of" in without.stderr and "--hash-config FILE" in without.stderr

    done = authsh("user", "import", str(tmp_path / "users.json"), "--hash-config", str(tmp_path / "hash.json"),
                  "--provider", "supabase", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(firebase)" in done.stdout and "without a password:    0" in done.stdout
    client = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.anon_key},
                              persist_session=False, auto_refresh_token=False)
    for i in range(5):
        assert client.sign_in_with_password({"email": f"fmt{i}@example.com", "password": f"format-pw-{i}"}).user


def test_dry_run_sends_nothing(emulator, authsh, tmp_path):
    records = [{"id": str(uuid.uuid4()), "email": f"dry{i}@example.com",
                "password_hash": bcrypt.hashpw(b"dry-pw", bcrypt.gensalt(rounds=4)).decode()} for i in range(10)]
    export = tmp_path / "dry.jsonl"
    export.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    before_supabase, before_firebase = supabase_count(emulator), len(firebase_accounts(emulator))
    for provider in ["supabase", "firebase"]:
        done = authsh("user", "import", str(export), "--provider", provider, "--dry-run")
        assert done.returncode == 0, done.stderr
        assert "Dry run: nothing was sent. 10 accounts" in done.stdout and "bcrypt 10" in done.stdout
    assert supabase_count(emulator) == before_supabase and len(firebase_accounts(emulator)) == before_firebase


def test_existing_accounts_are_skipped_and_reported(emulator, authsh, tmp_path):
    records = [{"id": str(uuid.uuid4()), "email": f"again{i}@example.com", "email_verified": True,
                "password_hash": bcrypt.hashpw(f"again-{i}".encode(), bcrypt.gensalt(rounds=4)).decode()} for i in range(5)]
    export = tmp_path / "again.jsonl"
    export.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    for provider in ["supabase", "firebase"]:
        first = authsh("user", "import", str(export), "--provider", provider, "--yes")
        assert first.returncode == 0 and "Imported 5 of 5" in first.stdout, first.stdout + first.stderr
        second = authsh("user", "import", str(export), "--provider", provider, "--yes")
        assert second.returncode == 0, second.stdout + second.stderr
        assert "Imported 0 of 5" in second.stdout and "skipped, already there: 5" in second.stdout
        assert "again0@example.com" in second.stdout


def test_import_needs_yes_without_a_terminal_and_a_writable_profile(emulator, authsh, tmp_path):
    export = tmp_path / "one.jsonl"
    export.write_text(json.dumps({"email": "one@example.com"}) + "\n")
    done = authsh("user", "import", str(export), "--provider", "supabase")
    assert done.returncode == 64 and "--yes" in done.stderr
