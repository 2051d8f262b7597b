"""authsh's side of second factors (issue 21): `login` finishing with an authenticator code from
--code / --code-env / --totp-secret-env (RFC 6238 computed by authsh), `mfa_required` without one,
`mfa_invalid_code`, `whoami`'s assurance level and factors, `mfa enroll|list|remove`, on both
backends and in both emulator modes, with pyotp as the reference for codes."""
import json
import subprocess
from urllib.parse import parse_qs, unquote, urlparse

import pyotp
import pytest

from conftest import ROOT, authsh_binary, start_emulator, user_env

SEED = ROOT / "examples" / "accounts.jsonl"
PASSWORD = "correct-horse-1"
SEEDED_SECRET = "JBSWY3DPEHPK3PXP"  # mfa@example.com's factor "phone" in examples/accounts.jsonl


@pytest.fixture(params=["default", "like-production"])
def seeded(request):
    mode = [] if request.param == "default" else ["--like-production", "--smtp", "custom"]
    emu = start_emulator("--seed", str(SEED), *mode)
    yield emu
    emu.stop()


@pytest.fixture(params=["supabase", "firebase"])
def provider(request):
    return request.param


def environment(home, emulator, provider):
    return user_env(home, emulator, provider, PW=PASSWORD)


def authsh(env, *args, **extra):
    return subprocess.run([authsh_binary(), *args], env={**env, **extra}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


def wrong_code(secret):
    return f"{(int(pyotp.TOTP(secret).now()) + 500_000) % 1_000_000:06d}"


def test_login_with_an_authenticator_on_both_backends_and_modes(tmp_path, seeded, provider):
    env = environment(tmp_path, seeded, provider)
    login = ["login", "mfa@example.com", "--password-env", "PW"]

    missing = authsh(env, *login)
    assert missing.returncode == 1, missing
    assert "--totp-secret-env" in missing.stderr and "(mfa_required" in missing.stderr
    missing_json = json.loads(authsh(env, *login, "--json").stdout)
    assert missing_json["error"]["code"] == "mfa_required"

    wrong = json.loads(authsh(env, *login, "--code", wrong_code(SEEDED_SECRET), "--json").stdout)
    assert wrong["ok"] is False and wrong["error"]["code"] == "mfa_invalid_code"
    unset = authsh(env, *login, "--code-env", "NOT_SET_ANYWHERE")
    assert unset.returncode == 1 and "NOT_SET_ANYWHERE" in unset.stderr

    done = authsh(env, *login, "--totp-secret-env", "TOTP", "--json", "--verbose", TOTP=SEEDED_SECRET)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["session"]["aal"] == "aal2"
    assert "totp" in result["session"]["amr"]
    assert SEEDED_SECRET not in done.stdout + done.stderr

    who = json.loads(authsh(env, "whoami", "--json").stdout)
    assert who["session"]["aal"] == "aal2"
    [factor] = who["user"]["factors"]
    assert (factor["kind"], factor["name"], factor["status"]) == ("totp", "phone", "verified")
    assert factor["id"] and factor["created_at"]
    text = authsh(env, "whoami").stdout
    assert "aal2" in text and "phone (totp, verified)" in text

    by_code = authsh(env, *login, "--code-env", "CODE", CODE=pyotp.TOTP(SEEDED_SECRET).now())
    assert by_code.returncode == 0, by_code.stderr
    by_factor = authsh(env, *login, "--code", pyotp.TOTP(SEEDED_SECRET).now(), "--factor", "phone")
    assert by_factor.returncode == 0, by_factor.stderr
    no_such = authsh(env, *login, "--code", "123456", "--factor", "laptop")
    assert no_such.returncode == 64 and "phone" in no_such.stderr


def test_an_account_without_a_factor_signs_in_at_aal1(tmp_path, seeded, provider):
    env = environment(tmp_path, seeded, provider)
    done = authsh(env, "login", "ada@example.com", "--password-env", "PW", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["session"]["aal"] == "aal1" and result["user"]["factors"] == []
    assert "aal1" in authsh(env, "whoami").stdout


def test_enroll_list_remove_and_sign_in_with_the_new_factor(tmp_path, seeded, provider):
    env = environment(tmp_path, seeded, provider)
    assert authsh(env, "login", "ada@example.com", "--password-env", "PW").returncode == 0
    no_terminal = authsh(env, "mfa", "enroll", "--name", "laptop")
    assert no_terminal.returncode == 1 and "--self-verify" in no_terminal.stderr
    assert json.loads(authsh(env, "mfa", "list", "--json").stdout)["factors"] == []

    masked = authsh(env, "mfa", "enroll", "--name", "laptop", "--self-verify", "--json")
    assert masked.returncode == 0, masked.stderr
    enrolled = json.loads(masked.stdout)["enrollment"]
    assert enrolled["secret"] == "***" and "***" in enrolled["uri"] and enrolled["qr_code"]
    listed = json.loads(authsh(env, "mfa", "list", "--json").stdout)["factors"]
    assert [(f["name"], f["status"], f["kind"]) for f in listed] == [("laptop", "verified", "totp")]

    shown = authsh(env, "mfa", "enroll", "--name", "ci", "--self-verify", "--json", "--show-tokens")
    assert shown.returncode == 0, shown.stderr
    enrollment = json.loads(shown.stdout)["enrollment"]
    secret = enrollment["secret"]
    # (pyotp.parse_uri refuses GoTrue's default label: its issuer is the site's host:port, with a ":")
    uri = urlparse(enrollment["uri"])
    assert uri.scheme == "otpauth" and unquote(uri.path).endswith(":ada@example.com")
    assert parse_qs(uri.query)["secret"] == [secret]

    login = ["login", "ada@example.com", "--password-env", "PW"]
    several = authsh(env, *login, "--code", pyotp.TOTP(secret).now())
    assert several.returncode == 1 and "--factor" in several.stderr and "laptop" in several.stderr
    ci = authsh(env, *login, "--factor", "ci", "--totp-secret-env", "CI_TOTP", "--json", CI_TOTP=secret)
    assert ci.returncode == 0, ci.stderr
    assert json.loads(ci.stdout)["session"]["aal"] == "aal2"

    refused = authsh(env, "mfa", "remove", "laptop")
    assert refused.returncode == 64 and "--yes" in refused.stderr
    removed = authsh(env, "mfa", "remove", "laptop", "--yes", "--json")
    assert removed.returncode == 0, removed.stderr
    assert [f["name"] for f in json.loads(removed.stdout)["factors"]] == ["ci"]
    assert authsh(env, "mfa", "remove", "ci", "--yes").returncode == 0
    plain = authsh(env, *login, "--json")
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout)["session"]["aal"] == "aal1"
