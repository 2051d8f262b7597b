"""`authsh user import` keeps what it moves as it was, and says what it would do: a ban keeps its
end (an ended one is no ban), `--verbose` never shows a hash, `--resume` refuses another backend's
report, the audit names each account's id, and a dry run exits, counts and reports as the import
would. Checked through the official clients and the files authsh writes."""
import json
import time
from datetime import datetime, timezone

import bcrypt
import requests
from firebase_admin import auth

from one_shot import authsh, environment

HASH = bcrypt.hashpw(b"fidelity-pw-1", bcrypt.gensalt(rounds=4)).decode()


def iso(seconds):
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def supabase_user(emu, email):
    r = requests.get(f"{emu.supabase_url}/admin/users", params={"per_page": 1000}, timeout=10,
                     headers={"apikey": emu.service_role_key, "Authorization": f"Bearer {emu.service_role_key}"})
    return next(u for u in r.json()["users"] if u["email"] == email)


def test_a_ban_keeps_its_end_and_an_ended_ban_is_none(emulator, admin_app, tmp_path):
    env = environment(tmp_path, emulator, "both")
    end = int(time.time()) + 30 * 86_400
    records = [
        # As `user export` writes an active ban: disabled, with its end.
        {"id": "b1000000-0000-4000-8000-000000000001", "email": "timed@ban.example", "email_verified": True,
         "disabled": True, "banned_until": iso(end), "password_hash": HASH},
        # As `\copy auth.users` has a ban that ended last year.
        {"id": "b1000000-0000-4000-8000-000000000002", "email": "ended@ban.example", "email_verified": True,
         "banned_until": "2024-02-01T00:00:00Z", "password_hash": HASH},
        {"id": "b1000000-0000-4000-8000-000000000003", "email": "forever@ban.example", "email_verified": True,
         "disabled": True, "password_hash": HASH},
    ]
    for record in records:
        record["factors"] = []  # known: none (a record without the key is counted factors_unknown)
    path = write_jsonl(tmp_path / "bans.jsonl", records)

    done = authsh(env, "user", "import", path, "--provider", "firebase", "--yes", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["import"]["losses"] == {"ban_end": 1}
    disabled = {e: auth.get_user_by_email(e, app=admin_app).disabled
                for e in ("timed@ban.example", "ended@ban.example", "forever@ban.example")}
    assert disabled == {"timed@ban.example": True, "ended@ban.example": False, "forever@ban.example": True}

    done = authsh(env, "user", "import", path, "--provider", "supabase", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    timed = datetime.fromisoformat(supabase_user(emulator, "timed@ban.example")["banned_until"].replace("Z", "+00:00"))
    assert abs(timed.timestamp() - end) < 60, "the ban ends when it ended on the source, not hours later"
    assert supabase_user(emulator, "ended@ban.example").get("banned_until") in (None, "")
    forever = supabase_user(emulator, "forever@ban.example")["banned_until"]
    assert forever and forever > "2100"


def test_verbose_never_shows_a_hash(emulator, tmp_path):
    env = environment(tmp_path, emulator, "both")
    path = write_jsonl(tmp_path / "v.jsonl", [{"email": "verbose@fidelity.example", "password_hash": HASH}])
    for provider in ("supabase", "firebase"):
        done = authsh(env, "user", "import", path, "--provider", provider, "--yes", "--verbose")
        assert done.returncode == 0, done.stdout + done.stderr
        assert "admin/users" in done.stderr or "batchCreate" in done.stderr, done.stderr
        assert HASH not in done.stdout + done.stderr and HASH[7:] not in done.stdout + done.stderr


def test_resume_refuses_the_report_of_another_backend(emulator, tmp_path):
    env = environment(tmp_path, emulator, "both")
    path = write_jsonl(tmp_path / "r.jsonl", [{"email": f"r{i}@fidelity.example", "password_hash": HASH}
                                               for i in range(3)])
    report = tmp_path / "report.jsonl"
    done = authsh(env, "user", "import", path, "--provider", "firebase", "--yes", "--report", str(report))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(lines) == 3 and all(line["backend"].startswith("firebase") for line in lines), lines
    refused = authsh(env, "user", "import", path, "--provider", "supabase", "--yes", "--resume", str(report))
    assert refused.returncode == 64, refused.stdout + refused.stderr
    assert "reports an import into firebase" in refused.stderr and "not into supabase" in refused.stderr
    again = authsh(env, "user", "import", path, "--provider", "firebase", "--yes", "--resume", str(report))
    assert again.returncode == 0 and "Nothing left to do" in again.stdout, again.stdout + again.stderr


def test_the_audit_names_each_imported_account_by_id(emulator, tmp_path):
    env = environment(tmp_path, emulator, "both")
    ids = [f"a1000000-0000-4000-8000-00000000000{i}" for i in range(3)]
    path = write_jsonl(tmp_path / "a.jsonl", [{"id": id, "email": f"audit{i}@fidelity.example", "password_hash": HASH}
                                               for i, id in enumerate(ids)])
    done = authsh(env, "user", "import", path, "--provider", "supabase", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    audit = [json.loads(line) for line in (tmp_path / "state" / "authsh" / "audit.jsonl").read_text().splitlines()]
    per_account = {line["target_email"]: line["target_id"] for line in audit if line["outcome"] == "ok"
                   and line["command"] == "user import" and line["target_email"].startswith("audit")}
    assert per_account == {f"audit{i}@fidelity.example": id for i, id in enumerate(ids)}


def test_a_dry_run_exits_counts_and_reports_as_the_import_would(emulator, tmp_path):
    env = environment(tmp_path, emulator, "both")
    records = [{"email": "kept@fidelity.example", "password_hash": HASH},
               {"email": "argon@fidelity.example", "password_hash": "$argon2id$v=19$m=16,t=2,p=1$c2FsdA$aGFzaA"}]
    path = write_jsonl(tmp_path / "d.jsonl", records)
    report = tmp_path / "dry-report.jsonl"
    dry = authsh(env, "user", "import", path, "--provider", "firebase", "--dry-run", "--json", "--report", str(report))
    assert dry.returncode == 1, dry.stdout + dry.stderr
    result = json.loads(dry.stdout)
    assert result["ok"] is False and "--without-passwords" in result["error"]["hint"]
    assert result["import"]["dry_run"] is True
    assert (result["import"]["would_import"], result["import"]["held_back"], result["import"]["total"]) == (1, 1, 2)
    lines = {line["email"]: line["status"] for line in map(json.loads, report.read_text().splitlines())}
    assert lines == {"kept@fidelity.example": "would_import", "argon@fidelity.example": "held_back"}
    # A dry run's report sends everything when it is resumed from: it made nothing.
    accepted = authsh(env, "user", "import", path, "--provider", "firebase", "--dry-run", "--without-passwords")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr


def test_the_firebase_format_says_it_cannot_carry_a_missing_hash(emulator, tmp_path):
    env = environment(tmp_path, emulator, "both")
    # Imported into Firebase as bcrypt and not signed in since: Firebase has no hash of its own yet.
    path = write_jsonl(tmp_path / "b.jsonl", [{"email": "later@fidelity.example", "password_hash": HASH}])
    assert authsh(env, "user", "import", path, "--provider", "firebase", "--yes").returncode == 0
    for fmt, says in (("firebase", "this format cannot say so"), ("jsonl", "see password_note")):
        out = authsh(env, "user", "export", "--provider", "firebase", "--format", fmt, "--filter", "later@", "--yes")
        assert out.returncode == 0, out.stderr
        assert "1 whose password hash is missing (" + says in out.stderr, out.stderr


def test_resuming_with_the_same_report_keeps_its_earlier_lines(emulator, tmp_path):
    """"The same command with --resume REPORT" keeps its --report REPORT: the earlier run's lines stay."""
    env = environment(tmp_path, emulator, "both")
    records = [{"email": f"same{i}@fidelity.example", "password_hash": HASH} for i in range(5)]
    first = write_jsonl(tmp_path / "first.jsonl", records[:3])
    whole = write_jsonl(tmp_path / "whole.jsonl", records)
    report = str(tmp_path / "same.jsonl")
    assert authsh(env, "user", "import", first, "--provider", "firebase", "--yes", "--report", report).returncode == 0
    done = authsh(env, "user", "import", whole, "--provider", "firebase", "--yes", "--report", report, "--resume", report)
    assert done.returncode == 0 and "Imported 2 of 2" in done.stdout, done.stdout + done.stderr
    emails = [json.loads(line)["email"] for line in open(report)]
    assert sorted(emails) == sorted(r["email"] for r in records), emails


def test_an_invitation_not_yet_accepted_has_no_password_to_lose(emulator, tmp_path):
    env = environment(tmp_path, emulator, "both")
    r = requests.post(f"{emulator.supabase_url}/invite", json={"email": "invitee@fidelity.example"}, timeout=10,
                      headers={"apikey": emulator.service_role_key, "Authorization": f"Bearer {emulator.service_role_key}"})
    assert r.status_code == 200, r.text
    out = authsh(env, "user", "export", "--provider", "supabase", "--filter", "invitee@", "--yes")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["password_note"] is None, record
    path = write_jsonl(tmp_path / "invited.jsonl", [record])
    dry = authsh(env, "user", "import", path, "--provider", "firebase", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert json.loads(dry.stdout)["import"]["held_back"] == 0


def test_a_repeated_address_is_the_same_duplicate_on_both_backends_and_in_the_dry_run(emulator, tmp_path):
    env = environment(tmp_path, emulator, "both")
    records = [{"email": "dup@fidelity.example", "password_hash": HASH},
               {"email": "DUP@fidelity.example", "password_hash": HASH},
               {"email": "other@fidelity.example", "phone": "+15550001111", "password_hash": HASH},
               {"email": "third@fidelity.example", "phone": "15550001111", "password_hash": HASH}]
    path = write_jsonl(tmp_path / "dups.jsonl", records)
    for provider in ("supabase", "firebase"):
        dry = authsh(env, "user", "import", path, "--provider", provider, "--dry-run", "--json")
        assert dry.returncode == 1, dry.stdout + dry.stderr
        counts = json.loads(dry.stdout)["import"]
        assert (counts["would_import"], counts["refused"]) == (2, 2), counts
        report = tmp_path / f"dups-{provider}.jsonl"
        done = authsh(env, "user", "import", path, "--provider", provider, "--yes", "--json", "--report", str(report))
        assert done.returncode == 1, done.stdout + done.stderr
        counts = json.loads(done.stdout)["import"]
        assert (counts["imported"], counts["failed"], counts["skipped"]) == (2, 2, 0), counts
        lines = {line["email"]: line for line in map(json.loads, report.read_text().splitlines())}
        assert lines["DUP@fidelity.example"]["status"] == "failed"
        assert "earlier in the file" in lines["third@fidelity.example"]["message"]


def test_a_file_too_large_to_keep_finds_the_same_duplicates_when_read_again(emulator, tmp_path):
    """Over 100,000 accounts the file is read a second time to send it: the same accounts are duplicates."""
    env = environment(tmp_path, emulator, "both")
    records = [{"email": f"big{i}@fidelity.example", "password_hash": HASH} for i in range(100_010)]
    records += [{"email": "BIG7@fidelity.example", "password_hash": HASH},
                {"email": "big100009@fidelity.example", "password_hash": HASH}]
    path = write_jsonl(tmp_path / "big.jsonl", records)
    done = authsh(env, "user", "import", path, "--provider", "firebase", "--yes", "--json")
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr
    counts = json.loads(done.stdout)["import"]
    assert (counts["imported"], counts["failed"], counts["skipped"]) == (100_010, 2, 0), counts


def test_an_account_the_target_cannot_make_is_refused_before_anything_is_sent(emulator, admin_app, tmp_path):
    env = environment(tmp_path, emulator, "both")
    records = [{"id": "anon-uid-1", "source": "firebase", "providers": []},      # Firebase's anonymous account
               {"display_name": "Nobody at all"},                                  # names no account
               {"email": "someone@fidelity.example", "password_hash": HASH}]
    path = write_jsonl(tmp_path / "anon.jsonl", records)
    dry = authsh(env, "user", "import", path, "--provider", "supabase", "--dry-run")
    assert dry.returncode == 1, dry.stdout + dry.stderr
    assert "refused (not sent):    2" in dry.stdout and "an anonymous account cannot be imported" in dry.stdout
    assert "2 of 3 accounts would fail" in dry.stderr, dry.stderr
    done = authsh(env, "user", "import", path, "--provider", "supabase", "--yes", "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    counts = json.loads(done.stdout)["import"]
    assert (counts["imported"], counts["failed"]) == (1, 2), counts
    # Firebase keeps anonymous accounts: only the record that names nothing is refused, on every run.
    for _ in range(2):
        done = authsh(env, "user", "import", path, "--provider", "firebase", "--yes", "--json")
        counts = json.loads(done.stdout)["import"]
        assert counts["failed"] == 1 and counts["imported"] + counts["skipped"] == 2, counts
    assert auth.get_user("anon-uid-1", app=admin_app).email is None
