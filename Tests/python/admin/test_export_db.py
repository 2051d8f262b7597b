"""`user export --provider supabase --db URL` against a real PostgreSQL server (Debian's
packages, started and stopped here, as the unprivileged user when the suite runs as root) with
GoTrue's auth schema: the bcrypt hashes pgcrypto's crypt() made come out as password_hash, the
URL's password never shows, the read is read-only, and each failure has its clear error and exit
status."""
import io
import json
import os
import subprocess

import pexpect
import pytest

from conftest import authsh_binary
from postgres import EXPORTER_PASSWORD, SUPERUSER_PASSWORD, PostgresServer

ADA = "11111111-1111-4111-8111-111111111111"
BOB = "22222222-2222-4222-8222-222222222222"
CAT = "33333333-3333-4333-8333-333333333333"
GONE = "44444444-4444-4444-8444-444444444444"
TOTP_SECRET = "JBSWY3DPEHPK3PXP"

SEED = f"""
INSERT INTO auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, created_at, updated_at,
                        last_sign_in_at, raw_app_meta_data, raw_user_meta_data, phone, banned_until, deleted_at)
VALUES
 ('{ADA}', 'authenticated', 'authenticated', 'ada@example.com', crypt('ada-password-1', gen_salt('bf')),
  '2024-01-02T03:04:05Z', '2024-01-01T00:00:00Z', now(), '2024-02-01T10:00:00Z',
  '{{"provider":"email","providers":["email"],"role":"admin"}}', '{{"full_name":"Ada Lovelace","plan":"pro"}}',
  NULL, NULL, NULL),
 ('{BOB}', 'authenticated', 'authenticated', 'bob@example.com', crypt('bob-password-2', gen_salt('bf', 4)),
  NULL, '2024-03-01T00:00:00Z', now(), NULL, '{{"provider":"email","providers":["email","google"]}}', '{{}}',
  '15551234567', '2999-01-01T00:00:00Z', NULL),
 ('{CAT}', 'authenticated', 'authenticated', 'cat@other.example', NULL, '2024-04-01T00:00:00Z',
  '2024-04-01T00:00:00Z', now(), NULL, '{{"provider":"github","providers":["github"]}}', '{{"name":"Cat"}}',
  NULL, NULL, NULL),
 ('{GONE}', 'authenticated', 'authenticated', 'gone@example.com', crypt('gone-password', gen_salt('bf', 4)),
  NULL, '2024-05-01T00:00:00Z', now(), NULL, '{{}}', '{{}}', NULL, NULL, '2024-06-01T00:00:00Z');
INSERT INTO auth.identities (provider_id, user_id, identity_data, provider, created_at) VALUES
 ('{ADA}', '{ADA}', '{{"sub":"{ADA}","email":"ada@example.com"}}', 'email', '2024-01-01T00:00:00Z'),
 ('{BOB}', '{BOB}', '{{"sub":"{BOB}","email":"bob@example.com"}}', 'email', '2024-03-01T00:00:00Z'),
 ('g-123', '{BOB}', '{{"sub":"g-123","email":"Bob@Example.com"}}', 'google', '2024-03-02T00:00:00Z'),
 ('gh-9', '{CAT}', '{{"sub":"gh-9","email":"cat@other.example"}}', 'github', '2024-04-01T00:00:00Z');
INSERT INTO auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret) VALUES
 ('55555555-5555-4555-8555-555555555555', '{ADA}', 'phone app', 'totp', 'verified', now(), now(), '{TOTP_SECRET}'),
 ('66666666-6666-4666-8666-666666666666', '{ADA}', 'abandoned', 'totp', 'unverified', now(), now(), '{TOTP_SECRET}');
"""


@pytest.fixture(scope="module")
def database():
    server = PostgresServer().start()
    try:
        server.install_gotrue_schema()
        server.psql(SEED)
        server.psql("CREATE DATABASE plain")
        yield server
    finally:
        server.stop()


def export(tmp_path, *args, env_extra=None):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1",
        "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"),
        **(env_extra or {}),
    }
    return subprocess.run([authsh_binary(), "user", "export", "--provider", "supabase", *args], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


def records(done):
    return {r["id"]: r for r in (json.loads(line) for line in done.stdout.splitlines())}


def test_bcrypt_hashes_from_pgcrypto_come_out_as_password_hash(database, tmp_path):
    url = database.url()
    done = export(tmp_path, "--db", url)
    assert done.returncode == 0, done.stderr
    got = records(done)
    # The soft-deleted account stays behind; the others come out whole.
    assert set(got) == {ADA, BOB, CAT}
    hashes = dict(line.split("|") for line in database.psql(
        "SELECT id, encrypted_password FROM auth.users WHERE encrypted_password IS NOT NULL").splitlines())
    ada, bob, cat = got[ADA], got[BOB], got[CAT]
    assert ada["password_hash"] == hashes[ADA] and ada["password_hash"].startswith("$2a$06$")
    assert bob["password_hash"] == hashes[BOB] and bob["password_hash"].startswith("$2a$04$")
    assert cat["password_hash"] is None and cat["password_note"] is None
    assert ada["email"] == "ada@example.com" and ada["email_verified"] is True and ada["source"] == "supabase"
    assert ada["display_name"] == "Ada Lovelace" and ada["user_metadata"] == {"full_name": "Ada Lovelace", "plan": "pro"}
    assert ada["app_metadata"] == {"role": "admin"} and ada["providers"] == ["email"]
    assert ada["created_at"] == "2024-01-01T00:00:00.000000Z" and ada["last_sign_in_at"] == "2024-02-01T10:00:00.000000Z"
    # Factors without their secrets, and only the ones in effect.
    assert ada["factors"] == [{"id": "55555555-5555-4555-8555-555555555555", "type": "totp", "friendly_name": "phone app"}]
    assert TOTP_SECRET not in done.stdout
    assert bob["phone"] == "15551234567" and bob["disabled"] is True and bob["banned_until"].startswith("2999-01-01")
    assert bob["providers"] == ["email", "google"]
    assert {"provider": "google", "id": "g-123", "email": "Bob@Example.com"} in bob["identities"]
    assert cat["identities"] == [{"provider": "github", "id": "gh-9", "email": "cat@other.example"}]
    # Said once on standard error: hashes inside; the count at the end.
    assert done.stderr.count("password hashes") == 1
    assert "Exported 3 accounts (2 with a password hash)." in done.stderr
    assert SUPERUSER_PASSWORD not in done.stdout + done.stderr


def test_a_read_only_role_exports_and_the_read_changes_nothing(database, tmp_path):
    before = database.psql("SELECT n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables WHERE schemaname = 'auth' "
                           "ORDER BY relname")
    done = export(tmp_path, "--db", database.url(user="exporter", password=EXPORTER_PASSWORD), "--verbose")
    assert done.returncode == 0, done.stderr
    assert len(records(done)) == 3
    assert EXPORTER_PASSWORD not in done.stdout + done.stderr
    statements = database.statements_by("exporter")
    # Everything ran inside one read-only transaction, and nothing but reads was sent.
    assert statements[0] == "START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"
    assert statements[-1] == "COMMIT"
    for statement in statements[1:-1]:
        assert statement.lstrip().upper().startswith("SELECT"), statement
    after = database.psql("SELECT n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables WHERE schemaname = 'auth' "
                          "ORDER BY relname")
    assert before == after


def test_filter_and_formats_from_the_database(database, tmp_path):
    url = database.url()
    done = export(tmp_path, "--db", url, "--filter", "EXAMPLE.COM")
    assert done.returncode == 0, done.stderr
    assert set(records(done)) == {ADA, BOB}
    csv_done = export(tmp_path, "--db", url, "--format", "csv", "--filter", "ada")
    lines = csv_done.stdout.splitlines()
    assert lines[0].startswith("id,email,email_verified,phone,display_name,")
    assert len(lines) == 2 and lines[1].startswith(f"{ADA},ada@example.com,true,,Ada Lovelace,false,")
    firebase = json.loads(export(tmp_path, "--db", url, "--format", "firebase", "--filter", "bob").stdout)
    [bob] = firebase["users"]
    hashes = dict(line.split("|") for line in database.psql("SELECT id, encrypted_password FROM auth.users").splitlines())
    import base64
    assert base64.b64decode(bob["passwordHash"]).decode() == hashes[BOB]
    assert bob["localId"] == BOB and bob["disabled"] is True and bob["createdAt"] == "1709251200000"
    assert {"providerId": "google.com", "rawId": "g-123", "email": "Bob@Example.com"} in bob["providerUserInfo"]


def test_wrong_password_is_a_clear_error_without_the_password(database, tmp_path):
    wrong = "not-the-Password-77"
    done = export(tmp_path, "--db", database.url(password=wrong))
    assert done.returncode == 1
    assert "refused the password of postgres" in done.stderr and "config_error" in done.stderr
    assert wrong not in done.stdout + done.stderr and done.stdout == ""


def test_closed_port_is_network_unreachable(database, tmp_path):
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    done = export(tmp_path, "--db", f"postgres://postgres:{SUPERUSER_PASSWORD}@127.0.0.1:{closed}/postgres?sslmode=disable")
    assert done.returncode == 3
    assert f"Could not connect to the database at 127.0.0.1:{closed}: connection refused" in done.stderr
    assert SUPERUSER_PASSWORD not in done.stdout + done.stderr


def test_tls_required_from_a_server_without_it_is_a_config_error(database, tmp_path):
    done = export(tmp_path, "--db", database.url().replace("sslmode=disable", "sslmode=require"))
    # Known before any query (the URL asks for what the server lacks): exit 78, as before libpq.
    assert done.returncode == 78
    assert "does not offer TLS, and the --db URL's sslmode requires it" in done.stderr and "config_error" in done.stderr
    assert SUPERUSER_PASSWORD not in done.stdout + done.stderr


def test_a_missing_database_is_named(database, tmp_path):
    done = export(tmp_path, "--db", database.url(database="nowhere"))
    assert done.returncode == 1
    assert "has no database named 'nowhere'" in done.stderr and "config_error" in done.stderr


def test_a_database_without_gotrue_schema_says_so(database, tmp_path):
    done = export(tmp_path, "--db", database.url(database="plain"))
    assert done.returncode == 1
    assert "has no auth.users table" in done.stderr and "Supabase project's database" in done.stderr
    assert SUPERUSER_PASSWORD not in done.stdout + done.stderr


def test_not_a_postgres_url_and_firebase_are_usage_errors(database, tmp_path):
    done = export(tmp_path, "--db", "mysql://root:hunter2@localhost/db")
    assert done.returncode == 64 and "postgres://" in done.stderr and "hunter2" not in done.stderr
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    done = subprocess.run([authsh_binary(), "user", "export", "--provider", "firebase", "--db", database.url()], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.returncode == 64 and "--provider supabase" in done.stderr
    assert SUPERUSER_PASSWORD not in done.stdout + done.stderr


def test_hashes_are_not_written_to_a_terminal_without_asking(database, tmp_path):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1", "TERM": "xterm"}
    args = ["user", "export", "--provider", "supabase", "--db", database.url(), "--filter", "ada"]
    screen = io.StringIO()
    child = pexpect.spawn(authsh_binary(), args, env=env, encoding="utf-8", timeout=60, dimensions=(40, 200))
    child.logfile_read = screen
    # A person at the terminal is asked first; "no" prints nothing.
    child.expect_exact("Print it here? [y/N] ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus != 0
    assert "would be printed on this terminal" in screen.getvalue() and "$2a$" not in screen.getvalue()
    screen = io.StringIO()
    child = pexpect.spawn(authsh_binary(), args + ["--yes"], env=env, encoding="utf-8", timeout=60, dimensions=(40, 200))
    child.logfile_read = screen
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "$2a$06$" in screen.getvalue() and SUPERUSER_PASSWORD not in screen.getvalue()


def test_thousands_of_accounts_come_in_pages_once_each(tmp_path):
    server = PostgresServer().start()
    try:
        server.install_gotrue_schema()
        server.psql("INSERT INTO auth.users (id, email, encrypted_password, created_at) "
                    "SELECT gen_random_uuid(), 'bulk' || n || '@example.com', '$2a$04$' || lpad(n::text, 53, 'x'), now() "
                    "FROM generate_series(1, 2500) AS n")
        done = export(tmp_path, "--db", server.url())
        statements = server.statements_by("postgres")
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    ids = [json.loads(line)["id"] for line in done.stdout.splitlines()]
    assert len(ids) == 2500 and len(set(ids)) == 2500
    assert "Exported 2500 accounts (2500 with a password hash)." in done.stderr
    # Three pages of at most 1,000 rows, each after the last id of the one before.
    pages = [s for s in statements if "FROM auth.users u" in s]
    assert len(pages) == 3 and all("LIMIT" in s for s in pages) and "u.id > $1::uuid" in pages[1]


def test_progress_goes_to_a_terminal_on_standard_error(database, tmp_path):
    out = tmp_path / "users.jsonl"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1", "TERM": "xterm",
           "LANG": "C.UTF-8"}  # a UTF-8 terminal: under the C locale "…" is "..."
    screen = io.StringIO()
    child = pexpect.spawn("/bin/sh", ["-c", f"exec '{authsh_binary()}' user export --provider supabase --db '{database.url()}' > '{out}'"],
                          env=env, encoding="utf-8", timeout=60, dimensions=(40, 200))
    child.logfile_read = screen
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    drawn = screen.getvalue()
    assert "Exported 3 accounts…" in drawn and "\x1b[K" in drawn
    assert drawn.rstrip().endswith("Exported 3 accounts (2 with a password hash).")
    assert "$2a$" not in drawn and SUPERUSER_PASSWORD not in drawn
    assert len(out.read_text().splitlines()) == 3


def test_interrupting_a_blocked_read_cancels_it_on_the_server(database, tmp_path):
    import signal
    import time
    # Another session holds auth.users, so the export's first page waits on the lock; SIGINT
    # (Ctrl-C) must reach the server (PQcancel) and end the command at once, not after the
    # three seconds authsh gives a command that does not stop.
    env = dict(os.environ, PGPASSWORD=SUPERUSER_PASSWORD)
    holder = subprocess.Popen([str(database.bin / "psql"), "-h", "127.0.0.1", "-p", str(database.port), "-U", "postgres",
                               "-qAt", "-c", "BEGIN; LOCK TABLE auth.users IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60);"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    waiting = ("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'authsh' "
               "AND wait_event_type = 'Lock'")
    try:
        deadline = time.monotonic() + 30
        while database.psql("SELECT count(*) FROM pg_locks WHERE relation = 'auth.users'::regclass "
                            "AND mode = 'AccessExclusiveLock' AND granted") != "1":
            assert time.monotonic() < deadline, "the lock was never taken"
            time.sleep(0.1)
        child = subprocess.Popen([authsh_binary(), "user", "export", "--provider", "supabase", "--db", database.url()],
                                 env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1"},
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while database.psql(waiting) != "1":
            assert time.monotonic() < deadline and child.poll() is None, "the export never waited on the lock"
            time.sleep(0.1)
        started = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
        elapsed = time.monotonic() - started
        assert child.returncode == 130 and "Cancelled." in err
        assert elapsed < 2.5, f"took {elapsed:.1f}s: the read was not cancelled"
        assert out == "" and SUPERUSER_PASSWORD not in err
        assert database.psql(waiting) == "0"
        assert "canceling statement due to user request" in database.log.read_text(errors="replace")
    finally:
        holder.terminate()
        holder.wait(timeout=30)
