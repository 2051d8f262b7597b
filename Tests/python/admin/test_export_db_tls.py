"""`user export --db` over TLS: a real PostgreSQL with ssl on (a self-signed certificate for
127.0.0.1 made here). The URL's sslmode is libpq's: `require` encrypts without checking the
certificate; `verify-full` refuses one it cannot trust and accepts it once SSL_CERT_FILE names it;
`disable` stays in plain text."""
import os
import pwd
import subprocess

import pytest

from certificates import self_signed
from conftest import authsh_binary
from postgres import SUPERUSER_PASSWORD, PostgresServer

ADA = "11111111-1111-4111-8111-111111111111"


def server_certificate(directory, owner):
    """The server's certificate and key, owned by the server's user when it runs as one."""
    cert, private = self_signed(directory, "authsh postgres test", "server.crt", "server.key")
    if owner:
        entry = pwd.getpwnam(owner)
        for path in (cert, private):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    return cert, private


@pytest.fixture(scope="module")
def tls_database():
    server = PostgresServer().start()
    try:
        server.install_gotrue_schema()
        server.psql(f"INSERT INTO auth.users (id, email, encrypted_password, created_at) "
                    f"VALUES ('{ADA}', 'ada@example.com', '$2a$04$abcdefghijklmnopqrstuv', now())")
        cert, key = server_certificate(server.dir, server.run_as)
        server.psql("ALTER SYSTEM SET ssl = on")
        server.psql(f"ALTER SYSTEM SET ssl_cert_file = '{cert}'")
        server.psql(f"ALTER SYSTEM SET ssl_key_file = '{key}'")
        server.psql("ALTER SYSTEM SET log_connections = on")
        server.psql("SELECT pg_reload_conf()")
        server.cert = cert
        yield server
    finally:
        server.stop()


def export(tmp_path, url, **extra):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1", **extra}
    return subprocess.run([authsh_binary(), "user", "export", "--provider", "supabase", "--db", url], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


def last_connection(server):
    lines = [line for line in server.log.read_text(errors="replace").splitlines() if "connection authorized" in line]
    return lines[-1]


def test_require_encrypts_without_checking_the_certificate(tls_database, tmp_path):
    done = export(tmp_path, tls_database.url().replace("sslmode=disable", "sslmode=require"))
    assert done.returncode == 0, done.stderr
    assert ADA in done.stdout
    assert "SSL enabled" in last_connection(tls_database)
    plain = export(tmp_path, tls_database.url())
    assert plain.returncode == 0, plain.stderr
    assert "SSL enabled" not in last_connection(tls_database)


def test_verify_full_refuses_an_untrusted_certificate_and_trusts_ssl_cert_file(tls_database, tmp_path):
    url = tls_database.url().replace("sslmode=disable", "sslmode=verify-full")
    refused = export(tmp_path, url)
    assert refused.returncode == 3, refused.stderr
    assert f"No trusted TLS connection to the database at 127.0.0.1:{tls_database.port}" in refused.stderr
    assert refused.stdout == "" and SUPERUSER_PASSWORD not in refused.stderr
    assert "set SSL_CERT_FILE" in refused.stderr
    trusted = export(tmp_path, url, SSL_CERT_FILE=str(tls_database.cert))
    assert trusted.returncode == 0, trusted.stderr
    assert ADA in trusted.stdout and "SSL enabled" in last_connection(tls_database)
