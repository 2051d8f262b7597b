"""`authsh diagnose` and `user show` on every kind of account a support desk meets, seeded from
examples/accounts.jsonl into the real `authsh emulator`, on both backends and in both emulator
modes: each kind gets its own finding with its fix; `user show --json` lists identities and
factors; `user mfa reset` removes a lost authenticator; `user history` reads GoTrue's audit trail
(Firebase: not_supported naming Cloud Logging); `user link invite` re-issues an invitation."""
import json
import os
import subprocess

import pytest
import requests

from conftest import ROOT, authsh_binary, start_emulator

SEED = ROOT / "examples" / "accounts.jsonl"
ANONYMOUS = "00000000-0000-4000-8000-00000000a11e"
DELETED = "00000000-0000-4000-8000-00000000de1d"


@pytest.fixture(scope="module", params=["default", "like-production"])
def seeded(request):
    extra = [] if request.param == "default" else ["--like-production", "--smtp", "custom"]
    emu = start_emulator("--seed", str(SEED), *extra)
    yield emu
    emu.stop()


def run(emu, backend, home, *args):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "NO_COLOR": "1",
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
           "AUTHSH_CREDENTIAL_STORE": "file"}
    if backend == "supabase":
        env.update(SUPABASE_URL=emu.base, SUPABASE_ANON_KEY=emu.anon_key, SUPABASE_SERVICE_ROLE_KEY=emu.service_role_key)
    else:
        env.update(FIREBASE_AUTH_EMULATOR_HOST=emu.host, FIREBASE_API_KEY=emu.api_key, FIREBASE_PROJECT_ID=emu.project)
    result = subprocess.run([authsh_binary(), "--provider", backend, *args, "--json"], env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60)
    assert result.stdout, f"no JSON (exit {result.returncode}): {result.stderr}"
    return result.returncode, json.loads(result.stdout)


# (backend, account, the first finding, whether a password sign-in can work, the fix it names)
KINDS = [
    ("supabase", "ada@example.com", "ok", True, "user link recovery"),
    ("supabase", "mfa@example.com", "mfa_enrolled", True, "user mfa reset"),
    ("supabase", "google@example.com", "no_password", False, "user link recovery"),
    ("supabase", "unconfirmed@example.com", "email_unconfirmed", False, "user confirm"),
    ("supabase", "banned@example.com", "disabled", False, "user enable"),
    ("supabase", "invited@example.com", "invite_pending", False, "user link invite"),
    ("supabase", "sso@example.com", "sso_user", False, None),
    ("supabase", ANONYMOUS, "anonymous", False, None),
    ("supabase", DELETED, "soft_deleted", False, None),
    ("supabase", "deleted@example.com", "no_account", False, "user list"),
    ("firebase", "ada@example.com", "ok", True, "user link recovery"),
    ("firebase", "mfa@example.com", "mfa_enrolled", True, "user mfa reset"),
    ("firebase", "google@example.com", "no_password", False, "user link recovery"),
    ("firebase", "unconfirmed@example.com", "email_unconfirmed", True, "user confirm"),
    ("firebase", "banned@example.com", "disabled", False, "user enable"),
    ("firebase", "link@example.com", "email_link_only", False, "user link recovery"),
    ("firebase", "nopassword@example.com", "no_password", False, "user link recovery"),
    ("firebase", "sso@example.com", "sso_user", False, None),
    ("firebase", ANONYMOUS, "anonymous", False, None),
]


@pytest.mark.parametrize("backend,account,first,can_sign_in,fix", KINDS)
def test_diagnose_names_each_kind_of_account(seeded, tmp_path, backend, account, first, can_sign_in, fix):
    status, doc = run(seeded, backend, tmp_path, "diagnose", account)
    diagnosis = doc["diagnosis"]
    codes = [f["code"] for f in diagnosis["findings"]]
    assert codes[0] == first, codes
    assert diagnosis["can_sign_in"] is can_sign_in
    # diagnose exits like grep: 0 when the person can sign in, 1 when a finding stops them.
    assert status == (0 if can_sign_in else 1), (status, codes)
    if fix:
        assert fix in diagnosis["findings"][0]["fix"]
    else:
        assert diagnosis["findings"][0]["fix"] is None
    if backend == "supabase" and account == "mfa@example.com":
        assert codes == ["mfa_enrolled", "ok", "rate_limit_possible"] and diagnosis["findings"][0]["blocking"] is False
    if account == "google@example.com":
        assert "Google" in diagnosis["findings"][0]["message"]


@pytest.mark.parametrize("backend", ["supabase", "firebase"])
def test_user_show_lists_identities_and_factors(seeded, tmp_path, backend):
    _, google = run(seeded, backend, tmp_path, "user", "show", "google@example.com")
    user = google["user"]
    assert [i["provider"] for i in user["identities"]] == ["google"]
    assert user["methods"] == ["google"] and user["factors"] == []
    _, mfa = run(seeded, backend, tmp_path, "user", "show", "mfa@example.com")
    factors = mfa["user"]["factors"]
    assert [(f["kind"], f["name"], f["status"]) for f in factors] == [("totp", "phone", "verified")]
    assert factors[0]["id"] and "password" in mfa["user"]["methods"]
    assert "password" in [i["provider"] for i in mfa["user"]["identities"]]


def test_supabase_flags_invites_sso_and_anonymous_accounts(seeded, tmp_path):
    _, invited = run(seeded, "supabase", tmp_path, "user", "show", "invited@example.com")
    assert invited["user"]["invited_at"] and invited["user"]["methods"] == ["email_link"]
    _, sso = run(seeded, "supabase", tmp_path, "user", "show", "sso@example.com")
    assert sso["user"]["sso"] is True and sso["user"]["identities"][0]["provider"].startswith("sso:")
    _, anonymous = run(seeded, "supabase", tmp_path, "user", "show", ANONYMOUS)
    assert anonymous["user"]["anonymous"] is True and anonymous["user"]["methods"] == ["anonymous"]


@pytest.mark.parametrize("backend", ["supabase", "firebase"])
def test_mfa_reset_removes_the_lost_factor_and_the_password_alone_signs_in(tmp_path, backend):
    emu = start_emulator("--seed", str(SEED))
    try:
        status, refused = run(emu, backend, tmp_path, "user", "mfa", "reset", "lostphone@example.com")
        assert status == 64 and "--yes" in refused["error"]["message"], "a destructive change needs --yes without a terminal"
        status, wrong = run(emu, backend, tmp_path, "user", "mfa", "reset", "lostphone@example.com", "--factor", "nope", "--yes")
        assert status == 1 and "no second factor 'nope'" in wrong["error"]["message"]
        status, done = run(emu, backend, tmp_path, "user", "mfa", "reset", "lostphone@example.com", "--factor", "old phone", "--yes")
        assert status == 0, done
        assert done["user"]["factors"] == []
        assert "Removed totp \"old phone\"" in done["notes"][0]
        if backend == "supabase":
            token = requests.post(f"{emu.supabase_url}/token?grant_type=password",
                                  json={"email": "lostphone@example.com", "password": "correct-horse-1"}, timeout=5).json()
            assert token["user"].get("factors", []) == []
        else:
            answer = requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                                   params={"key": "k"}, json={"email": "lostphone@example.com",
                                                              "password": "correct-horse-1"}, timeout=5).json()
            assert "idToken" in answer and "mfaPendingCredential" not in answer
        audit = (tmp_path / "state" / "authsh" / "audit.jsonl").read_text().splitlines()
        outcomes = [json.loads(line)["outcome"] for line in audit if "mfa reset" in line]
        assert [outcome for outcome in outcomes if outcome != "started"] == ["usage_error", "invalid_request", "ok"]
    finally:
        emu.stop()


def test_history_reads_the_audit_trail_newest_first_and_diagnose_adds_the_last_sign_in(tmp_path):
    emu = start_emulator("--seed", str(SEED))
    try:
        auth = emu.supabase_url
        for _ in range(2):
            assert requests.post(f"{auth}/token?grant_type=password", json={"email": "ada@example.com",
                                 "password": "correct-horse-1"}, timeout=5).status_code == 200
        assert requests.post(f"{auth}/recover", json={"email": "ada@example.com"}, timeout=5).status_code == 200
        # Someone else's sign-in is not in Ada's history (GoTrue's author: is a substring match).
        requests.post(f"{auth}/token?grant_type=password", json={"email": "mfa@example.com", "password": "correct-horse-1"}, timeout=5)
        status, doc = run(emu, "supabase", tmp_path, "user", "history", "ada@example.com", "--since", "1h")
        assert status == 0, doc
        actions = [e["action"] for e in doc["history"]]
        assert actions == ["user_recovery_requested", "login", "login"], actions
        times = [e["time"] for e in doc["history"]]
        assert times == sorted(times, reverse=True)
        assert all(e["actor"] == "ada@example.com" for e in doc["history"])
        _, diagnosis = run(emu, "supabase", tmp_path, "diagnose", "ada@example.com")
        assert diagnosis["diagnosis"]["last_sign_in"] == times[1]
        assert diagnosis["diagnosis"]["last_recovery_request"] == times[0]
        status, firebase = run(emu, "firebase", tmp_path, "user", "history", "ada@example.com")
        assert status == 1 and firebase["error"]["code"] == "not_supported"
        assert "Cloud Logging" in firebase["error"]["hint"]
    finally:
        emu.stop()


def test_link_invite_reissues_a_pending_invitation(tmp_path):
    emu = start_emulator("--seed", str(SEED))
    try:
        status, doc = run(emu, "supabase", tmp_path, "user", "link", "invite", "invited@example.com", "--yes")
        assert status == 0, doc
        assert doc["link"]["kind"] == "invite" and "type=invite" in doc["link"]["url"]
        status, accepted = run(emu, "supabase", tmp_path, "user", "link", "invite", "ada@example.com", "--yes")
        assert status == 1 and "already confirmed" in accepted["error"]["message"]
        status, firebase = run(emu, "firebase", tmp_path, "user", "link", "invite", "ada@example.com", "--yes")
        assert firebase["error"]["code"] == "not_supported" and "user link recovery" in firebase["error"]["hint"]
    finally:
        emu.stop()
