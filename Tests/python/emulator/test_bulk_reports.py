"""The `--report` of a bulk change and of `user import`, on the real emulator: one that cannot be
written once accounts are being sent (`/dev/full`) is an I/O error, exit 74 `output_not_written`,
that says what was done; one that cannot even be created stops the batch before anything is sent
(exit 64). A stopped batch finishes with what its hint says: the same command with `--resume
REPORT` added."""
import json
import signal
import subprocess
import time


from conftest import authsh_binary, start_emulator
from one_shot import authsh, environment
from seeded import emulators, seeded_records, unconfirmed  # noqa: F401 (a fixture)


def seeded(tmp_path, emails, *flags):
    return seeded_records(tmp_path, unconfirmed(emails), *flags)


def confirmed(env, emails):
    shown = json.loads(authsh(env, "user", "show", *emails, "--json").stdout)
    return [entry["user"]["confirmed"] for entry in shown["users"]]


def test_a_report_on_a_full_disk_is_an_io_error_that_says_what_was_done(tmp_path, emulators):
    emails = [f"full{n}@example.com" for n in range(3)]
    emu = seeded(tmp_path, emails)
    emulators.append(emu)
    env = environment(tmp_path, emu)
    listing = tmp_path / "signups.txt"
    listing.write_text("\n".join(emails) + "\n")

    nowhere = authsh(env, "user", "confirm", "--from", str(listing), "--yes", "--report", str(tmp_path / "no" / "r.jsonl"))
    assert nowhere.returncode == 64, nowhere.stderr
    assert "(usage_error)" in nowhere.stderr and confirmed(env, emails) == [False] * 3

    done = authsh(env, "user", "confirm", "--from", str(listing), "--yes", "--report", "/dev/full")
    assert done.returncode == 74, done.stderr
    error = done.stderr[done.stderr.index("error: "):].replace("\n  ", " ")
    assert error.startswith("error: Cannot write the report /dev/full: No space left on device. The batch went on"
                            " without it: 3 accounts: 3 changed, 0 unchanged, 0 not found, 0 failed.")
    assert "(output_not_written)" in error and "usage_error" not in error
    assert confirmed(env, emails) == [True] * 3


def test_an_import_report_on_a_full_disk_is_an_io_error_too(tmp_path, emulators):
    emu = start_emulator()
    emulators.append(emu)
    env = environment(tmp_path, emu)
    export = tmp_path / "one.jsonl"
    export.write_text(json.dumps({"email": "imported@example.com"}) + "\n")
    done = authsh(env, "user", "import", str(export), "--yes", "--without-passwords", "--report", "/dev/full")
    assert done.returncode == 74, done.stdout + done.stderr
    assert "Imported 1 of 1 accounts" in done.stdout
    error = done.stderr.replace("\n  ", " ")
    assert "The report could not be written: No space left on device; the import went on without it" in error
    assert "(output_not_written)" in error


def test_the_hint_of_a_stopped_batch_is_a_command_that_finishes_it(tmp_path, emulators):
    emails = [f"leaver{n:03d}@example.com" for n in range(300)]
    emu = seeded(tmp_path, emails, "--latency-ms", "8")
    emulators.append(emu)
    env = environment(tmp_path, emu)
    listing = tmp_path / "del.txt"
    listing.write_text("\n".join(emails) + "\n")
    out = tmp_path / "del.jsonl"
    command = ["user", "delete", "--from", str(listing), "--yes", "--report", str(out)]
    process = subprocess.Popen([authsh_binary(), *command], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(0.8)
    assert process.poll() is None, "the batch ended before the signal"
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr[-2000:]
    hint = f"To finish the batch: the same command with --resume {out}"
    assert hint in stdout, stdout
    stopped = [json.loads(line) for line in out.read_text().splitlines()]
    left = sum(line["outcome"] != "changed" for line in stopped)
    assert left > 0

    # A list of another batch beside the report sends nothing.
    other = tmp_path / "other.txt"
    other.write_text(emails[0] + "\n")
    refused = authsh(env, "user", "delete", "--from", str(other), "--yes", "--resume", str(out))
    assert refused.returncode == 64 and f"is not the list of the batch in {out}" in refused.stderr

    # What the hint says, literally: the same command line with --resume added.
    done = authsh(env, *command, "--resume", str(out), "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    batch = json.loads(done.stdout)["batch"]
    assert batch["total"] == 300
    assert batch["outcomes"]["changed"] + batch["outcomes"]["unchanged"] == 300
    # Appended to the report: the first run's lines, then this run's.
    every = [json.loads(line) for line in out.read_text().splitlines()]
    assert every[:len(stopped)] == stopped and len(every) == len(stopped) + left
    gone = authsh(env, "user", "show", *emails[:5], "--json")
    assert gone.returncode == 1 and all(entry.get("user") is None for entry in json.loads(gone.stdout)["users"])
