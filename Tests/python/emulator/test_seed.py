"""`authsh emulator --seed FILE`: the accounts a support desk meets, offline; bad lines stop the start
with FILE:LINE and exit 78 before anything is created; a restart with --state keeps what is there;
factors, identities and audit entries survive kill -9."""
import json
import signal
import subprocess

import pyotp
import requests

from conftest import JWT_SECRET, ROOT, authsh_binary, free_port, start_emulator

EXAMPLE = ROOT / "examples" / "accounts.jsonl"
PASSWORD = "correct-horse-1"


def run_emulator(*args, timeout=20):
    return subprocess.run([authsh_binary(), "emulator", "--port", str(free_port()), *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)


def test_a_bad_line_names_file_and_line_exits_78_and_creates_nothing(tmp_path):
    seed = tmp_path / "accounts.jsonl"
    seed.write_text('{"backend":"supabase","email":"ok@example.com","password":"secret-1"}\n'
                    '# a comment\n'
                    '{"backend":"firebase","email":"x@example.com","invited":true}\n')
    state = tmp_path / "state.sqlite"
    result = run_emulator("--seed", str(seed), "--state", str(state))
    assert result.returncode == 78, result
    assert f"{seed}:3: \"invited\" is a Supabase kind of account" in result.stderr
    assert result.stdout == "" and not state.exists()
    missing = run_emulator("--seed", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 78 and "nope.jsonl: no such file" in missing.stderr
    usage = run_emulator("--seed")
    assert usage.returncode == 64


def test_seeded_accounts_on_both_sides_and_a_restart_keeps_them(tmp_path):
    state = tmp_path / "state.sqlite"
    emu = start_emulator("--seed", str(EXAMPLE), "--state", str(state))
    try:
        token = requests.post(f"{emu.supabase_url}/token?grant_type=password",
                              json={"email": "mfa@example.com", "password": PASSWORD}, timeout=5).json()
        assert token["user"]["factors"][0]["status"] == "verified"
        key = emu.service_role_key
        users = requests.get(f"{emu.supabase_url}/admin/users", params={"per_page": 100},
                             headers={"Authorization": f"Bearer {key}"}, timeout=5).json()["users"]
        assert {"ada@example.com", "google@example.com", "invited@example.com", "sso@example.com"} <= {u["email"] for u in users}
        pending = requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                                params={"key": "k"}, json={"email": "mfa@example.com", "password": PASSWORD}, timeout=5).json()
        assert "mfaPendingCredential" in pending
        code = pyotp.TOTP("JBSWY3DPEHPK3PXP").now()
        done = requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize", params={"key": "k"},
                             json={"mfaPendingCredential": pending["mfaPendingCredential"],
                                   "mfaEnrollmentId": pending["mfaInfo"][0]["mfaEnrollmentId"],
                                   "totpVerificationInfo": {"verificationCode": code}}, timeout=5)
        assert done.status_code == 200, done.text
    finally:
        emu.stop()
    again = run_json_ready("--seed", str(EXAMPLE), "--state", str(state))
    assert again["seeded"] == {"file": str(EXAMPLE), "created": 0, "already_there": 20}


def run_json_ready(*args):
    process = subprocess.Popen([authsh_binary(), "emulator", "--port", "0", "--json", "--jwt-secret", JWT_SECRET, *args],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        return json.loads(process.stdout.readline())
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_factors_identities_and_audit_entries_survive_kill_9(tmp_path):
    state = tmp_path / "state.sqlite"
    emu = start_emulator("--state", str(state))
    auth = emu.supabase_url
    session = requests.post(f"{auth}/signup", json={"email": "ada@example.com", "password": PASSWORD}, timeout=5).json()
    bearer = {"Authorization": f"Bearer {session['access_token']}"}
    enrolled = requests.post(f"{auth}/factors", json={"factor_type": "totp", "friendly_name": "phone"}, headers=bearer, timeout=5).json()
    challenge = requests.post(f"{auth}/factors/{enrolled['id']}/challenge", headers=bearer, timeout=5).json()
    verified = requests.post(f"{auth}/factors/{enrolled['id']}/verify", headers=bearer, timeout=5,
                             json={"challenge_id": challenge["id"], "code": pyotp.TOTP(enrolled["totp"]["secret"]).now()})
    assert verified.status_code == 200
    google = requests.post(f"{emu.base}/emulator/v1/supabase/idp", json={"provider": "google", "email": "gus@example.com"}, timeout=5)
    assert google.status_code == 200
    emu.process.send_signal(signal.SIGKILL)
    emu.process.wait(timeout=10)
    restarted = start_emulator("--state", str(state))
    try:
        key = {"Authorization": f"Bearer {restarted.service_role_key}"}
        user = requests.get(f"{restarted.supabase_url}/user", headers={"Authorization": f"Bearer {verified.json()['access_token']}"}, timeout=5).json()
        assert user["factors"][0]["status"] == "verified"
        users = requests.get(f"{restarted.supabase_url}/admin/users", headers=key, timeout=5).json()["users"]
        gus = next(u for u in users if u["email"] == "gus@example.com")
        loaded = requests.get(f"{restarted.supabase_url}/admin/users/{gus['id']}", headers=key, timeout=5).json()
        assert [i["provider"] for i in loaded["identities"]] == ["google"]
        actions = [e["payload"]["action"] for e in requests.get(f"{restarted.supabase_url}/admin/audit", headers=key, timeout=5).json()]
        assert actions[:2] == ["login", "user_signedup"] and "verification_attempted" in actions
    finally:
        restarted.stop()


def test_the_in_process_emulator_takes_a_seed_too(tmp_path):
    def authsh(*args):
        return subprocess.run([authsh_binary(), *args], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=30, cwd=tmp_path, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    shown = authsh("--emulator", "--seed", str(EXAMPLE), "--provider", "firebase", "user", "show", "mfa@example.com", "--json")
    assert shown.returncode == 0, shown
    assert json.loads(shown.stdout)["user"]["email"] == "mfa@example.com"
    script = tmp_path / "seeded.auth"
    script.write_text('test "a seeded account signs in"\nlogin ada@example.com --password correct-horse-1\nexpect ok\n')
    ran = authsh("run", "--emulator", "--seed", str(EXAMPLE), str(script))
    assert ran.returncode == 0, ran
    assert authsh("--seed", str(EXAMPLE), "whoami").returncode == 64
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"backend":"nowhere"}\n')
    failed = authsh("--emulator", "--seed", str(bad), "whoami")
    assert failed.returncode == 78 and f"{bad}:1:" in failed.stderr
