"""A throwaway PostgreSQL server (Debian's postgresql packages) with GoTrue's auth schema, for
`user export --db`. initdb refuses to run as root: when the tests run as root the cluster runs as
the unprivileged user that scripts/test-unprivileged.sh uses (AUTHSH_TEST_USER, default
authsh-test), created here when missing."""
import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SUPERUSER_PASSWORD = "pg-super-9f2c7e"
EXPORTER_PASSWORD = "exp0rt-s3cret-4b1d"

# GoTrue's auth schema as supabase/auth's migrations leave it (names and types of the columns
# authsh reads, and the rest of auth.users so the table looks like the real one).
GOTRUE_SCHEMA = """
CREATE EXTENSION IF NOT EXISTS pgcrypto;
CREATE SCHEMA auth;
CREATE TYPE auth.factor_type AS ENUM ('totp', 'webauthn', 'phone');
CREATE TYPE auth.factor_status AS ENUM ('unverified', 'verified');
CREATE TABLE auth.users (
  instance_id uuid NULL,
  id uuid NOT NULL PRIMARY KEY,
  aud varchar(255) NULL,
  role varchar(255) NULL,
  email varchar(255) NULL,
  encrypted_password varchar(255) NULL,
  email_confirmed_at timestamptz NULL,
  invited_at timestamptz NULL,
  confirmation_token varchar(255) NULL,
  confirmation_sent_at timestamptz NULL,
  recovery_token varchar(255) NULL,
  recovery_sent_at timestamptz NULL,
  email_change_token_new varchar(255) NULL,
  email_change varchar(255) NULL,
  email_change_sent_at timestamptz NULL,
  last_sign_in_at timestamptz NULL,
  raw_app_meta_data jsonb NULL,
  raw_user_meta_data jsonb NULL,
  is_super_admin bool NULL,
  created_at timestamptz NULL,
  updated_at timestamptz NULL,
  phone text NULL UNIQUE DEFAULT NULL,
  phone_confirmed_at timestamptz NULL,
  phone_change text NULL DEFAULT '',
  phone_change_token varchar(255) NULL DEFAULT '',
  phone_change_sent_at timestamptz NULL,
  confirmed_at timestamptz GENERATED ALWAYS AS (LEAST(email_confirmed_at, phone_confirmed_at)) STORED,
  email_change_token_current varchar(255) NULL DEFAULT '',
  email_change_confirm_status smallint NULL DEFAULT 0,
  banned_until timestamptz NULL,
  reauthentication_token varchar(255) NULL DEFAULT '',
  reauthentication_sent_at timestamptz NULL,
  is_sso_user boolean NOT NULL DEFAULT false,
  deleted_at timestamptz NULL,
  is_anonymous boolean NOT NULL DEFAULT false
);
CREATE TABLE auth.identities (
  provider_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  identity_data jsonb NOT NULL,
  provider text NOT NULL,
  last_sign_in_at timestamptz NULL,
  created_at timestamptz NULL,
  updated_at timestamptz NULL,
  email text GENERATED ALWAYS AS (lower(identity_data->>'email')) STORED,
  id uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  CONSTRAINT identities_provider_id_provider_unique UNIQUE (provider_id, provider)
);
CREATE TABLE auth.mfa_factors (
  id uuid NOT NULL PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  friendly_name text NULL,
  factor_type auth.factor_type NOT NULL,
  status auth.factor_status NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  secret text NULL,
  phone text NULL,
  last_challenged_at timestamptz NULL,
  web_authn_credential jsonb NULL,
  web_authn_aaguid uuid NULL
);
"""


def postgres_bin() -> Path:
    """The newest installed server's bin directory (Debian: /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not found:
        raise RuntimeError("PostgreSQL server not installed (scripts/setup.sh installs Debian's postgresql)")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """initdb + pg_ctl in a temporary directory on a free loopback port; password (SCRAM)
    authentication; every statement logged (log_statement = all, with the role's name)."""

    def __init__(self):
        self.bin = postgres_bin()
        self.port = _free_port()
        self.run_as = None
        if os.geteuid() == 0:
            self.run_as = os.environ.get("AUTHSH_TEST_USER", "authsh-test")
            try:
                pwd.getpwnam(self.run_as)
            except KeyError:
                subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", self.run_as], check=True)
        self.dir = Path(tempfile.mkdtemp(prefix="authsh-pg-"))
        if self.run_as:
            entry = pwd.getpwnam(self.run_as)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"

    def _as_owner(self, args):
        return (["runuser", "-u", self.run_as, "--"] if self.run_as else []) + [str(a) for a in args]

    def start(self):
        pwfile = self.dir / "pw"
        pwfile.write_text(SUPERUSER_PASSWORD + "\n")
        if self.run_as:
            entry = pwd.getpwnam(self.run_as)
            os.chown(pwfile, entry.pw_uid, entry.pw_gid)
        subprocess.run(self._as_owner([self.bin / "initdb", "-D", self.data, "-U", "postgres", "--auth=scram-sha-256",
                                       f"--pwfile={pwfile}", "-E", "UTF8", "--no-sync"]),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        pwfile.unlink()
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c log_statement=all "
                   f"-c log_line_prefix='%u ' -c fsync=off")
        subprocess.run(self._as_owner([self.bin / "pg_ctl", "-D", self.data, "-o", options, "-l", self.log, "-w", "-t", "60",
                                       "start"]), check=True, stdout=subprocess.DEVNULL)
        return self

    def stop(self):
        subprocess.run(self._as_owner([self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, user="postgres", password=SUPERUSER_PASSWORD, database="postgres") -> str:
        return f"postgres://{user}:{password}@127.0.0.1:{self.port}/{database}?sslmode=disable"

    def psql(self, sql: str, database="postgres") -> str:
        """Runs SQL as the superuser over TCP; the output unaligned, tuples only."""
        env = dict(os.environ, PGPASSWORD=SUPERUSER_PASSWORD)
        result = subprocess.run([str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                                 "-d", database, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql],
                                env=env, capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"psql failed: {result.stderr}")
        return result.stdout.strip()

    def statements_by(self, role: str) -> list:
        """The statements the server logged for a role (log_line_prefix is the role's name)."""
        lines = []
        pattern = re.compile(r"^" + re.escape(role) + r" LOG:\s+(?:statement|execute [^:]*): (.*)$")
        for line in self.log.read_text(errors="replace").splitlines():
            match = pattern.match(line)
            if match:
                lines.append(match.group(1))
        return lines

    def install_gotrue_schema(self, database="postgres"):
        self.psql(GOTRUE_SCHEMA, database)
        # A role that may read the auth schema, and nothing else (how ops give tools access).
        self.psql(f"CREATE ROLE exporter LOGIN PASSWORD '{EXPORTER_PASSWORD}'; "
                  "GRANT USAGE ON SCHEMA auth TO exporter; GRANT SELECT ON ALL TABLES IN SCHEMA auth TO exporter;",
                  database)
