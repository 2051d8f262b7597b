"""Bulk changes touch exactly what is listed and account for every line, on the real emulator with
the official admin clients as the oracle:

- a display name that holds a line break and another person's address, exported by `user export
  --format csv` and fed back to `user delete --from`, adds nobody to the delete (both backends,
  dry run and real run);
- a 600-account batch stopped by SIGINT or SIGTERM at a random moment leaves a report naming all
  600, and `--resume` finishes it with each account changed once; a second signal stops at once
  and the report is still whole JSON lines;
- a change the backend cannot make is `not_supported` for every account in the dry run and the
  real run alike (exit 69), and nothing is sent."""
import json
import random
import signal
import subprocess
import time
import uuid
from collections import Counter

import firebase_admin
import pytest
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary
from one_shot import authsh, environment


from seeded import emulators, seeded_records as seeded  # noqa: F401 (a fixture)




def supabase_admin(emu):
    key = emu.service_role_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False).admin


class Oracle:
    """What the official admin client of `side` says of the accounts."""

    def __init__(self, emu, side, monkeypatch):
        self.emu, self.side = emu, side
        if side == "firebase":
            monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", emu.host)
            self.app = firebase_admin.initialize_app(options={"projectId": emu.project}, name=f"bulk-{uuid.uuid4()}")

    def close(self):
        if self.side == "firebase":
            firebase_admin.delete_app(self.app)

    def emails(self):
        if self.side == "firebase":
            return {u.email for u in auth.list_users(app=self.app).iterate_all()}
        found, page = set(), 1
        while batch := supabase_admin(self.emu).list_users(page=page, per_page=1000):
            found |= {u.email for u in batch}
            page += 1
        return found

    def confirmed(self):
        if self.side == "firebase":
            return {u.email: u.email_verified for u in auth.list_users(app=self.app).iterate_all()}
        state, page = {}, 1
        while batch := supabase_admin(self.emu).list_users(page=page, per_page=1000):
            state.update({u.email: u.email_confirmed_at is not None for u in batch})
            page += 1
        return state


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_a_hostile_display_name_in_an_export_adds_nobody_to_a_delete(tmp_path, emulators, monkeypatch, side):
    # Any signed-in person can set their own name; this one names ada, over a quoted line break.
    emu = seeded(tmp_path, [{"backend": "both", "email": "evil@example.com", "name": "Evil\nA,ada@example.com,B"}])
    emulators.append(emu)
    env = environment(tmp_path, emu, side)
    exported = authsh(env, "user", "export", "--format", "csv", "--filter", "evil")
    assert exported.returncode == 0, exported.stderr
    assert '"Evil\nA,ada@example.com,B"' in exported.stdout
    evil = tmp_path / "evil.csv"
    evil.write_text(exported.stdout)
    created = authsh(env, "user", "create", "ada@example.com", "--confirmed")
    assert created.returncode == 0, created.stderr
    oracle = Oracle(emu, side, monkeypatch)
    try:
        dry = authsh(env, "user", "delete", "--from", str(evil), "--dry-run", "--json")
        assert dry.returncode == 0, dry.stderr
        assert json.loads(dry.stdout)["batch"]["total"] == 1
        assert "ada@example.com" not in dry.stdout + dry.stderr
        out = tmp_path / "delete.jsonl"
        done = authsh(env, "user", "delete", "--from", str(evil), "--yes", "--report", str(out), "--json")
        assert done.returncode == 0, done.stderr
        assert [json.loads(line)["input"] for line in out.read_text().splitlines()] == ["evil@example.com"]
        assert oracle.emails() == {"ada@example.com"}
    finally:
        oracle.close()


def lines_of(path):
    # Every line whole JSON, even after a second signal.
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("side, sig, status", [("supabase", signal.SIGINT, 130), ("firebase", signal.SIGTERM, 143)])
def test_an_interrupted_batch_names_all_600_and_resume_finishes_it(tmp_path, emulators, monkeypatch, side, sig, status):
    addresses = [f"stop{n:04d}@example.com" for n in range(600)]
    emu = seeded(tmp_path, [{"backend": side, "email": a, "confirmed": False} for a in addresses], "--latency-ms", "8")
    emulators.append(emu)
    env = environment(tmp_path, emu, side)
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join(addresses) + "\n")
    out = tmp_path / "confirm.jsonl"
    process = subprocess.Popen([authsh_binary(), "user", "confirm", "--from", str(listing), "--yes", "--jobs", "4",
                                "--report", str(out)], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(random.Random(int(sig)).uniform(0.6, 1.8))
    assert process.poll() is None, "the batch ended before the signal"
    process.send_signal(sig)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == status, stderr[-2000:]
    assert "Stopping: no more accounts start" in stderr
    first = lines_of(out)
    assert Counter(line["input"] for line in first) == Counter(addresses)
    outcomes = Counter(line["outcome"] for line in first)
    assert set(outcomes) <= {"changed", "not_started", "unknown"} and outcomes["not_started"] > 0, outcomes
    assert f"600 accounts: {outcomes['changed']} changed" in stdout
    assert f"--resume {out}" in stdout

    resumed = authsh(env, "user", "confirm", "--resume", str(out), "--yes", "--json")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    batch = json.loads(resumed.stdout)["batch"]
    assert batch["total"] == 600
    assert batch["outcomes"]["changed"] + batch["outcomes"]["unchanged"] == 600
    # The report holds the first run's lines, then the resumed run's: the last about an account wins.
    every = lines_of(out)
    last = {line["input"]: line["outcome"] for line in every}
    assert set(last) == set(addresses) and set(last.values()) <= {"changed", "unchanged"}
    changed = Counter(line["input"] for line in every if line["outcome"] == "changed")
    assert max(changed.values()) == 1 and sum(changed.values()) + Counter(last.values())["unchanged"] >= 600
    oracle = Oracle(emu, side, monkeypatch)
    try:
        state = oracle.confirmed()
        assert all(state[a] for a in addresses)
    finally:
        oracle.close()
    again = authsh(env, "user", "confirm", "--resume", str(out), "--yes")
    assert again.returncode == 0 and f"Nothing left to do: every account in {out} has its outcome." in again.stdout


def test_a_second_signal_stops_at_once_and_leaves_whole_lines(tmp_path, emulators):
    addresses = [f"twice{n:04d}@example.com" for n in range(600)]
    emu = seeded(tmp_path, [{"backend": "supabase", "email": a, "confirmed": False} for a in addresses],
                 "--latency-ms", "400")
    emulators.append(emu)
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join(addresses) + "\n")
    out = tmp_path / "confirm.jsonl"
    process = subprocess.Popen([authsh_binary(), "user", "confirm", "--from", str(listing), "--yes", "--jobs", "8",
                                "--report", str(out)], env=environment(tmp_path, emu, "supabase"),
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=20)
    assert process.returncode == 130, stderr[-2000:]
    lines_of(out)


@pytest.mark.parametrize("side, args", [
    ("firebase", ["user", "update", "--meta", "plan=pro"]),
    ("supabase", ["user", "signout"]),
])
def test_a_change_the_backend_cannot_make_is_not_supported_in_the_dry_run_too(tmp_path, emulators, side, args):
    addresses = [f"ns{n}@example.com" for n in range(4)]
    emu = seeded(tmp_path, [{"backend": side, "email": a} for a in addresses])
    emulators.append(emu)
    env = environment(tmp_path, emu, side)
    listing = tmp_path / "list.txt"
    listing.write_text("\n".join(addresses) + "\n")
    for extra in (["--dry-run"], ["--yes"]):
        done = authsh(env, *args, "--from", str(listing), *extra, "--json")
        assert done.returncode == 69, done.stderr
        result = json.loads(done.stdout)
        assert result["batch"]["outcomes"]["not_supported"] == 4
        assert result["batch"]["outcomes"]["would_change"] == 0
        assert result["error"]["code"] == "not_supported"
    audit = tmp_path / "state" / "authsh" / "audit.jsonl"
    assert not audit.exists() or audit.read_text() == ""
