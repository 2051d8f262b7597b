"""Factor names on both backends: `mfa enroll --name` refuses a name a verified factor already
has (nothing enrolled), and `user mfa reset --factor NAME` resolves a name, refusing one two
factors share with their ids (as `mfa remove` and `login --factor` do)."""
import json
import os
import subprocess

import pytest
import requests

from conftest import authsh_binary, start_emulator

SECRET = "JBSWY3DPEHPK3PXP"
TWIN = "KRSXG5CTMVRXEZLU"


@pytest.fixture(scope="module")
def emu(tmp_path_factory):
    seed = tmp_path_factory.mktemp("seed") / "seed.jsonl"
    lines = [
        {"backend": "both", "email": "named@example.com", "password": "correct-horse-1",
         "factors": [{"name": "phone", "secret": SECRET, "verified": True}]},
        # Names match ignoring case: "phone" names both of these.
        {"backend": "firebase", "email": "twins@example.com", "password": "correct-horse-1",
         "factors": [{"name": "phone", "secret": SECRET, "verified": True},
                     {"name": "Phone", "secret": TWIN, "verified": True},
                     {"name": "work", "secret": TWIN, "verified": True}]},
        {"backend": "supabase", "email": "plain@example.com", "password": "correct-horse-1"},
        {"backend": "supabase", "email": "twins@example.com", "password": "correct-horse-1",
         "factors": [{"name": "phone", "secret": SECRET, "verified": True},
                     {"name": "work", "secret": TWIN, "verified": True}]},
    ]
    seed.write_text("".join(json.dumps(line) + "\n" for line in lines))
    emulator = start_emulator("--seed", str(seed))
    yield emulator
    emulator.stop()


def run(emu, backend, home, *args, **extra):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "NO_COLOR": "1",
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
           "AUTHSH_CREDENTIAL_STORE": "file", "PW": "correct-horse-1", "TOTP": SECRET, **extra}
    if backend == "supabase":
        env.update(SUPABASE_URL=emu.base, SUPABASE_ANON_KEY=emu.anon_key, SUPABASE_SERVICE_ROLE_KEY=emu.service_role_key)
    else:
        env.update(FIREBASE_AUTH_EMULATOR_HOST=emu.host, FIREBASE_API_KEY=emu.api_key, FIREBASE_PROJECT_ID=emu.project)
    return subprocess.run([authsh_binary(), "--provider", backend, *args], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("backend", ["supabase", "firebase"])
def test_enroll_refuses_a_name_a_verified_factor_has(emu, backend, tmp_path):
    login = run(emu, backend, tmp_path, "login", "named@example.com", "--password-env", "PW", "--totp-secret-env", "TOTP")
    assert login.returncode == 0, login.stderr
    refused = run(emu, backend, tmp_path, "mfa", "enroll", "--name", "Phone", "--self-verify")
    assert refused.returncode == 64, refused.stdout + refused.stderr
    assert "A verified factor is already named Phone" in refused.stderr and "nothing was enrolled" in refused.stderr
    listed = run(emu, backend, tmp_path, "mfa", "list", "--json")
    assert len(json.loads(listed.stdout)["factors"]) == 1, "nothing enrolled"
    other = run(emu, backend, tmp_path, "mfa", "enroll", "--name", "laptop", "--self-verify")
    assert other.returncode == 0, other.stderr


@pytest.mark.parametrize("backend", ["supabase", "firebase"])
def test_user_mfa_reset_resolves_a_name_and_refuses_a_shared_one(emu, backend, tmp_path):
    phones = ["phone", "Phone"] if backend == "firebase" else ["phone"]
    if backend == "firebase":
        shared = run(emu, backend, tmp_path, "user", "mfa", "reset", "twins@example.com", "--factor", "phone", "--yes")
        assert shared.returncode == 64, shared.stdout + shared.stderr
        assert "2 factors are named phone: give the id (" in shared.stderr
        shown = json.loads(run(emu, backend, tmp_path, "user", "show", "twins@example.com", "--json").stdout)
        assert len(shown["user"]["factors"]) == 3, "nothing removed"
    done = run(emu, backend, tmp_path, "user", "mfa", "reset", "twins@example.com", "--factor", "WORK", "--yes", "--json")
    assert done.returncode == 0, done.stderr
    assert [f["name"] for f in json.loads(done.stdout)["user"]["factors"]] == phones


def test_enroll_without_a_name_never_conflicts_and_a_stale_name_says_how_to_remove_it(emu, tmp_path):
    """GoTrue refuses a name in use, an empty one too, and keeps an abandoned enrolment that was
    challenged: a taken name names the factor to remove; unnamed enrolments get names of their own."""
    # An enrolment started elsewhere and abandoned after a challenge keeps the name "laptop".
    signed = requests.post(f"{emu.supabase_url}/token", params={"grant_type": "password"},
                           json={"email": "plain@example.com", "password": "correct-horse-1"},
                           headers={"apikey": emu.anon_key}, timeout=5).json()
    bearer = {"Authorization": f"Bearer {signed['access_token']}", "apikey": emu.anon_key}
    stale = requests.post(f"{emu.supabase_url}/factors", json={"factor_type": "totp", "friendly_name": "laptop"},
                          headers=bearer, timeout=5).json()
    assert requests.post(f"{emu.supabase_url}/factors/{stale['id']}/challenge", json={}, headers=bearer,
                         timeout=5).status_code == 200

    login = run(emu, "supabase", tmp_path, "login", "plain@example.com", "--password-env", "PW")
    assert login.returncode == 0, login.stderr
    refused = run(emu, "supabase", tmp_path, "mfa", "enroll", "--name", "laptop", "--self-verify")
    assert refused.returncode != 0, refused.stdout
    assert f"authsh mfa remove {stale['id']}" in refused.stderr and "nothing was enrolled" in refused.stderr, refused.stderr
    removed = run(emu, "supabase", tmp_path, "mfa", "remove", stale["id"], "--yes")
    assert removed.returncode == 0, removed.stdout + removed.stderr

    for _ in range(2):
        enrolled = run(emu, "supabase", tmp_path, "mfa", "enroll", "--self-verify")
        assert enrolled.returncode == 0, enrolled.stdout + enrolled.stderr
    names = [f["name"] for f in json.loads(run(emu, "supabase", tmp_path, "mfa", "list", "--json").stdout)["factors"]]
    assert len(names) == 2 and len(set(names)) == 2 and all(name.startswith("TOTP ") for name in names), names
