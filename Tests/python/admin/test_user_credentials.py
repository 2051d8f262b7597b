"""Firebase admin commands with Application Default Credentials of a user (`gcloud auth
application-default login` writes an `authorized_user` file: a refresh-token grant) and with an
`impersonated_service_account` file, end to end: a local OAuth token endpoint that verifies the
grant (and a local IAM Credentials endpoint), `authsh` against the emulator with
FIREBASE_AUTH_EMULATOR_HOST and GOOGLE_APPLICATION_CREDENTIALS. Same caching and redaction as a
service-account key."""
import json
import os
import subprocess
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from conftest import authsh_binary

CLIENT_ID = "764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com"
CLIENT_SECRET = "d-FL95Q19q7MQmFpd7hHD0Ty-test-secret"
REFRESH_TOKEN = "1//0gUserRefreshTokenForAuthshTests-secret"
USER_TOKEN = "ya29.user-access-token-for-authsh-tests"
TARGET = "authsh-admin@demo-authsh.iam.gserviceaccount.com"
IMPERSONATED_TOKEN = "ya29.impersonated-access-token-for-authsh-tests"
ACCOUNTS = ["ada@x.io", "bob@x.io", "cy@x.io"]


class Google:
    """oauth2.googleapis.com/token (refresh-token grant only) and iamcredentials'
    generateAccessToken, checking every field they receive."""

    def __init__(self):
        self.grants = 0
        self.impersonations = 0
        self.problems = []
        google = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                if self.path == "/token":
                    status, answer = google.grant(self.headers.get("Content-Type"), body)
                else:
                    status, answer = google.impersonate(self.path, self.headers.get("Authorization"), body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def grant(self, content_type, body):
        self.grants += 1
        form = dict(urllib.parse.parse_qsl(body))
        expected = {"grant_type": "refresh_token", "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
                    "refresh_token": REFRESH_TOKEN}
        if content_type != "application/x-www-form-urlencoded" or form != expected:
            self.problems.append(f"grant {content_type} {sorted(form)}")
            return 400, {"error": "invalid_grant", "error_description": "Bad Request"}
        return 200, {"access_token": USER_TOKEN, "expires_in": 3599, "token_type": "Bearer",
                     "scope": "https://www.googleapis.com/auth/cloud-platform openid"}

    def impersonate(self, path, authorization, body):
        self.impersonations += 1
        payload = json.loads(body or "{}")
        if path != f"/v1/projects/-/serviceAccounts/{TARGET}:generateAccessToken" or authorization != f"Bearer {USER_TOKEN}" \
                or payload.get("lifetime") != "3600s" or "https://www.googleapis.com/auth/cloud-platform" not in payload.get("scope", []):
            self.problems.append(f"impersonate {path} {authorization} {payload}")
            return 403, {"error": {"code": 403, "message": "Permission denied", "status": "PERMISSION_DENIED"}}
        expiry = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
        return 200, {"accessToken": IMPERSONATED_TOKEN, "expireTime": expiry}

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def google():
    endpoint = Google()
    yield endpoint
    endpoint.stop()


def user_credentials(google):
    return {"type": "authorized_user", "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
            "refresh_token": REFRESH_TOKEN, "quota_project_id": "demo-authsh", "token_uri": f"{google.base}/token",
            "universe_domain": "googleapis.com"}


def write_private(path, document):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    path.chmod(0o600)
    return path


@pytest.fixture
def run(emulator, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    for email in ACCOUNTS:
        r = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signUp",
                          params={"key": emulator.api_key}, timeout=10,
                          json={"email": email, "password": "correct-horse-1", "returnSecureToken": True})
        assert r.status_code == 200, r.text

    def go(credentials_file, *args, stdin=None):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
            "FIREBASE_AUTH_EMULATOR_HOST": emulator.host, "FIREBASE_API_KEY": emulator.api_key,
            "FIREBASE_PROJECT_ID": emulator.project, "GOOGLE_APPLICATION_CREDENTIALS": str(credentials_file),
        }
        return subprocess.run([authsh_binary(), *args], env=env, input=stdin, capture_output=True, text=True,
                              timeout=60, stdin=None if stdin is not None else subprocess.DEVNULL)

    go.home = home
    return go


def test_authorized_user_one_refresh_grant_for_many_lookups(run, google, tmp_path):
    adc = write_private(tmp_path / "gcloud" / "application_default_credentials.json", user_credentials(google))
    done = run(adc, "user", "show", *ACCOUNTS, "--json", "--verbose")
    assert done.returncode == 0, done.stderr
    found = [lookup["user"]["email"] for lookup in json.loads(done.stdout)["users"] if lookup["ok"]]
    assert found == ACCOUNTS
    assert google.problems == [] and google.grants == 1
    assert f"> POST {google.base}/token" in done.stderr
    for secret in (CLIENT_SECRET, REFRESH_TOKEN, USER_TOKEN):
        assert secret not in done.stdout and secret not in done.stderr
    for root, _, files in os.walk(run.home):
        for name in files:
            text = open(os.path.join(root, name), "rb").read().decode("utf-8", "replace")
            for secret in (CLIENT_SECRET, REFRESH_TOKEN, USER_TOKEN):
                assert secret not in text, name


def test_revoked_user_credentials_say_log_in_again(run, google, tmp_path):
    document = user_credentials(google)
    document["refresh_token"] = "1//0gRevokedRefreshToken"
    adc = write_private(tmp_path / "adc.json", document)
    done = run(adc, "user", "list")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "gcloud auth application-default login" in done.stderr and str(adc) in done.stderr
    assert "1//0gRevokedRefreshToken" not in done.stderr


def test_user_credentials_readable_by_others_are_refused(run, google, tmp_path):
    adc = write_private(tmp_path / "adc.json", user_credentials(google))
    adc.chmod(0o644)
    done = run(adc, "user", "list")
    assert done.returncode == 78 and "chmod 600" in done.stderr
    assert google.grants == 0


def test_impersonated_service_account(run, google, tmp_path):
    document = {
        "type": "impersonated_service_account", "delegates": [],
        "service_account_impersonation_url": f"{google.base}/v1/projects/-/serviceAccounts/{TARGET}:generateAccessToken",
        "source_credentials": user_credentials(google)}
    path = write_private(tmp_path / "impersonate.json", document)
    done = run(path, "user", "show", *ACCOUNTS, "--json")
    assert done.returncode == 0, done.stderr
    assert [lookup["ok"] for lookup in json.loads(done.stdout)["users"]] == [True, True, True]
    assert google.problems == [] and google.grants == 1 and google.impersonations == 1
    for secret in (CLIENT_SECRET, REFRESH_TOKEN, USER_TOKEN, IMPERSONATED_TOKEN):
        assert secret not in done.stdout and secret not in done.stderr
