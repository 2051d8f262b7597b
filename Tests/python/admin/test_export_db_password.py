"""`user export --db` takes its password the ways libpq and psql do (issue 37), so it need not sit
in the process list: PGPASSWORD, ~/.pgpass, a pg_service.conf service (PGSERVICE or `service=`),
or the whole URL from a variable with --db-env; a URL with a password on the command line still
works and is warned about. Against a real PostgreSQL with GoTrue's schema."""
import os
import subprocess

import pytest

from conftest import authsh_binary
from postgres import EXPORTER_PASSWORD, PostgresServer

ADA = "11111111-1111-4111-8111-111111111111"
WARNING = "the --db URL holds a password, which other users of this machine can read in the process list"


@pytest.fixture(scope="module")
def database():
    server = PostgresServer().start()
    try:
        server.install_gotrue_schema()
        server.psql("INSERT INTO auth.users (id, aud, role, email, encrypted_password, created_at, updated_at) VALUES "
                    f"('{ADA}', 'authenticated', 'authenticated', 'ada@example.com', crypt('pw-1', gen_salt('bf', 4)), "
                    "now(), now())")
        yield server
    finally:
        server.stop()


def export(tmp_path, *args, **env_extra):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1",
        "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"), **env_extra,
    }
    return subprocess.run([authsh_binary(), "user", "export", "--provider", "supabase", *args], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


def exported(done):
    assert done.returncode == 0, done.stderr
    assert ADA in done.stdout and "$2a$04$" in done.stdout
    assert EXPORTER_PASSWORD not in done.stdout + done.stderr


def bare_url(database):
    return f"postgres://exporter@127.0.0.1:{database.port}/postgres?sslmode=disable"


def test_a_password_in_argv_works_and_is_warned_about(database, tmp_path):
    done = export(tmp_path, "--db", database.url(user="exporter", password=EXPORTER_PASSWORD))
    exported(done)
    assert WARNING in done.stderr and "PGPASSWORD" in done.stderr and "--db-env VAR" in done.stderr


def test_pgpassword(database, tmp_path):
    done = export(tmp_path, "--db", bare_url(database), PGPASSWORD=EXPORTER_PASSWORD)
    exported(done)
    assert WARNING not in done.stderr


def test_pgpass_file(database, tmp_path):
    pgpass = tmp_path / ".pgpass"
    pgpass.write_text(f"127.0.0.1:{database.port}:postgres:exporter:{EXPORTER_PASSWORD}\n")
    pgpass.chmod(0o600)
    done = export(tmp_path, "--db", bare_url(database))
    exported(done)
    assert WARNING not in done.stderr


@pytest.mark.parametrize("how", ["PGSERVICE", "service="])
def test_a_service_of_pg_service_conf(database, tmp_path, how):
    services = tmp_path / "pg_service.conf"
    services.write_text(f"[authsh-test]\nhost=127.0.0.1\nport={database.port}\nuser=exporter\ndbname=postgres\n"
                        f"sslmode=disable\npassword={EXPORTER_PASSWORD}\n")
    services.chmod(0o600)
    if how == "PGSERVICE":
        done = export(tmp_path, "--db", "postgresql://", PGSERVICEFILE=str(services), PGSERVICE="authsh-test")
    else:
        done = export(tmp_path, "--db", "postgresql://?service=authsh-test", PGSERVICEFILE=str(services))
    exported(done)
    assert WARNING not in done.stderr


def test_db_env_reads_the_url_from_a_variable(database, tmp_path):
    url = database.url(user="exporter", password=EXPORTER_PASSWORD)
    done = export(tmp_path, "--db-env", "EXPORT_DB_URL", EXPORT_DB_URL=url)
    exported(done)
    assert WARNING not in done.stderr
    unset = export(tmp_path, "--db-env", "NOT_SET_HERE")
    assert unset.returncode == 64 and "Environment variable NOT_SET_HERE is not set (--db-env)." in unset.stderr
    both = export(tmp_path, "--db-env", "EXPORT_DB_URL", "--db", bare_url(database), EXPORT_DB_URL=url)
    assert both.returncode == 64 and "not both" in both.stderr


def test_no_password_anywhere_says_where_one_can_go(database, tmp_path):
    done = export(tmp_path, "--db", bare_url(database))
    assert done.returncode == 78, done.stderr  # config_error
    assert "neither the --db URL, PGPASSWORD nor ~/.pgpass has one" in done.stderr
    assert "--db-env VAR" in done.stderr
