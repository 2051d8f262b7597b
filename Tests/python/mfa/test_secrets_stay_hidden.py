"""A TOTP secret appears only where a person enrols (issue 37): off a terminal (a pipe, as in CI)
and in `--json` the secret, the URI's `secret=` and the QR drawing are `***` unless --show-tokens;
`--verbose` traces mask the enrolment secret, one-time codes and pending second steps on both
backends. authsh talks to the emulator through a recording proxy, so the test knows every secret
value the wire carried and greps stdout and stderr of every run for them."""
import json
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from conftest import ROOT, authsh_binary, start_emulator, user_env

PASSWORD = "correct-horse-1"
# Fields whose string values are secrets on either wire (requests and answers).
SECRET_FIELDS = {"secret", "sharedSecretKey", "qr_code", "uri", "mfaPendingCredential", "verificationCode", "code",
                 "sessionInfo", "totpSessionInfo", "signerKey", "saltSeparator"}
QR_BLOCKS = ("█", "▀", "▄")


class RecordingProxy:
    """Forwards every request to `target` and keeps the JSON bodies both ways."""

    def __init__(self, target):
        self.bodies = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
                answer = requests.request(self.command, target + self.path, headers=headers, data=body, timeout=30)
                for raw in (body, answer.content):
                    try:
                        proxy.bodies.append(json.loads(raw or b""))
                    except ValueError:
                        pass
                self.send_response(answer.status_code)
                for name, value in answer.headers.items():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def host(self):
        return f"127.0.0.1:{self.server.server_address[1]}"

    def secrets(self):
        """Every string value of a secret field the wire carried (4 characters and more)."""
        found = set()

        def walk(value):
            if isinstance(value, dict):
                for key, item in value.items():
                    if key in SECRET_FIELDS and isinstance(item, str) and len(item) >= 4:
                        found.add(item)
                    else:
                        walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        for body in self.bodies:
            walk(body)
        return found

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def wire():
    emu = start_emulator("--seed", str(ROOT / "examples" / "accounts.jsonl"))
    proxy = RecordingProxy(emu.base)
    yield emu, proxy
    proxy.stop()
    emu.stop()


def environment(home, emu, proxy, provider):
    env = user_env(home, emu, provider, PW=PASSWORD)
    if provider == "supabase":
        env["SUPABASE_URL"] = f"http://{proxy.host}"
    else:
        env["FIREBASE_AUTH_EMULATOR_HOST"] = proxy.host
    return env


def authsh(env, *args, **extra):
    # stdin and stdout are pipes: no terminal here, as in CI.
    return subprocess.run([authsh_binary(), *args], env={**env, **extra}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("provider", ["supabase", "firebase"])
def test_totp_secrets_codes_and_pending_credentials_never_leave_the_wire(tmp_path, wire, provider):
    emu, proxy = wire
    env = environment(tmp_path, emu, proxy, provider)
    runs = [authsh(env, "login", "ada@example.com", "--password-env", "PW", "--verbose")]
    assert runs[0].returncode == 0, runs[0].stderr

    piped = authsh(env, "mfa", "enroll", "--name", "piped", "--self-verify", "--verbose")
    assert piped.returncode == 0, piped.stderr
    assert "qr code ***" in piped.stdout and "secret  ***" in piped.stdout and "secret=***" in piped.stdout
    assert not any(block in piped.stdout + piped.stderr for block in QR_BLOCKS)
    runs.append(piped)

    as_json = authsh(env, "mfa", "enroll", "--name", "json", "--self-verify", "--json", "--verbose")
    assert as_json.returncode == 0, as_json.stderr
    enrollment = json.loads(as_json.stdout)["enrollment"]
    assert enrollment["secret"] == "***" and enrollment["qr_code"] == "***" and "secret=***" in enrollment["uri"]
    runs.append(as_json)

    shown = authsh(env, "mfa", "enroll", "--name", "shown", "--self-verify", "--json", "--show-tokens")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    revealed = json.loads(shown.stdout)["enrollment"]
    assert revealed["secret"] != "***" and isinstance(revealed["qr_code"], list)
    assert revealed["secret"] in proxy.secrets()  # the proxy saw what authsh was sent

    second = authsh(env, "login", "ada@example.com", "--password-env", "PW", "--factor", "shown",
                    "--totp-secret-env", "TOTP", "--verbose", "--json", TOTP=revealed["secret"])
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["session"]["aal"] == "aal2"
    runs.append(second)
    runs.append(authsh(env, "mfa", "list", "--verbose"))

    secrets = proxy.secrets() - {revealed["secret"]}
    assert len(secrets) >= 4, secrets  # two enrolments' secrets, their codes, the login's second step
    for run in runs:
        for secret in secrets:
            assert secret not in run.stdout + run.stderr, f"{secret[:12]}… leaked by {run.args[1:3]}"
    # What --show-tokens revealed stays masked in every run that did not ask for it.
    for run in runs:
        assert revealed["secret"] not in run.stdout + run.stderr


def test_user_export_verbose_masks_the_firebase_hash_keys(tmp_path, wire):
    emu, proxy = wire
    env = environment(tmp_path, emu, proxy, "firebase")
    config = requests.get(f"{emu.base}/identitytoolkit.googleapis.com/v2/projects/{emu.project}/config",
                          headers={"Authorization": "Bearer owner"}, timeout=10).json()
    keys = [config["signIn"]["hashConfig"][name] for name in ("signerKey", "saltSeparator")]
    done = authsh(env, "user", "export", "--verbose")
    assert done.returncode == 0, done.stderr
    assert "signerKey" in done.stderr  # the config was traced …
    for key in keys:
        assert key not in done.stderr  # … with its keys masked
