"""`authsh emulator --port 0 --print-env` / `--json`: a CI job learns the port and keys from
machine-readable lines, and the emulator keeps serving; `authsh emulator faults clear` empties
the fault list of a running emulator. Every test starts the real binary."""
import json
import subprocess
import threading

import requests

from conftest import authsh_binary


def start(*flags):
    process = subprocess.Popen([authsh_binary(), "emulator", "--port", "0", *flags], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # A watchdog, so a missing line fails the test instead of hanging it.
    timer = threading.Timer(60, process.kill)
    timer.start()
    return process, timer


def stop(process, timer):
    timer.cancel()
    if process.poll() is None:
        process.terminate()
        process.wait(timeout=20)


def read_env(process):
    env = {}
    while "GOOGLE_CLOUD_PROJECT" not in env:
        line = process.stdout.readline()
        assert line, f"emulator ended early: {process.stderr.read()}"
        name, _, value = line.rstrip("\n").partition("=")
        env[name] = value
    return env


def test_print_env_gives_export_able_lines_and_keeps_serving(tmp_path):
    process, timer = start("--print-env")
    try:
        env = read_env(process)
        port = int(env["AUTHSH_EMULATOR_PORT"])
        assert port > 0
        assert env["SUPABASE_URL"] == env["AUTHSH_EMULATOR_URL"] == f"http://127.0.0.1:{port}"
        assert env["FIREBASE_AUTH_EMULATOR_HOST"] == f"127.0.0.1:{port}"
        assert env["AUTHSH_EMULATOR_CONSOLE_URL"] == f"http://127.0.0.1:{port}/_/"
        assert env["SUPABASE_ANON_KEY"].count(".") == 2 and env["SUPABASE_SERVICE_ROLE_KEY"].count(".") == 2
        assert env["FIREBASE_PROJECT_ID"] == env["GCLOUD_PROJECT"] == "demo-authsh"
        assert requests.get(env["SUPABASE_URL"] + "/auth/v1/health", timeout=5).status_code == 200
        # What was printed is enough for authsh itself, on both backends.
        child_env = {"HOME": "/nonexistent-authsh-home", "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": "/usr/bin:/bin", **env}
        for provider in ["supabase", "firebase"]:
            run = subprocess.run([authsh_binary(), "--provider", provider, "signup", f"ci-{provider}@example.com",
                                  "--name", "CI", "--password", "Ci-Pa55word-long", "--json"],
                                 env=child_env, capture_output=True, text=True, timeout=60)
            assert json.loads(run.stdout)["ok"] is True, run.stdout + run.stderr
        assert process.poll() is None, "still serving"
    finally:
        stop(process, timer)


def test_json_gives_one_ready_line():
    process, timer = start("--json", "--fault", "POST /auth/v1/token rate_limitx0")
    try:
        ready = json.loads(process.stdout.readline())
        assert ready["schema"] == 1 and ready["event"] == "ready"
        port = ready["port"]
        assert port > 0 and ready["url"] == f"http://127.0.0.1:{port}"
        assert ready["supabase"]["url"] == ready["url"]
        assert ready["console_url"] == ready["url"] + "/_/"
        assert ready["supabase"]["anon_key"] == ready["environment"]["SUPABASE_ANON_KEY"]
        assert ready["firebase"]["emulator_host"] == f"127.0.0.1:{port}"
        assert ready["firebase"]["project_id"] == "demo-authsh"
        faults = requests.get(ready["faults"], timeout=5).json()["faults"]
        assert [f["preset"] for f in faults] == ["rate_limit"]

        cleared = subprocess.run([authsh_binary(), "emulator", "faults", "clear", "--url", ready["url"]],
                                 capture_output=True, text=True, timeout=60)
        assert cleared.returncode == 0, cleared.stderr
        assert requests.get(ready["faults"], timeout=5).json()["faults"] == []
        token = requests.post(ready["supabase"]["auth_url"] + "/token?grant_type=password",
                              headers={"apikey": ready["supabase"]["anon_key"]},
                              json={"email": "nobody@example.com", "password": "whatever-password"}, timeout=5)
        assert token.status_code == 400, "the 429 fault is gone: an ordinary answer"
    finally:
        stop(process, timer)
