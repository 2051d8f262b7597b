"""`cleanup` blocks and `run --data` against a running `authsh emulator` (so the accounts a run
leaves behind can be counted afterwards through the official admin client):

- a cleanup block runs after a failing test and after SIGINT, and `user delete` there needs no
  `--yes`: no account is left;
- `--data` with a 40-row CSV gives 40 test cases in the JUnit report, named `NAME[row N]`.
"""
import os
import json
import signal
import subprocess
import time
import xml.etree.ElementTree as ET

from supabase_auth import SyncGoTrueClient

from conftest import authsh_binary


def admin(emu):
    key = emu.service_role_key
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False).admin


def env(emu, home):
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"), "XDG_STATE_HOME": str(home / "state"),
        "SUPABASE_URL": emu.base, "SUPABASE_ANON_KEY": emu.anon_key,
        "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key, "NO_COLOR": "1",
    }


def emails(emu):
    return sorted(u.email for u in admin(emu).list_users(page=1, per_page=1000))


SCRIPT = """\
let email = "tidy-{{uuid}}@example.com"
secret pw = "pw-{{uuid}}"

test "makes an account, then fails"
user create {{email}} --password {{pw}} --confirmed
expect ok
assert user.email == "someone-else@example.com"

test "never reached when interrupted"
WAIT

cleanup
user delete {{email}}
expect ok
"""


def test_cleanup_runs_after_a_failing_test_and_deletes_without_yes(emulator, tmp_path):
    script = tmp_path / "tidy.auth"
    script.write_text(SCRIPT.replace("WAIT", "whoami\nexpect error not_authenticated"))
    done = subprocess.run([authsh_binary(), "run", str(script)], env=env(emulator, tmp_path),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 passed, 1 failed" in done.stdout, done.stdout
    assert emails(emulator) == [], "the cleanup block deleted the account the failing test made"


def test_cleanup_runs_after_sigint_and_the_run_exits_130(emulator, tmp_path):
    script = tmp_path / "tidy.auth"
    script.write_text(SCRIPT.replace('assert user.email == "someone-else@example.com"', "sleep 5s")
                      .replace("WAIT", "echo never reached"))
    report = tmp_path / "report.json"
    process = subprocess.Popen([authsh_binary(), "run", str(script), "--report-json", str(report)],
                               env=env(emulator, tmp_path), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and not emails(emulator):
        time.sleep(0.1)
    assert len(emails(emulator)) == 1, "the first test made its account"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=90)
    assert process.returncode == 130, out + err
    assert "Interrupted" in err
    assert emails(emulator) == [], "the cleanup block ran after Ctrl-C"
    # A CI job reading the report sees what the process said: interrupted, not passed.
    assert json.loads(report.read_text())["summary"]["exit_code"] == 130


def test_data_with_40_rows_gives_40_test_cases_in_junit(emulator, tmp_path):
    table = tmp_path / "table.csv"
    table.write_text("n,plan\n" + "".join(f"{i},{'pro' if i % 2 else 'free'}\n" for i in range(1, 41)))
    script = tmp_path / "rows.auth"
    script.write_text('let email = "row-{{n}}-{{uuid}}@example.com"\n'
                      'test "account {{n}} on {{plan}}"\n'
                      'user create {{email}} --password "pw-{{uuid}}" --confirmed\n'
                      'assert user.email == {{email}}\n'
                      'cleanup\nuser delete {{email}}\n')
    junit = tmp_path / "out.xml"
    done = subprocess.run([authsh_binary(), "run", str(script), "--data", str(table), "--jobs", "4",
                           "--report-junit", str(junit)], env=env(emulator, tmp_path),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "40 passed, 0 failed" in done.stdout
    cases = ET.parse(junit).getroot().iter("testcase")
    names = sorted(case.get("name") for case in cases)
    assert len(names) == 40
    assert "account 3 on pro[row 3]" in names and "account 40 on free[row 40]" in names
    assert emails(emulator) == []


def test_bad_data_files_are_usage_errors_and_nothing_runs(emulator, tmp_path):
    script = tmp_path / "rows.auth"
    script.write_text('user create "x-{{n}}@example.com" --password "pw-long-enough-1"\n')
    for name, text, message in [
        ("empty.csv", "n\n", "has no rows"),
        ("ragged.csv", "n,plan\n1\n", "has 1 fields"),
        ("names.csv", "first name\nAda\n", "is not a variable name"),
        ("rows.jsonl", '{"n": 1}\n[2]\n', "is not a JSON object"),
    ]:
        table = tmp_path / name
        table.write_text(text)
        done = subprocess.run([authsh_binary(), "run", str(script), "--data", str(table)], env=env(emulator, tmp_path),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        assert done.returncode == 64, (name, done.stdout, done.stderr)
        assert message in done.stderr, (name, done.stderr)
    assert emails(emulator) == []
