"""Issue 48, through the real binary: exit codes that match docs/exit-codes-and-json.md, and secrets that stay put.

- `run` under a profile that does not exist, or whose key variable is unset, stops with one
  configuration error (exit 78) before any test runs; `echo whoami | authsh` with nothing
  configured exits 78 as the one-shot does;
- `--password VALUE` on a one-shot command line warns once, on standard error only;
- `authsh run secrets.env` is refused without a line of the file on the console or in the report;
- JUnit `file=` and TAP `file:` carry the path of a `--data` run, the row in the test name;
- a report that is the very file standard output goes to is refused, the console lines kept.
"""
import json
import os
import subprocess
from pathlib import Path

from conftest import authsh_binary, user_env

PASSWORD = "correct-horse-48"


def authsh(env, *args, stdin=subprocess.DEVNULL, **kwargs):
    return subprocess.run([authsh_binary(), *map(str, args)], env=env, stdin=stdin, capture_output=True, text=True,
                          timeout=90, **kwargs)


def script(tmp_path: Path, count: int = 3) -> list:
    paths = []
    for index in range(count):
        path = tmp_path / f"0{index}_check.auth"
        path.write_text(f'test "status {index}"\n  status\n  expect ok\n')
        paths.append(path)
    return paths


def write_config(tmp_path: Path, text: str):
    config = tmp_path / "config" / "authsh" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(text)
    os.chmod(config, 0o600)
    return config


# ---- run under a broken profile: one configuration error, before any test ----------------------

def test_run_under_a_profile_that_does_not_exist_is_one_config_error(tmp_path):
    write_config(tmp_path, '[profiles.work]\nprovider = "supabase"\nurl = "http://127.0.0.1:9"\nkey_env = "K"\n')
    result = authsh(user_env(tmp_path, K="anon"), "--profile", "nope", "run", *script(tmp_path))
    assert result.returncode == 78, result.stdout + result.stderr
    assert result.stderr.count("error:") == 1, result.stderr
    assert "Profile 'nope' is not defined" in result.stderr
    assert "passed" not in result.stdout and "assertion failed" not in result.stdout + result.stderr


def test_run_under_a_profile_whose_key_variable_is_unset_is_one_config_error(tmp_path):
    write_config(tmp_path, '[profiles.work]\nprovider = "supabase"\nurl = "http://127.0.0.1:9"\n'
                           'key_env = "WORK_KEY"\n')
    result = authsh(user_env(tmp_path, AUTHSH_PROFILE="work"), "run", *script(tmp_path), "--report-json",
                    tmp_path / "r.json")
    assert result.returncode == 78, result.stdout + result.stderr
    assert result.stderr.count("error:") == 1, result.stderr
    assert 'key_env = "WORK_KEY" in [profiles.work] names an environment variable that is not set' in result.stderr
    assert "assertion failed" not in result.stdout + result.stderr
    assert not (tmp_path / "r.json").exists(), "no test ran, no report"


def test_piped_commands_with_nothing_configured_exit_78_as_the_one_shot_does(tmp_path):
    env = user_env(tmp_path)
    one_shot = authsh(env, "whoami")
    piped = authsh(env, input="whoami\n", stdin=None)
    assert one_shot.returncode == 78, one_shot.stderr
    assert piped.returncode == 78, piped.stdout + piped.stderr
    assert "No backend is configured." in piped.stderr


# ---- --password VALUE on the command line ---------------------------------------------------------

def test_password_on_the_command_line_warns_once_on_stderr_only(tmp_path, emulator):
    env = user_env(tmp_path, emulator, AUTHSH_CREDENTIAL_STORE="file", AUTHSH_TEST_PW=PASSWORD)
    quiet = authsh(env, "signup", "ada@example.com", "--name", "Ada", "--password-env", "AUTHSH_TEST_PW", "--json")
    assert quiet.returncode == 0, quiet.stderr
    assert "warning" not in quiet.stderr
    result = authsh(env, "login", "ada@example.com", "--password", PASSWORD, "--json")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, result.stderr
    assert "--password-stdin" in warnings[0] and "--password-env" in warnings[0]
    assert "/proc/PID/cmdline" in warnings[0]
    doc = json.loads(result.stdout)  # standard output is the JSON document alone
    assert doc["ok"] is True and "warning" not in result.stdout
    assert PASSWORD not in result.stdout + result.stderr


# ---- run of a file that is not .auth ----------------------------------------------------------------

def test_run_of_a_file_that_is_not_auth_is_refused_without_echoing_it(tmp_path):
    secrets = tmp_path / "secrets.env"
    secrets.write_text("SUPABASE_SERVICE_ROLE_KEY=sk-very-secret-value-1\nDB_PASSWORD=hunter2-secret-value-2\n")
    report = tmp_path / "r.json"
    result = authsh(user_env(tmp_path), "run", "--emulator", secrets, "--report-json", report)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"'{secrets}' is not an .auth script" in result.stderr
    everything = result.stdout + result.stderr + report.read_text()
    for secret in ("sk-very-secret-value-1", "hunter2-secret-value-2", "SUPABASE_SERVICE_ROLE_KEY", "DB_PASSWORD"):
        assert secret not in everything


# ---- reports: the path of a --data run; standard output as a report ---------------------------------

def test_junit_and_tap_carry_the_real_path_of_a_data_run(tmp_path):
    data_script = tmp_path / "05_data.auth"
    data_script.write_text('test "row"\necho {{name}}\nwhoami\nexpect ok\n')  # not signed in: fails
    table = tmp_path / "rows.csv"
    table.write_text("name\nada\nbob\ncy\n")
    junit, tap = tmp_path / "r.xml", tmp_path / "r.tap"
    result = authsh(user_env(tmp_path), "run", "--emulator", data_script, "--data", table, "--report-junit", junit,
                    "--report-tap", tap)
    assert result.returncode == 1, result.stdout + result.stderr
    xml, text = junit.read_text(), tap.read_text()
    assert xml.count(f'file="{data_script}" ') == 3, xml
    assert "[row" not in "".join(part.split('"')[1] for part in xml.split("file=")[1:])
    assert 'name="row[row 3]"' in xml
    assert text.count(f'file: "{data_script}"\n') == 3, text
    assert f"not ok 3 - {data_script}: row[row 3]\n" in text
    assert f"{data_script}[row" not in text


def test_a_report_that_is_standard_output_s_file_is_refused_keeping_the_console(tmp_path):
    (tmp_path / "a.auth").write_text('test "one"\n  let x = "1"\n')
    out = tmp_path / "out.txt"
    with open(out, "w") as stdout:
        result = subprocess.run([authsh_binary(), "run", "--emulator", "a.auth", "--report-tap", "/dev/stdout"],
                                env=user_env(tmp_path), cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=stdout,
                                stderr=subprocess.PIPE, text=True, timeout=90)
    assert result.returncode == 64, result.stderr
    assert "--report-tap /dev/stdout: it is the file standard output goes to" in result.stderr
    # A pipe keeps both: the console lines, then the TAP.
    piped = authsh(user_env(tmp_path), "run", "--emulator", "a.auth", "--report-tap", "/dev/stdout", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert "1 passed" in piped.stdout and "TAP version 13" in piped.stdout
