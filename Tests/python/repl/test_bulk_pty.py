"""A bulk change on a real pseudo-terminal: one question for the whole batch ("Type 40 to
confirm"), a wrong answer changes nothing, the right one runs it with a progress line redrawn in
place on standard error (done/total, rate, ETA, failures), erased before the summary."""
import json
import re
import subprocess

import pytest

from conftest import authsh_binary
from test_oneshot_pty import OneShot, slow_down
from test_repl_pty import environment, provider, supabase_side_missing  # noqa: F401 (provider: a shared fixture)
from test_support_pty import seed


@pytest.fixture
def env(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    env.pop("CI", None)  # progress lines stay off in CI; these tests look for them
    if provider == "supabase":
        env["SUPABASE_SERVICE_ROLE_KEY"] = emulator.service_role_key
    return env


def disabled(env, emails):
    done = subprocess.run([authsh_binary(), "user", "show", *emails, "--json"], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    return [entry["user"]["disabled"] for entry in json.loads(done.stdout)["users"]]


def test_one_question_for_the_batch_then_a_progress_line(env, emulator, provider, tmp_path):
    emails = [f"b{n:02d}@example.com" for n in range(40)]
    seed(emulator, provider, emails)
    listing = tmp_path / "contractors.txt"
    listing.write_text("\n".join(emails) + "\n")

    wrong = OneShot(env, "user", "disable", "--from", str(listing), "--jobs", "2")
    wrong.child.expect_exact("user disable 40 accounts on ")
    wrong.child.expect_exact("Type 40 to confirm: ")
    wrong.child.sendline("yes")
    assert wrong.finish() == 130
    assert "nothing was changed" in wrong.screen.getvalue()
    assert disabled(env, emails) == [False] * 40

    slow_down(emulator, 40)  # every answer takes 40 ms: the batch lasts long enough to redraw
    run = OneShot(env, "user", "disable", "--from", str(listing), "--jobs", "2")
    run.child.expect_exact("Type 40 to confirm: ")
    run.child.sendline("40")
    status = run.finish()
    screen = run.screen.getvalue()
    assert status == 0, screen
    frames = re.findall(r"\r\x1b\[Kuser disable (\d+)/40 · \d+/s · (?:ETA \S+ · )?0 failed", screen)
    assert len(frames) >= 2, screen
    assert frames[-1] == "40" and int(frames[0]) < 40
    assert "ETA " in screen
    # Erased at the end, then the summary.
    assert "\r\x1b[K40 accounts: 40 changed, 0 unchanged, 0 not found, 0 failed." in screen.replace("\r\n", "\n")
    slow_down(emulator, 0)
    assert disabled(env, emails) == [True] * 40


def test_a_filtered_scan_on_firebase_shows_how_far_it_got(tmp_path, emulator):
    env = environment(tmp_path, emulator, "firebase")
    env.pop("CI", None)
    seed(emulator, "firebase", [f"s{n:02d}@example.com" for n in range(30)])
    slow_down(emulator, 30)
    run = OneShot(env, "user", "list", "--filter", "nobody-matches", "--limit", "5")
    assert run.finish() == 0
    screen = run.screen.getvalue()
    frames = re.findall(r"\r\x1b\[KScanned (\d+) accounts \((\d+) pages?\), 0 matches…", screen)
    assert [int(scanned) for scanned, _ in frames][:3] == [5, 10, 15], screen
    assert "No accounts match 'nobody-matches'." in screen
    slow_down(emulator, 0)
