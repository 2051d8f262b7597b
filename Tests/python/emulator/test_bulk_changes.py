"""Bulk changes on the real emulator with the official clients as the oracle: `user confirm --from
FILE --yes --jobs 4` of 1,000 sign-ups confirms them all with one started+outcome audit pair each, a
right summary and a right `--report`; with the emulator's rate-limit fault on it slows down and
still finishes with nothing lost and nothing done twice; `--dry-run` sends nothing; a bad line is
reported and the rest go on; `--from REPORT --only-failed` reruns just the failures."""
import json
import subprocess
import uuid
from collections import Counter

import firebase_admin
import pytest
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary
from one_shot import authsh, environment
from seeded import emulators, seeded_records, unconfirmed  # noqa: F401 (a fixture)


def seeded(tmp_path, emails, backend="supabase"):
    """An emulator started with `--seed`: the accounts exist, none confirmed."""
    return seeded_records(tmp_path, unconfirmed(emails, backend))




def admin(emu):
    key = emu.service_role_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False).admin


def confirmed_by_email(emu):
    """Every account's confirmation, read through the official admin client."""
    users, page = {}, 1
    while True:
        batch = admin(emu).list_users(page=page, per_page=1000)
        if not batch:
            return users
        users.update({u.email: u.email_confirmed_at is not None for u in batch})
        page += 1


def audit_lines(tmp_path):
    path = tmp_path / "state" / "authsh" / "audit.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def report(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def emails(count, tag="signup"):
    return [f"{tag}{n:04d}@example.com" for n in range(count)]


def assert_one_audit_pair_each(tmp_path, addresses):
    lines = audit_lines(tmp_path)
    pairs = Counter((line["target_email"], line["outcome"]) for line in lines)
    for address in addresses:
        assert pairs[(address, "started")] == 1, address
        assert pairs[(address, "ok")] == 1, address
    assert len(lines) == 2 * len(addresses)
    assert {line["command"] for line in lines} == {"user confirm"}


def test_confirm_1000_from_a_file(tmp_path, emulators):
    addresses = emails(1000)
    emu = seeded(tmp_path, addresses)
    emulators.append(emu)
    listing = tmp_path / "signups.txt"
    listing.write_text("# the mail outage of Monday\n" + "\n".join(addresses) + "\n")
    out = tmp_path / "confirm.jsonl"
    done = authsh(environment(tmp_path, emu), "user", "confirm", "--from", str(listing), "--yes", "--jobs", "4",
                  "--report", str(out), "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["ok"] is True
    assert result["batch"]["total"] == 1000
    assert result["batch"]["outcomes"] == {"changed": 1000, "unchanged": 0, "would_change": 0, "not_found": 0,
                                         "not_supported": 0, "failed": 0, "unknown": 0, "not_started": 0}
    assert result["notes"][0] == "1000 accounts: 1000 changed, 0 unchanged, 0 not found, 0 failed."
    # Not a terminal: a plain line per account on standard error.
    assert done.stderr.count(" changed ") == 1000
    state = confirmed_by_email(emu)
    assert all(state[a] for a in addresses) and len(state) == 1000
    assert_one_audit_pair_each(tmp_path, addresses)
    lines = report(out)
    assert sorted(line["input"] for line in lines) == addresses
    assert all(line["outcome"] == "changed" and line["code"] is None and line["email"] == line["input"] and line["id"]
               for line in lines)
    # A second run changes nothing: every account is already confirmed.
    again = authsh(environment(tmp_path, emu), "user", "confirm", "--from", str(listing), "--yes", "--json")
    assert again.returncode == 0
    assert json.loads(again.stdout)["batch"]["outcomes"]["unchanged"] == 1000


def test_a_rate_limit_slows_the_batch_down_and_nothing_is_lost_or_done_twice(tmp_path, emulators):
    addresses = emails(1000)
    emu = seeded(tmp_path, addresses)
    emulators.append(emu)
    # The next 12 changes get GoTrue's 429 over_request_rate_limit with Retry-After: 1.
    fault = {"method": "PUT", "preset": "rate_limit", "headers": {"Retry-After": "1"}, "times": 12}
    assert requests.post(f"{emu.base}/emulator/v1/faults", json=fault, timeout=5).status_code == 200
    listing = tmp_path / "signups.txt"
    listing.write_text("\n".join(addresses) + "\n")
    out = tmp_path / "confirm.jsonl"
    done = authsh(environment(tmp_path, emu), "user", "confirm", "--from", str(listing), "--yes", "--jobs", "4",
                  "--report", str(out), "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["batch"]["outcomes"]["changed"] == 1000
    # It took the back-off: every 429 was answered, and the batch paused at least a second in all.
    left = requests.get(f"{emu.base}/emulator/v1/faults", timeout=5).json()["faults"]
    assert left == []
    assert result["batch"]["rate_limit_pauses"] >= 1 and result["batch"]["paused_seconds"] >= 1
    assert any(line.startswith("Rate limits slowed the batch down") for line in result["notes"])
    assert all(confirmed_by_email(emu)[a] for a in addresses)
    # Nothing lost, nothing done twice: one report line and one audit pair per account.
    assert Counter(line["input"] for line in report(out)) == Counter(addresses)
    assert_one_audit_pair_each(tmp_path, addresses)


def test_a_dry_run_sends_nothing(tmp_path, emulators):
    addresses = emails(20)
    emu = seeded(tmp_path, addresses)
    emulators.append(emu)
    listing = tmp_path / "signups.txt"
    listing.write_text("\n".join(addresses) + "\n")
    out = tmp_path / "dry.jsonl"
    # No --yes needed: nothing will change.
    done = authsh(environment(tmp_path, emu), "user", "confirm", "--from", str(listing), "--dry-run", "--report", str(out))
    assert done.returncode == 0, done.stderr
    assert "20 accounts: 20 would change, 0 unchanged, 0 not found, 0 failed." in done.stdout
    assert "Dry run: nothing was changed." in done.stdout
    assert not any(confirmed_by_email(emu).values())
    assert audit_lines(tmp_path) == []
    assert {line["outcome"] for line in report(out)} == {"would_change"}


def test_a_bad_line_is_reported_and_the_rest_go_on(tmp_path, emulators):
    addresses = emails(10)
    emu = seeded(tmp_path, addresses)
    emulators.append(emu)
    listing = tmp_path / "signups.csv"
    rows = [f"Person {n},{a}" for n, a in enumerate(addresses)]
    listing.write_text("name,email\n" + "\n".join(rows[:5] + ["Nobody,not an address"] + rows[5:]) + "\n")
    out = tmp_path / "confirm.jsonl"
    done = authsh(environment(tmp_path, emu), "user", "confirm", "--from", str(listing), "--yes", "--report", str(out))
    assert done.returncode == 1, done.stderr
    assert "11 accounts: 10 changed, 0 unchanged, 0 not found, 1 failed (validation_failed 1)." in done.stdout
    assert "'not an address' is not an e-mail address, a user id or an E.164 phone number." in done.stderr
    assert all(confirmed_by_email(emu)[a] for a in addresses)
    (bad,) = [line for line in report(out) if line["outcome"] == "failed"]
    assert bad["input"] == "not an address" and bad["code"] == "validation_failed"


def test_only_failed_reruns_just_the_failures(tmp_path, emulators):
    addresses = emails(30)
    emu = seeded(tmp_path, addresses)
    emulators.append(emu)
    # Five changes are refused with a plain 400: those accounts fail, the others go on.
    fault = {"method": "PUT", "status": 400, "json": {"code": 400, "error_code": "validation_failed", "msg": "refused"},
             "times": 5}
    assert requests.post(f"{emu.base}/emulator/v1/faults", json=fault, timeout=5).status_code == 200
    listing = tmp_path / "signups.txt"
    listing.write_text("\n".join(addresses) + "\n")
    first = tmp_path / "first.jsonl"
    done = authsh(environment(tmp_path, emu), "user", "confirm", "--from", str(listing), "--yes", "--jobs", "1",
                  "--report", str(first))
    assert done.returncode == 1
    failed = [line["input"] for line in report(first) if line["outcome"] == "failed"]
    assert len(failed) == 5
    second = tmp_path / "second.jsonl"
    rerun = authsh(environment(tmp_path, emu), "user", "confirm", "--from", str(first), "--only-failed", "--yes",
                   "--report", str(second))
    assert rerun.returncode == 0, rerun.stderr
    assert sorted(line["input"] for line in report(second)) == sorted(failed)
    assert all(confirmed_by_email(emu)[a] for a in addresses)


def test_firebase_confirm_from_standard_input(tmp_path, emulators, monkeypatch):
    addresses = emails(50, tag="fb")
    emu = seeded(tmp_path, addresses, backend="firebase")
    emulators.append(emu)
    done = subprocess.run([authsh_binary(), "user", "confirm", "--from", "-", "--yes", "--json"],
                          env=environment(tmp_path, emu, "firebase"), input="\n".join(addresses) + "\n",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["batch"]["outcomes"]["changed"] == 50
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", emu.host)
    app = firebase_admin.initialize_app(options={"projectId": emu.project}, name=f"bulk-{uuid.uuid4()}")
    try:
        assert all(auth.get_user_by_email(a, app=app).email_verified for a in addresses)
    finally:
        firebase_admin.delete_app(app)


def test_without_a_terminal_a_batch_needs_yes_and_a_readonly_profile_refuses_it(tmp_path, emulators):
    addresses = emails(3)
    emu = seeded(tmp_path, addresses)
    emulators.append(emu)
    listing = tmp_path / "signups.txt"
    listing.write_text("\n".join(addresses) + "\n")
    env = environment(tmp_path, emu)
    done = authsh(env, "user", "confirm", "--from", str(listing))
    assert done.returncode == 64 and "needs confirmation: add --yes" in done.stderr
    jobs = authsh(env, "user", "confirm", "--from", str(listing), "--jobs", "65", "--yes")
    assert jobs.returncode == 64 and "--jobs takes a number from 1 to 64" in jobs.stderr
    config = tmp_path / "config" / "authsh"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(
        f'[profiles.prod]\nprovider = "supabase"\nurl = "{emu.base}"\nkey_env = "SUPABASE_ANON_KEY"\nreadonly = true\n')
    refused = authsh(env, "user", "confirm", "--from", str(listing), "--yes", "--profile", "prod")
    assert refused.returncode == 1 and "read-only" in refused.stderr
    assert not any(confirmed_by_email(emu).values())
    assert audit_lines(tmp_path) == []


def test_user_list_filter_on_firebase_stops_at_max_pages_and_says_how_far(tmp_path, emulators):
    emu = seeded(tmp_path, emails(30, tag="scan"), backend="firebase")
    emulators.append(emu)
    env = environment(tmp_path, emu, "firebase")
    done = authsh(env, "user", "list", "--filter", "nobody-matches", "--limit", "5", "--max-pages", "2")
    assert done.returncode == 0, done.stderr
    assert "Stopped after 2 pages (--max-pages): 10 accounts scanned, 0 matches; the next page goes on from there." in done.stdout
    assert "Next page: authsh user list --filter nobody-matches --limit 5 --page-token " in done.stdout
    whole = authsh(env, "user", "list", "--filter", "scan0007", "--limit", "5", "--json")
    assert [u["email"] for u in json.loads(whole.stdout)["users"]] == ["scan0007@example.com"]


def test_firebase_too_many_attempts_slows_the_batch_down_too(tmp_path, emulators, monkeypatch):
    addresses = emails(40, tag="fbl")
    emu = seeded(tmp_path, addresses, backend="firebase")
    emulators.append(emu)
    # Production's answer outside /auth/v1: HTTP 400 TOO_MANY_ATTEMPTS_TRY_LATER, no Retry-After.
    fault = {"method": "POST", "path": f"/identitytoolkit.googleapis.com/v1/projects/{emu.project}/accounts:update",
             "preset": "rate_limit", "times": 6}
    assert requests.post(f"{emu.base}/emulator/v1/faults", json=fault, timeout=5).status_code == 200
    listing = tmp_path / "signups.txt"
    listing.write_text("\n".join(addresses) + "\n")
    done = authsh(environment(tmp_path, emu, "firebase"), "user", "confirm", "--from", str(listing), "--yes", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    batch = json.loads(done.stdout)["batch"]
    assert batch["outcomes"]["changed"] == 40 and batch["rate_limit_pauses"] >= 1
    assert requests.get(f"{emu.base}/emulator/v1/faults", timeout=5).json()["faults"] == []
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", emu.host)
    app = firebase_admin.initialize_app(options={"projectId": emu.project}, name=f"bulk-{uuid.uuid4()}")
    try:
        assert all(auth.get_user_by_email(a, app=app).email_verified for a in addresses)
    finally:
        firebase_admin.delete_app(app)


@pytest.mark.parametrize("side, flags", [("supabase", ["--meta", "plan=pro"]),
                                         ("firebase", ["--claims", '{"role":"admin"}'])])
def test_an_update_already_applied_is_unchanged_and_nothing_is_sent(tmp_path, emulators, side, flags):
    addresses = emails(2, tag=f"upd{side}")
    emu = seeded(tmp_path, addresses, backend=side)
    emulators.append(emu)
    listing = tmp_path / "m.txt"
    listing.write_text("\n".join(addresses) + "\n")
    env = environment(tmp_path, emu, side)
    first = authsh(env, "user", "update", "--from", str(listing), *flags, "--yes")
    assert first.returncode == 0 and "2 accounts: 2 changed, 0 unchanged" in first.stdout, first.stderr
    # Every change request from here on fails: a second run that sent one would fail.
    fault = {"method": "PUT" if side == "supabase" else "POST", "status": 400, "times": 0,
             **({} if side == "supabase" else {"path": f"/identitytoolkit.googleapis.com/v1/projects/{emu.project}/accounts:update"})}
    assert requests.post(f"{emu.base}/emulator/v1/faults", json=fault, timeout=5).status_code == 200
    again = authsh(env, "user", "update", "--from", str(listing), *flags, "--yes")
    assert again.returncode == 0, again.stderr
    assert "2 accounts: 0 changed, 2 unchanged, 0 not found, 0 failed." in again.stdout
    assert again.stderr.count("unchanged") == 2 and "Already as asked; nothing changed." in again.stderr
