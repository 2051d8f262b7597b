"""Second factors in .auth scripts (issue 21): a `login … --totp-secret-env` step, `{{totp(NAME)}}`,
queries over `session.aal` and `user.factors`; the secret and the codes are masked in the output
and in every report."""
import json
import subprocess

import pyotp
import pytest

from conftest import authsh_binary
from test_login_second_factor import SEED, SEEDED_SECRET

SCRIPT = """
secret totp_secret = "{{env.MFA_SECRET}}"
let code = "{{totp(totp_secret)}}"

test "a second factor from the environment"
login mfa@example.com --password correct-horse-1 --totp-secret-env MFA_SECRET
expect ok
assert session.aal == "aal2"
assert session.amr contains "totp"
assert user.factors[0].kind == "totp"
assert user.factors[0].name == "phone"
echo "secret {{totp_secret}} code {{code}}"

test "a code from totp()"
logout
login mfa@example.com --password correct-horse-1 --code {{totp(totp_secret)}}
expect ok
whoami
assert session.aal == "aal2"
assert user.factors[0].status == "verified"

test "no code: mfa_required"
logout
login mfa@example.com --password correct-horse-1
expect error mfa_required
"""


@pytest.mark.parametrize("provider", ["supabase", "firebase"])
@pytest.mark.parametrize("mode", [[], ["--like-production"]])
def test_totp_in_scripts_passes_and_never_shows_the_secret(tmp_path, provider, mode):
    script = tmp_path / "mfa_steps.auth"
    script.write_text(SCRIPT)
    reports = [tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.tap"]
    done = subprocess.run(
        [authsh_binary(), "--provider", provider, "run", "--emulator", *mode, "--seed", str(SEED),
         "--report-json", str(reports[0]), "--report-junit", str(reports[1]), "--report-tap", str(reports[2]),
         str(script)],
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "MFA_SECRET": SEEDED_SECRET, "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed, 0 failed" in done.stdout
    assert "secret *** code ***" in done.stdout
    everything = done.stdout + done.stderr + "".join(path.read_text() for path in reports)
    assert SEEDED_SECRET not in everything
    assert f"code {pyotp.TOTP(SEEDED_SECRET).now()}" not in everything
    assert json.loads(reports[0].read_text())
