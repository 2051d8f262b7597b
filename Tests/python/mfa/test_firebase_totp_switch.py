"""A Firebase project has TOTP second factors off until its `mfa` config switches them on (like
production): `authsh mfa enroll` says so and names the call that switches them on, `diagnose` notes
it (`totp_off`); after the switch the enrolment goes through."""
import json
import subprocess

import requests

from conftest import authsh_binary, start_emulator, user_env

PASSWORD = "correct-horse-1"


def test_mfa_enroll_names_the_fix_when_totp_is_off(tmp_path):
    emu = start_emulator("--like-production")
    try:
        signup = requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/projects/{emu.project}/accounts",
                               json={"email": "totp-off@example.com", "password": PASSWORD, "emailVerified": True},
                               headers={"Authorization": "Bearer owner"}, timeout=10)
        assert signup.status_code == 200, signup.text
        env = user_env(tmp_path, emu, "firebase", PW=PASSWORD, AUTHSH_CREDENTIAL_STORE="file")

        def authsh(*args):
            return subprocess.run([authsh_binary(), "--provider", "firebase", *args], env=env, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=60)

        assert authsh("login", "totp-off@example.com", "--password-env", "PW").returncode == 0
        refused = authsh("mfa", "enroll", "--name", "phone", "--self-verify")
        assert refused.returncode != 0
        assert "TOTP second factors are not switched on" in refused.stderr, refused.stderr
        assert "config?updateMask=mfa" in refused.stderr and '"totpProviderConfig"' in refused.stderr, refused.stderr
        assert "Email/Password" not in refused.stderr
        diagnosed = json.loads(authsh("diagnose", "totp-off@example.com", "--json").stdout)
        assert "totp_off" in [f["code"] for f in diagnosed["diagnosis"]["findings"]], diagnosed

        switched = requests.patch(
            f"{emu.base}/identitytoolkit.googleapis.com/v2/projects/{emu.project}/config", params={"updateMask": "mfa"},
            json={"mfa": {"providerConfigs": [{"state": "ENABLED", "totpProviderConfig": {"adjacentIntervals": 5}}]}},
            headers={"Authorization": "Bearer owner"}, timeout=10)
        assert switched.status_code == 200, switched.text
        diagnosed = json.loads(authsh("diagnose", "totp-off@example.com", "--json").stdout)
        assert "totp_off" not in [f["code"] for f in diagnosed["diagnosis"]["findings"]], diagnosed
        enrolled = authsh("mfa", "enroll", "--name", "phone", "--self-verify")
        assert enrolled.returncode == 0, enrolled.stdout + enrolled.stderr
    finally:
        emu.stop()
