"""Moves and bulk changes that lose nothing, each defect of the round trips as a named test on the
real emulator: a pipe given as a path (over the 50,000 accounts pass 1 keeps) imports every
account; a bulk change killed with -9 is finished by --resume, each account changed once; a stop
while the list is still being read ends the batch at once; a phone-only account imported twice is
'already there'; a torn last report line is passed over by --resume; every imported account has
its `lost` list on its report line."""
import json
import os
import re
import signal
import subprocess
import time

import pytest

from backend_accounts import firebase_accounts
from conftest import authsh_binary
from one_shot import authsh, environment
from seeded import emulators, seeded_records as seeded  # noqa: F401 (a fixture)

MANY = 60_000
HASH = "$2a$04$abcdefghijklmnopqrstuu1234567890123456789012345678901"


def accounts_file(tmp_path, count):
    path = tmp_path / "many.jsonl"
    with path.open("w") as out:
        for n in range(count):
            out.write(json.dumps({"id": f"pipe{n:06d}", "email": f"pipe{n:06d}@example.com", "email_verified": True,
                                  "password_hash": HASH, "factors": []}) + "\n")
    return path


def test_a_pipe_given_as_a_path_imports_every_account(tmp_path, emulator):
    source = accounts_file(tmp_path, MANY)
    env = environment(tmp_path, emulator, "firebase")
    report = tmp_path / "r.jsonl"
    # bash's <(…): a pipe named /dev/fd/N, which a second open cannot read again.
    done = subprocess.run(
        ["bash", "-c", f'"$0" user import <(cat "$1") --yes --json --report "$2"', authsh_binary(), str(source),
         str(report)], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    counts = json.loads(done.stdout)["import"]
    assert counts["imported"] == MANY, counts
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert len(lines) == MANY and all(line["lost"] == [] for line in lines)


def test_a_fifo_imports_every_account_and_standard_input_streams(tmp_path, emulator):
    source = accounts_file(tmp_path, MANY)
    env = environment(tmp_path, emulator, "firebase")
    fifo = tmp_path / "accounts.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["bash", "-c", f'cat "{source}" > "{fifo}"'])
    done = authsh(env, "user", "import", str(fifo), "--yes", "--json", "--dry-run", timeout=600)
    writer.wait(timeout=60)
    assert json.loads(done.stdout)["import"]["would_import"] == MANY, done.stderr[-2000:]
    with source.open() as stdin:
        piped = subprocess.run([authsh_binary(), "user", "import", "-", "--yes", "--json"], env=env, stdin=stdin,
                               capture_output=True, text=True, timeout=600)
    assert piped.returncode == 0, piped.stderr[-2000:]
    assert json.loads(piped.stdout)["import"]["imported"] == MANY


def test_a_bulk_change_killed_with_9_is_finished_by_resume(tmp_path, emulators):
    addresses = [f"kill{n:03d}@example.com" for n in range(300)]
    emu = seeded(tmp_path, [{"backend": "supabase", "email": a, "confirmed": True} for a in addresses],
                 "--latency-ms", "15")
    emulators.append(emu)
    env = environment(tmp_path, emu, "supabase")
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join(addresses) + "\n")
    report = tmp_path / "r.jsonl"
    process = subprocess.Popen([authsh_binary(), "user", "disable", "--from", str(listing), "--yes", "--jobs", "2",
                                "--report", str(report)], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline and (not report.exists() or len(report.read_text().splitlines()) < 20):
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    first = report.read_text().splitlines()
    assert 0 < len(first) < 300, len(first)
    # The list the batch was given, kept before its first change.
    assert (tmp_path / "r.jsonl.batch").read_text().split() == addresses
    # The batch's own command line with --resume added: its --from matches the report's batch.
    resumed = authsh(env, "user", "disable", "--from", str(listing), "--yes", "--report", str(report), "--resume",
                     str(report), "--json")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    batch = json.loads(resumed.stdout)["batch"]
    assert batch["total"] == 300
    lines = [json.loads(line) for line in report.read_text().splitlines() if line.strip().endswith("}")]
    last = {line["input"]: line["outcome"] for line in lines}
    assert set(last) == set(addresses) and set(last.values()) <= {"changed", "unchanged"}
    changed = [line["input"] for line in lines if line["outcome"] == "changed"]
    assert len(changed) == len(set(changed)), "an account was changed twice"


def wait_for_sigint_handler(group, timeout=30):
    """Until the authsh of process group `group` catches SIGINT (`SigCgt` in /proc/PID/status)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                status = open(f"/proc/{entry}/status").read()
                if os.getpgid(int(entry)) != group or "\nName:\tauthsh" not in "\n" + status:
                    continue
            except (OSError, ProcessLookupError):
                continue
            caught = int(re.search(r"SigCgt:\s*([0-9a-f]+)", status).group(1), 16)
            if caught & (1 << (signal.SIGINT - 1)):
                time.sleep(0.3)  # into its list, past the handler
                return
        time.sleep(0.05)
    raise AssertionError("authsh never began handling SIGINT")


def test_a_stop_while_the_list_is_read_ends_the_batch_at_once(tmp_path, emulator):
    env = environment(tmp_path, emulator, "supabase")
    process = subprocess.Popen(["bash", "-c", f'(echo ada@example.com; sleep 15) | "{authsh_binary()}" user enable '
                                "--from - --yes"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               # Ctrl-C's SIGINT as a terminal's shell gives it: CI may start the suite
                               # with SIGINT ignored (a background job), and an ignored SIGINT would
                               # leave `sleep 15` holding the pipes after authsh has ended.
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # Signalled once authsh handles SIGINT (a loaded machine can take longer than a fixed pause
    # to start it; before its handler a SIGINT is simply fatal, and not what is tested here).
    wait_for_sigint_handler(process.pid)
    started = time.time()
    os.killpg(process.pid, signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert time.time() - started < 5, stderr
    assert process.returncode == 130, stderr


def test_a_phone_only_account_imported_twice_is_already_there(tmp_path, emulator):
    env = environment(tmp_path, emulator, "supabase")
    path = tmp_path / "phone.jsonl"
    path.write_text(json.dumps({"phone": "+15557770001", "phone_verified": True, "factors": []}) + "\n")
    first = authsh(env, "user", "import", str(path), "--yes", "--json")
    assert first.returncode == 0, first.stderr
    second = authsh(env, "user", "import", str(path), "--yes", "--json")
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["import"]["skipped"] == 1


def test_a_torn_last_report_line_is_passed_over_by_resume(tmp_path, emulator):
    env = environment(tmp_path, emulator, "firebase")
    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps({"id": f"torn{n}", "email": f"torn{n}@example.com", "email_verified": True,
                                        "factors": []}) + "\n" for n in range(2)))
    report = tmp_path / "r.jsonl"
    done = authsh(env, "user", "import", str(path), "--yes", "--report", str(report))
    assert done.returncode == 0, done.stderr
    lines = report.read_text().splitlines()
    report.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    resumed = authsh(env, "user", "import", str(path), "--yes", "--resume", str(report), "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["import"]["skipped"] == 1
    # The resumed run's line starts on a line of its own.
    assert json.loads(report.read_text().splitlines()[-1])["status"] == "skipped_existing"


@pytest.mark.parametrize("target", ["supabase", "firebase"])
def test_a_copys_permanent_ban_and_unconfirmed_phone_arrive_as_they_left(tmp_path, emulator, target):
    header = ("instance_id,id,aud,role,email,encrypted_password,email_confirmed_at,invited_at,created_at,"
              "raw_app_meta_data,raw_user_meta_data,phone,phone_confirmed_at,banned_until,deleted_at")
    app = '"{""provider"":""email"",""providers"":[""email""]}"'
    row = (f",c0000000-0000-4000-8000-00000000000{1 if target == 'supabase' else 2},authenticated,authenticated,"
           f"banned-{target}@copy.example,{HASH},2024-01-02 03:04:05+00,,2024-01-01 00:00:00+00,{app},{{}},"
           f"1555888000{1 if target == 'supabase' else 2},,infinity,")
    path = tmp_path / "users.csv"
    path.write_text(header + "\n" + row + "\n")
    env = environment(tmp_path, emulator, target)
    report = tmp_path / "r.jsonl"
    done = authsh(env, "user", "import", str(path), "--yes", "--json", "--report", str(report))
    assert done.returncode == 0, done.stderr
    lost = json.loads(report.read_text().splitlines()[0])["lost"]
    # Firebase takes only confirmed numbers (left out, counted); Supabase gets it unconfirmed.
    assert ("phone_unconfirmed" in lost) == (target == "firebase") and "factors_unknown" in lost
    shown = authsh(env, "user", "show", f"banned-{target}@copy.example", "--json")
    user = json.loads(shown.stdout)
    assert shown.returncode == 0, shown.stderr
    assert "disabled" in json.dumps(user).lower() or "banned" in json.dumps(user).lower()


def test_the_audit_log_fails_closed_when_it_fills_up_mid_import(tmp_path, emulator):
    """The audit log's disk fills up while an import is under way (a file size limit, as a full disk
    refuses a write: EFBIG with SIGXFSZ ignored). No account is created without its audit line;
    the import stops with exit 74, audit_unavailable."""
    import resource

    count = 12_000
    source = accounts_file(tmp_path, count)
    env = environment(tmp_path, emulator, "firebase")
    audit = tmp_path / "state" / "authsh" / "audit.jsonl"
    # A first change makes the log; the import may then add about one chunk's lines, not all.
    assert authsh(env, "user", "create", "first@example.com").returncode == 0
    limit = audit.stat().st_size + 1_600_000

    def full_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run([authsh_binary(), "user", "import", str(source), "--yes", "--json"], env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600, preexec_fn=full_disk)
    assert done.returncode == 74, done.stdout[-2000:] + done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["error"]["code"] == "audit_unavailable", result["error"]
    lines = [json.loads(line) for line in audit.read_text().splitlines() if line.endswith("}")]
    started = {line.get("target_id") for line in lines if line["outcome"] == "started"}
    created = {u["localId"] for u in firebase_accounts(emulator) if u["localId"].startswith("pipe")}
    assert 0 < len(created) < count, len(created)  # it failed mid-import, not before or after
    assert created <= started, f"{len(created - started)} accounts were created without an audit line"
    assert result["import"]["imported"] == len(created)


