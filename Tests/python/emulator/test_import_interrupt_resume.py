"""`user import` accounts for every account, however it ends, checked with the official clients:

- SIGINT halfway: no new request starts, the report has a line for every account (`not_started`
  for those never sent), `--json` carries the counts, and `--resume` finishes with no account
  created twice;
- `kill -9` halfway: the report and the audit log already hold a line for each account created,
  and the re-run with `--resume` creates only the rest;
- a file whose records have no id imported twice into Firebase makes each account once."""
import dataclasses
import json
import os
import socket
import signal
import subprocess
import time
from collections import Counter

import bcrypt
import pytest
import requests
from firebase_admin import auth

from conftest import authsh_binary, start_emulator

HASH = bcrypt.hashpw(b"moved-password", bcrypt.gensalt(rounds=4)).decode()


@pytest.fixture
def slow_emulator():
    emu = start_emulator("--latency-ms", "10")
    yield emu
    emu.stop()


def environment(tmp_path, emu):
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1",
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"),
            "SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
            "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key, "FIREBASE_AUTH_EMULATOR_HOST": emu.host,
            "FIREBASE_API_KEY": emu.api_key, "FIREBASE_PROJECT_ID": emu.project}


def export_file(tmp_path, count, tag):
    path = tmp_path / f"{tag}.jsonl"
    path.write_text("".join(json.dumps({"email": f"{tag}{n:04d}@example.com", "email_verified": True,
                                        "password_hash": HASH}) + "\n" for n in range(count)))
    return path, [f"{tag}{n:04d}@example.com" for n in range(count)]


def supabase_emails(emu):
    headers = {"apikey": emu.service_role_key, "Authorization": f"Bearer {emu.service_role_key}"}
    found, page = [], 1
    while True:
        users = requests.get(f"{emu.supabase_url}/admin/users", params={"page": page, "per_page": 1000},
                             headers=headers, timeout=30).json()["users"]
        if not users:
            return found
        found += [u["email"] for u in users]
        page += 1


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def start_import(env, *args):
    return subprocess.Popen([authsh_binary(), "user", "import", *args, "--yes"], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_sigint_halfway_accounts_for_every_account_and_resume_finishes(slow_emulator, tmp_path):
    emu = slow_emulator
    env = environment(tmp_path, emu)
    export, addresses = export_file(tmp_path, 400, "int")
    report = tmp_path / "import.jsonl"
    process = start_import(env, str(export), "--provider", "supabase", "--jobs", "2", "--report", str(report), "--json")
    time.sleep(1.2)
    assert process.poll() is None
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err[-2000:]
    first = lines(report)
    assert Counter(line["email"] for line in first) == Counter(addresses)
    statuses = Counter(line["status"] for line in first)
    assert set(statuses) <= {"imported", "not_started", "unknown"} and statuses["not_started"] > 0, statuses
    counts = json.loads(out)["import"]
    assert counts["total"] == 400 and counts["not_started"] == statuses["not_started"]
    assert counts["imported"] == statuses["imported"]

    resumed = subprocess.run([authsh_binary(), "user", "import", str(export), "--provider", "supabase", "--resume",
                              str(report), "--yes", "--json"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    again = json.loads(resumed.stdout)["import"]
    assert again["total"] == 400 - statuses["imported"]
    assert again["imported"] + again["skipped"] == again["total"]
    assert Counter(supabase_emails(emu)) == Counter(addresses)
    done = subprocess.run([authsh_binary(), "user", "import", str(export), "--provider", "supabase", "--resume",
                           str(report), "--yes"], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "Nothing left to do" in done.stdout, done.stdout + done.stderr


def test_kill_9_leaves_a_line_for_each_account_created(slow_emulator, tmp_path):
    emu = slow_emulator
    env = environment(tmp_path, emu)
    export, addresses = export_file(tmp_path, 400, "kill")
    report = tmp_path / "import.jsonl"
    process = start_import(env, str(export), "--provider", "supabase", "--jobs", "2", "--report", str(report))
    time.sleep(1.2)
    process.kill()
    process.communicate(timeout=30)
    created = set(supabase_emails(emu))
    assert 0 < len(created) < 400
    reported = {line["email"] for line in lines(report) if line["status"] == "imported"}
    # A request may have been answered as the process died: at most the jobs in flight are missing.
    assert reported <= created and len(created - reported) <= 2
    audit = [json.loads(line) for line in (tmp_path / "state" / "authsh" / "audit.jsonl").read_text().splitlines()]
    audited = {line["target_email"] for line in audit if line["outcome"] == "ok"}
    assert audited == reported
    resumed = subprocess.run([authsh_binary(), "user", "import", str(export), "--provider", "supabase", "--resume",
                              str(report), "--yes", "--json"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                             text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert Counter(supabase_emails(emu)) == Counter(addresses)
    counts = json.loads(resumed.stdout)["import"]
    assert counts["skipped"] == len(created - reported)


def test_records_without_an_id_are_made_once_however_often_imported(emulator, admin_app, tmp_path):
    env = environment(tmp_path, emulator)
    export, addresses = export_file(tmp_path, 20, "noid")
    for run in range(3):
        done = subprocess.run([authsh_binary(), "user", "import", str(export), "--provider", "firebase", "--yes",
                               "--json"], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        counts = json.loads(done.stdout)["import"]
        assert counts["imported"] == (20 if run == 0 else 0) and counts["skipped"] == (0 if run == 0 else 20)
    emails = [u.email for u in auth.list_users(app=admin_app).iterate_all() if u.email and u.email.startswith("noid")]
    assert Counter(emails) == Counter(addresses)


@pytest.mark.parametrize("provider, count, jobs", [("supabase", 300, 4), ("firebase", 2500, 1)])
def test_a_backend_that_refuses_the_connection_stops_the_import_and_resume_finishes(
        emulator, tmp_path, provider, count, jobs):
    """Nothing listens on the port: the first refused request stops the import (exit 3,
    network_unreachable), no account is called "may have been created", every account has a line
    in the report, and --resume against the running backend creates them all once."""
    # A port bound and not listening stays refused while the test runs (a freed one can be taken).
    reserved = socket.socket()
    reserved.bind(("127.0.0.1", 0))
    port_env = environment(tmp_path, dataclasses.replace(emulator, port=reserved.getsockname()[1]))
    export, addresses = export_file(tmp_path, count, f"refused-{provider}")
    report = tmp_path / "report.jsonl"
    done = subprocess.run([authsh_binary(), "user", "import", str(export), "--provider", provider, "--jobs", str(jobs),
                           "--report", str(report), "--yes", "--json"], env=port_env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stdout[-2000:] + done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["error"]["code"] == "network_unreachable"
    assert "connection refused" in result["error"]["message"] and "not sent" in result["error"]["message"]
    counts = result["import"]
    assert counts["unknown"] == 0 and counts["imported"] == 0
    assert counts["failed"] + counts["not_started"] == count and counts["not_started"] > 0, counts
    first = lines(report)
    assert Counter(line["email"] for line in first) == Counter(addresses)
    assert {line["status"] for line in first} == {"failed", "not_started"}
    assert all("may have been" not in line["message"] for line in first)
    assert all(line["message"].startswith("Not sent: ") for line in first if line["status"] == "not_started")

    resumed = subprocess.run([authsh_binary(), "user", "import", str(export), "--provider", provider, "--resume",
                              str(report), "--yes", "--json"], env=environment(tmp_path, emulator),
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    again = json.loads(resumed.stdout)["import"]
    assert again["total"] == count and again["imported"] == count
    reserved.close()
