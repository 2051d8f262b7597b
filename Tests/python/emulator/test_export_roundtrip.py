"""Round trips through `authsh user export`: accounts in a real PostgreSQL with GoTrue's schema
(bcrypt hashes made by pgcrypto's crypt()) exported with `--db` and imported into the emulator's
Firebase sign in through Firebase's REST API with their old passwords; Firebase accounts made by
firebase-admin move to Supabase through a pipe (`export | import -`) and sign in through the
official supabase-auth client; the csv and firebase formats are read back by `user import`."""
import json
import os
import subprocess
import uuid

import firebase_admin
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary
from hashes import hash_config
from postgres import PostgresServer


def env_for(emulator, tmp_path):
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"), "NO_COLOR": "1",
        "SUPABASE_URL": emulator.base, "SUPABASE_ANON_KEY": emulator.anon_key,
        "SUPABASE_SERVICE_ROLE_KEY": emulator.service_role_key,
        "FIREBASE_AUTH_EMULATOR_HOST": emulator.host, "FIREBASE_API_KEY": emulator.api_key,
        "FIREBASE_PROJECT_ID": emulator.project,
    }


def test_database_export_imports_into_firebase_and_signs_in_through_rest(emulator, tmp_path):
    server = PostgresServer().start()
    try:
        server.install_gotrue_schema()
        passwords = {f"db{i}@example.com": f"db-password-{i}-{uuid.uuid4().hex[:6]}" for i in range(20)}
        values = ",\n".join(
            f"(gen_random_uuid(), 'authenticated', 'authenticated', '{email}', crypt('{password}', gen_salt('bf', 4)), "
            f"now(), now(), now(), '{{\"provider\":\"email\",\"providers\":[\"email\"]}}', '{{\"full_name\":\"DB {i}\"}}')"
            for i, (email, password) in enumerate(passwords.items()))
        server.psql("INSERT INTO auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, created_at, "
                    f"updated_at, raw_app_meta_data, raw_user_meta_data) VALUES {values}")
        env = env_for(emulator, tmp_path)
        export = tmp_path / "db.jsonl"
        with export.open("w") as out:
            done = subprocess.run([authsh_binary(), "user", "export", "--provider", "supabase", "--db", server.url()],
                                  env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE, text=True,
                                  timeout=120)
        assert done.returncode == 0, done.stderr
        assert "Exported 20 accounts (20 with a password hash)." in done.stderr
        imported = subprocess.run([authsh_binary(), "user", "import", str(export), "--provider", "firebase", "--yes"],
                                  env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
        assert imported.returncode == 0, imported.stdout + imported.stderr
        assert "Imported 20 of 20 accounts" in imported.stdout
    finally:
        server.stop()
    for email, password in passwords.items():
        r = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                          params={"key": emulator.api_key},
                          json={"email": email, "password": password, "returnSecureToken": True}, timeout=10)
        assert r.status_code == 200, r.text
        assert r.json()["email"] == email
        wrong = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                              params={"key": emulator.api_key},
                              json={"email": email, "password": password + "!", "returnSecureToken": True}, timeout=10)
        assert wrong.status_code == 400


def test_firebase_export_piped_into_supabase_import(emulator, tmp_path, monkeypatch):
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", emulator.host)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    app = firebase_admin.initialize_app(options={"projectId": emulator.project}, name=f"pipe-{uuid.uuid4()}")
    try:
        passwords = {f"pipe{i}@example.com": f"pipe-pw-{i}-{uuid.uuid4().hex[:6]}" for i in range(25)}
        for email, password in passwords.items():
            auth.create_user(email=email, password=password, email_verified=True, display_name=email[:5], app=app)
    finally:
        firebase_admin.delete_app(app)
    env = env_for(emulator, tmp_path)
    export = subprocess.Popen([authsh_binary(), "user", "export", "--provider", "firebase"], env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    imported = subprocess.run([authsh_binary(), "user", "import", "-", "--provider", "supabase", "--yes"], env=env,
                              stdin=export.stdout, capture_output=True, text=True, timeout=300)
    export.stdout.close()
    export_err = export.stderr.read().decode()
    assert export.wait(timeout=60) == 0, export_err
    assert "Exported 25 accounts (25 with a password hash)." in export_err
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert "Imported 25 of 25 accounts" in imported.stdout
    client = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.anon_key},
                              persist_session=False, auto_refresh_token=False)
    for email, password in passwords.items():
        assert client.sign_in_with_password({"email": email, "password": password}).user.email == email


def test_csv_and_firebase_formats_are_read_back_by_import(emulator, tmp_path, monkeypatch):
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", emulator.host)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    app = firebase_admin.initialize_app(options={"projectId": emulator.project}, name=f"fmt-{uuid.uuid4()}")
    try:
        passwords = {f"fmt{i}@example.com": f"fmt-pw-{i}-{uuid.uuid4().hex[:6]}" for i in range(6)}
        for email, password in passwords.items():
            auth.create_user(email=email, password=password, email_verified=True, app=app)
    finally:
        firebase_admin.delete_app(app)
    env = env_for(emulator, tmp_path)
    client = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.anon_key},
                              persist_session=False, auto_refresh_token=False)

    def run(*args, **kwargs):
        return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=300, **kwargs)

    # CSV: the first three accounts.
    csv_done = run("user", "export", "--provider", "firebase", "--format", "csv", "--filter", "fmt")
    assert csv_done.returncode == 0, csv_done.stderr
    rows = csv_done.stdout.splitlines()
    (tmp_path / "users.csv").write_text("\n".join(rows[:4]) + "\n")
    imported = run("user", "import", str(tmp_path / "users.csv"), "--provider", "supabase", "--yes")
    assert imported.returncode == 0 and "Imported 3 of 3 accounts" in imported.stdout, imported.stdout
    # Firebase's auth:import JSON: the other three, with the hash parameters in a file of their own.
    fb_done = run("user", "export", "--provider", "firebase", "--format", "firebase")
    users = json.loads(fb_done.stdout)["users"]
    csv_emails = {row.split(",")[1] for row in rows[1:4]}
    rest = [u for u in users if u["email"] not in csv_emails]
    assert len(rest) == 3 and all(u["passwordHash"] and u["salt"] for u in rest)
    (tmp_path / "users.json").write_text(json.dumps({"users": rest}))
    (tmp_path / "hash.json").write_text(json.dumps(hash_config(emulator)))
    imported = run("user", "import", str(tmp_path / "users.json"), "--hash-config", str(tmp_path / "hash.json"),
                   "--provider", "supabase", "--yes")
    assert imported.returncode == 0 and "Imported 3 of 3 accounts" in imported.stdout, imported.stdout
    for email, password in passwords.items():
        assert client.sign_in_with_password({"email": email, "password": password}).user.email == email
