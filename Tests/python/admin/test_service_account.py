"""Firebase admin credentials end to end: a service-account JSON (0600) whose token_uri is a local
OAuth token endpoint that verifies the RS256 assertion with the account's public key (generated
here with `cryptography`), counts exchanges and hands out `ya29.` tokens; `authsh` runs admin
commands against the emulator with FIREBASE_AUTH_EMULATOR_HOST and GOOGLE_APPLICATION_CREDENTIALS."""
import base64
import json
import os
import stat
import subprocess
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from conftest import authsh_binary

EMAIL = "authsh-support@demo-authsh.iam.gserviceaccount.com"
KEY_ID = "3c8f0a6e2b9d4f71a5e0c7b6d2f1e9a8c4b3d0e1"
SCOPE = "https://www.googleapis.com/auth/identitytoolkit https://www.googleapis.com/auth/cloud-platform"
ACCESS_TOKEN = "ya29.test-c0ffee-access-token-for-authsh-e2e"
ACCOUNTS = ["ada@x.io", "bob@x.io", "cy@x.io"]


def b64url_decode(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


class TokenEndpoint:
    """Google's token endpoint, as far as the JWT-bearer grant goes."""

    def __init__(self, public_key):
        self.public_key = public_key
        self.exchanges = 0
        self.problems = []
        self.assertions = []
        self.refusal = None  # (status, body) to answer every exchange with
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                status, answer = endpoint.exchange(self.path, self.headers.get("Content-Type"), body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def uri(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/token"

    def exchange(self, path, content_type, body):
        self.exchanges += 1
        form = dict(urllib.parse.parse_qsl(body))
        assertion = form.get("assertion", "")
        self.assertions.append(assertion)
        problems = []
        if path != "/token":
            problems.append(f"path {path}")
        if content_type != "application/x-www-form-urlencoded":
            problems.append(f"content type {content_type}")
        if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            problems.append("grant_type")
        problems += self.check(assertion)
        self.problems += problems
        if problems:
            return 400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."}
        if self.refusal:
            return self.refusal
        return 200, {"access_token": ACCESS_TOKEN, "expires_in": 3599, "token_type": "Bearer"}

    def check(self, assertion):
        try:
            header_part, claims_part, signature_part = assertion.split(".")
            header = json.loads(b64url_decode(header_part))
            claims = json.loads(b64url_decode(claims_part))
            self.public_key.verify(b64url_decode(signature_part), f"{header_part}.{claims_part}".encode(),
                                   padding.PKCS1v15(), hashes.SHA256())
        except (ValueError, InvalidSignature) as error:
            return [f"assertion: {error!r}"]
        problems = []
        if header != {"alg": "RS256", "typ": "JWT", "kid": KEY_ID}:
            problems.append(f"header {header}")
        if claims.get("iss") != EMAIL or claims.get("aud") != self.uri or claims.get("scope") != SCOPE:
            problems.append(f"claims {claims}")
        now = time.time()
        iat, exp = claims.get("iat", 0), claims.get("exp", 0)
        if not (abs(iat - now) < 300 and 0 < exp - iat <= 3600):
            problems.append(f"iat/exp {iat}/{exp}")
        return problems

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service_account(tmp_path):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    endpoint = TokenEndpoint(key.public_key())
    path = tmp_path / "keys" / "demo-authsh.json"
    path.parent.mkdir()
    path.write_text(json.dumps({
        "type": "service_account", "project_id": "demo-authsh", "private_key_id": KEY_ID,
        "private_key": pem, "client_email": EMAIL, "client_id": "109876543210987654321",
        "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": endpoint.uri,
        "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
        "universe_domain": "googleapis.com"}))
    path.chmod(0o600)
    endpoint.path = path
    endpoint.pem = pem
    yield endpoint
    endpoint.stop()


@pytest.fixture
def run(emulator, service_account, tmp_path):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "home" / "config"),
        "XDG_STATE_HOME": str(tmp_path / "home" / "state"),
        "FIREBASE_AUTH_EMULATOR_HOST": emulator.host,
        "FIREBASE_API_KEY": emulator.api_key,
        "FIREBASE_PROJECT_ID": emulator.project,
        "GOOGLE_APPLICATION_CREDENTIALS": str(service_account.path),
    }
    (tmp_path / "home").mkdir()
    for email in ACCOUNTS:
        r = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signUp",
                          params={"key": emulator.api_key}, timeout=10,
                          json={"email": email, "password": "correct-horse-1", "returnSecureToken": True})
        assert r.status_code == 200, r.text

    def go(*args, stdin=None):
        return subprocess.run([authsh_binary(), *args], env=env, input=stdin, capture_output=True, text=True,
                              timeout=60, stdin=None if stdin is not None else subprocess.DEVNULL)

    go.env = env
    return go


def test_one_exchange_for_many_commands_in_one_process(run, service_account):
    done = run("user", "show", *ACCOUNTS, "--json")
    assert done.returncode == 0, done.stderr
    for email in ACCOUNTS:
        assert email in done.stdout
    assert service_account.problems == []
    assert service_account.exchanges == 1

    # A piped shell: several admin commands, still one exchange for the process.
    script = "".join(f"user show {email}\n" for email in ACCOUNTS) + "user list\n"
    done = run(stdin=script)
    assert done.returncode == 0, done.stderr
    assert all(email in done.stdout for email in ACCOUNTS)
    assert service_account.problems == []
    assert service_account.exchanges == 2


def test_revoked_key_is_a_clear_error_with_exit_1(run, service_account):
    service_account.refusal = (400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
    done = run("user", "list")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert EMAIL in done.stderr and "revoked" in done.stderr
    assert "Traceback" not in done.stderr and "Fatal" not in done.stderr
    assert service_account.problems == [] and service_account.exchanges == 1


def test_clock_skew_says_check_the_clock(run, service_account):
    service_account.refusal = (400, {
        "error": "invalid_grant",
        "error_description": "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable "
                             "timeframe. Check your iat and exp values in the JWT claim."})
    done = run("user", "list")
    assert done.returncode == 1
    assert "clock" in done.stderr and EMAIL in done.stderr


def test_group_readable_file_is_refused_before_anything_is_sent(run, service_account):
    service_account.path.chmod(0o644)
    done = run("user", "list")
    assert done.returncode == 78, (done.stdout, done.stderr)
    assert str(service_account.path) in done.stderr and "chmod 600" in done.stderr
    assert service_account.exchanges == 0


def test_secrets_never_appear_in_output_or_files(run, service_account, tmp_path):
    script = "".join(f"user show {email} --verbose\n" for email in ACCOUNTS)
    script += "user disable cy@x.io --yes --verbose\nuser list --verbose\n"
    outputs = []
    done = run(stdin=script)
    outputs += [done.stdout, done.stderr]
    done = run("user", "show", "ada@x.io", "--verbose", "--json")
    outputs += [done.stdout, done.stderr]
    assert service_account.exchanges == 2 and service_account.problems == []
    for stderr in (outputs[1], outputs[3]):
        assert "> POST " + service_account.uri in stderr, "the verbose trace shows the exchange"
        assert "assertion=***" in stderr

    secrets = [ACCESS_TOKEN, *service_account.assertions]
    secrets += [part for assertion in service_account.assertions for part in assertion.split(".")[1:]]
    body_lines = [line for line in service_account.pem.splitlines() if line and not line.startswith("-----")]
    secrets += body_lines + ["".join(body_lines)]
    written = []
    for root, _, files in os.walk(tmp_path / "home"):
        for name in files:
            written.append((os.path.join(root, name), open(os.path.join(root, name), "rb").read().decode("utf-8", "replace")))
    for secret in secrets:
        for text in outputs:
            assert secret not in text
        for path, text in written:
            assert secret not in text, path
