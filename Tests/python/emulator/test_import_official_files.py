"""`user import` reads the files the official tools write, whole, and moves nothing weaker in silence:

- firebase-tools' `auth:export --format csv` (no header; 28 positional fields and a trailing comma,
  a name quoted only when it holds a comma) imports every person, and their passwords sign in
  through supabase-auth;
- a `\\copy auth.users to … csv header` of GoTrue's table (a real PostgreSQL) imports into Firebase,
  and the bcrypt passwords sign in; the soft-deleted account stays behind;
- `user export --db` records with a TOTP factor are held back (exit 1) unless `--drop-factors`;
- a file that is no export exits 65 and sends nothing."""
import json
import subprocess
import uuid

import pytest
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary
from backend_accounts import firebase_accounts
from one_shot import authsh, environment
from hashes import hash_config

KEY = {"key": "fake-api-key"}




def supabase_count(emu):
    r = requests.get(f"{emu.supabase_url}/admin/users", params={"per_page": 1},
                     headers={"apikey": emu.service_role_key, "Authorization": f"Bearer {emu.service_role_key}"},
                     timeout=10)
    return int(r.headers["X-Total-Count"])


def firebase_tools_csv(users) -> str:
    """What firebase-tools' accountExporter writes for these batchGet users (its transUserToArray,
    the 28-field layout): standard base64, a name quoted only when it holds a comma, a trailing comma."""
    lines = []
    for user in users:
        row = [""] * 28
        row[0] = user["localId"]
        row[1] = user.get("email", "")
        row[2] = "true" if user.get("emailVerified") else "false"
        row[3] = user.get("passwordHash", "").replace("_", "/").replace("-", "+")
        row[4] = user.get("salt", "").replace("_", "/").replace("-", "+")
        name = user.get("displayName", "")
        row[5] = f'"{name}"' if "," in name else name
        row[23] = user.get("createdAt", "")
        row[24] = user.get("lastLoginAt", "")
        row[26] = "false"
        lines.append(",".join(row) + ",")
    return "\n".join(lines) + "\n"


def test_firebase_tools_csv_imports_every_person_and_passwords_sign_in(emulator, admin_app, tmp_path):
    people = {f"csv{i}@example.com": f"csv-password-{i}" for i in range(6)}
    for i, (email, password) in enumerate(people.items()):
        auth.create_user(email=email, password=password, email_verified=True,
                         display_name="Lovelace, Ada" if i == 0 else f"Person {i}", app=admin_app)
    export = tmp_path / "users.csv"
    export.write_text(firebase_tools_csv(firebase_accounts(emulator)))
    (tmp_path / "hash.json").write_text(json.dumps(hash_config(emulator)))
    env = environment(tmp_path, emulator, "both")
    # The hashes need their parameters: refused up front without them.
    refused = authsh(env, "user", "import", str(export), "--provider", "supabase", "--yes")
    assert refused.returncode == 64 and "--hash-config" in refused.stderr, refused.stderr
    assert supabase_count(emulator) == 0
    dry = authsh(env, "user", "import", str(export), "--hash-config", str(tmp_path / "hash.json"), "--provider",
                 "supabase", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "6 accounts from" in dry.stdout and "(firebase-csv)" in dry.stdout and "6 would be imported" in dry.stdout
    done = authsh(env, "user", "import", str(export), "--hash-config", str(tmp_path / "hash.json"), "--provider",
                  "supabase", "--yes", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["import"]["imported"] == 6
    client = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.anon_key},
                              persist_session=False, auto_refresh_token=False)
    for email, password in people.items():
        assert client.sign_in_with_password({"email": email, "password": password}).user.email == email
    names = {u["email"]: u.get("user_metadata", {}).get("full_name") for u in requests.get(
        f"{emulator.supabase_url}/admin/users", headers={"apikey": emulator.service_role_key,
                                                         "Authorization": f"Bearer {emulator.service_role_key}"},
        timeout=10).json()["users"]}
    assert names["csv0@example.com"] == "Lovelace, Ada"


def test_a_file_that_is_no_export_exits_65_and_sends_nothing(emulator, tmp_path):
    env = environment(tmp_path, emulator, "both")
    for name, content in [("garbage.txt", "garbage\n"), ("notes.csv", "name,notes\nAda,hello\n"),
                          ("short.csv", "email,email_verified,display_name,password_hash\nada@example.com,Ada,$2a$04$x\n"),
                          ("latin1.jsonl", None)]:
        path = tmp_path / name
        if content is None:
            path.write_bytes(b'{"email":"caf\xe9@example.com"}\n')
        else:
            path.write_text(content)
        for provider in ["supabase", "firebase"]:
            done = authsh(env, "user", "import", str(path), "--provider", provider, "--yes")
            assert done.returncode == 65, (name, done.stdout + done.stderr)
            assert "nothing was sent" in done.stderr and "(invalid_file)" in done.stderr
    assert "line 2: 3 fields where the header names 4" in authsh(env, "user", "import", str(tmp_path / "short.csv"),
                                                               "--provider", "supabase", "--yes").stderr
    assert "line 1 has bytes no text has" in authsh(env, "user", "import", str(tmp_path / "latin1.jsonl"), "--provider",
                                                    "supabase", "--yes").stderr
    assert supabase_count(emulator) == 0 and firebase_accounts(emulator) == []


@pytest.fixture(scope="module")
def database():
    from postgres import PostgresServer

    server = PostgresServer().start()
    try:
        server.install_gotrue_schema()
        ada, bob, gone = (str(uuid.uuid4()) for _ in range(3))
        server.psql(f"""
INSERT INTO auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, created_at, updated_at,
                        raw_app_meta_data, raw_user_meta_data, phone, deleted_at)
VALUES
 ('{ada}', 'authenticated', 'authenticated', 'ada@copy.example', crypt('ada-copy-1', gen_salt('bf', 4)),
  '2024-01-02T03:04:05Z', '2024-01-01T00:00:00Z', now(), '{{"provider":"email","providers":["email"]}}',
  '{{"full_name":"Ada, Countess"}}', '15551234567', NULL),
 ('{bob}', 'authenticated', 'authenticated', 'bob@copy.example', crypt('bob-copy-2', gen_salt('bf', 4)),
  '2024-01-02T03:04:05Z', '2024-03-01T00:00:00Z', now(), '{{"provider":"email","providers":["email"]}}', '{{}}',
  NULL, NULL),
 ('{gone}', 'authenticated', 'authenticated', 'gone@copy.example', crypt('gone', gen_salt('bf', 4)),
  NULL, '2024-05-01T00:00:00Z', now(), '{{}}', '{{}}', NULL, '2024-06-01T00:00:00Z');
INSERT INTO auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret) VALUES
 ('{uuid.uuid4()}', '{ada}', 'phone app', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP');
""")
        yield server
    finally:
        server.stop()


def test_a_copy_of_auth_users_imports_into_firebase_and_passwords_sign_in(database, emulator, tmp_path):
    copy = tmp_path / "users.csv"
    database.psql(f"\\copy auth.users to '{copy}' csv header")
    env = environment(tmp_path, emulator, "both")
    done = authsh(env, "user", "import", str(copy), "--provider", "firebase", "--yes", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    counts = json.loads(done.stdout)["import"]
    assert counts["total"] == 2 and counts["imported"] == 2
    users = {u["email"]: u for u in firebase_accounts(emulator)}
    assert set(users) == {"ada@copy.example", "bob@copy.example"}
    assert users["ada@copy.example"]["displayName"] == "Ada, Countess"
    # Her number was never confirmed (phone_confirmed_at NULL): Firebase takes only confirmed
    # numbers, so it is left out and counted, never made a way in. The copy has no factors: unknown.
    assert "phoneNumber" not in users["ada@copy.example"]
    assert counts["losses"]["phone_unconfirmed"] == 1 and counts["losses"]["factors_unknown"] == 2
    for email, password in [("ada@copy.example", "ada-copy-1"), ("bob@copy.example", "bob-copy-2")]:
        r = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", params=KEY,
                          json={"email": email, "password": password, "returnSecureToken": True}, timeout=10)
        assert r.status_code == 200, r.text


def test_an_account_with_a_second_factor_is_held_back_unless_drop_factors(database, emulator, tmp_path):
    env = environment(tmp_path, emulator, "both", PGPASSWORD="")
    exported = subprocess.run([authsh_binary(), "user", "export", "--provider", "supabase", "--db", database.url()],
                              env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert exported.returncode == 0, exported.stderr
    export = tmp_path / "db.jsonl"
    export.write_text(exported.stdout)
    dry = authsh(env, "user", "import", str(export), "--provider", "firebase", "--dry-run")
    # The dry run exits as the import would: 1, a pre-flight check in CI sees the account held back.
    assert dry.returncode == 1 and "held back:             1" in dry.stdout, dry.stdout
    assert "1 of 2 accounts would be held back" in dry.stderr and "--drop-factors" in dry.stderr, dry.stderr
    held = authsh(env, "user", "import", str(export), "--provider", "firebase", "--yes", "--json")
    assert held.returncode == 1, held.stdout + held.stderr
    result = json.loads(held.stdout)
    assert result["import"]["held_back"] == 1 and result["import"]["imported"] == 1
    assert result["ok"] is False and "--drop-factors" in result["error"]["hint"]
    assert "ada@copy.example" not in {u["email"] for u in firebase_accounts(emulator)}
    done = authsh(env, "user", "import", str(export), "--provider", "firebase", "--yes", "--drop-factors", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    counts = json.loads(done.stdout)["import"]
    assert counts["imported"] == 1 and counts["skipped"] == 1 and counts["losses"]["second_factors"] == 1
