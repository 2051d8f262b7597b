"""Issue 48: a crash leaves no secret on disk. authsh makes itself not dumpable and sets its core
limit to 0 first thing, in every mode: a login waiting on a server that never answers (its
password in memory) and `authsh emulator` (users' passwords in requests), each started by a shell
with `ulimit -c unlimited` in a directory of its own and then sent SIGSEGV, leave no core file.

A control process (`sleep`) crashed the same way shows that this kernel does write cores there;
when it does not (a core_pattern that pipes cores elsewhere), the limit in /proc is still checked.
"""
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import requests

from conftest import authsh_binary, free_port, user_env

PASSWORD = "pw-in-memory-48"


def start_in_shell(command: list, cwd: Path, env: dict, **kwargs) -> subprocess.Popen:
    """`command` exec'd by bash after `ulimit -c unlimited`, in `cwd`; Swift's own crash handler
    off, so SIGSEGV takes the kernel's default action (a core file, if allowed)."""
    quoted = " ".join("'" + part.replace("'", "'\\''") + "'" for part in command)
    return subprocess.Popen(["bash", "-c", f"ulimit -c unlimited && exec {quoted}"], cwd=cwd,
                            env={**env, "SWIFT_BACKTRACE": "enable=no"}, **kwargs)


def core_limit(pid: int) -> str:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max core file size"):
            return line
    raise AssertionError("no core line in /proc/PID/limits")


def crash(process: subprocess.Popen) -> int:
    process.send_signal(signal.SIGSEGV)
    process.wait(timeout=20)
    return process.returncode


def cores(directory: Path) -> list:
    return [p.name for p in directory.iterdir() if p.name.startswith("core")]


def kernel_writes_cores_here(tmp_path: Path) -> bool:
    """Whether an ordinary process crashed with `ulimit -c unlimited` leaves a core in its cwd."""
    control = tmp_path / "control"
    control.mkdir()
    process = start_in_shell(["sleep", "60"], control, dict(os.environ))
    time.sleep(0.3)
    assert core_limit(process.pid).split()[4] == "unlimited", "the shell raised the limit"
    crash(process)
    deadline = time.time() + 5
    while time.time() < deadline and not cores(control):
        time.sleep(0.1)
    return bool(cores(control))


def assert_guarded(process: subprocess.Popen, workdir: Path, dumps: bool):
    limit = core_limit(process.pid).split()
    assert limit[4:6] == ["0", "0"], f"soft and hard core limits are 0: {limit}"
    if os.geteuid() != 0:
        # A process that is not dumpable has its private /proc files given to root (the directory
        # /proc/PID itself, world-readable, keeps the user's id), so the same user cannot read
        # its memory or environment.
        assert os.stat(f"/proc/{process.pid}/mem").st_uid == 0
        assert os.stat(f"/proc/{process.pid}/environ").st_uid == 0
        try:
            Path(f"/proc/{process.pid}/environ").read_bytes()
            raise AssertionError("the same user read /proc/PID/environ of a process that is not dumpable")
        except PermissionError:
            pass
    assert crash(process) == -signal.SIGSEGV
    time.sleep(0.5 if dumps else 0)
    assert cores(workdir) == [], "no core file"


def test_a_waiting_login_leaves_no_core_when_it_crashes(tmp_path):
    dumps = kernel_writes_cores_here(tmp_path)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)  # accepts (the backlog), never answers
    port = listener.getsockname()[1]
    workdir = tmp_path / "work"
    workdir.mkdir()
    env = user_env(tmp_path, SUPABASE_URL=f"http://127.0.0.1:{port}", SUPABASE_ANON_KEY="anon-key-for-tests",
                   AUTHSH_CREDENTIAL_STORE="file")
    process = start_in_shell([authsh_binary(), "login", "ada@example.com", "--password-stdin"], workdir, env,
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        process.stdin.write(f"{PASSWORD}\n".encode())
        process.stdin.flush()
        listener.settimeout(20)
        connection, _ = listener.accept()  # the request carrying the password is on its way
        time.sleep(0.3)
        assert process.poll() is None, "still waiting for the answer"
        assert_guarded(process, workdir, dumps)
        connection.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        listener.close()


def test_the_emulator_leaves_no_core_when_it_crashes(tmp_path):
    dumps = kernel_writes_cores_here(tmp_path)
    workdir = tmp_path / "work"
    workdir.mkdir()
    port = free_port()
    process = start_in_shell([authsh_binary(), "emulator", "--port", str(port)], workdir, user_env(tmp_path),
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 20
        while True:
            try:
                requests.get(f"http://127.0.0.1:{port}/auth/v1/health", timeout=1)
                break
            except requests.RequestException:
                assert time.time() < deadline and process.poll() is None, "the emulator started"
                time.sleep(0.05)
        # A password in the emulator's memory, as a user's sign-up puts it there.
        requests.post(f"http://127.0.0.1:{port}/auth/v1/signup", json={"email": "ada@example.com",
                                                                       "password": PASSWORD}, timeout=5)
        assert_guarded(process, workdir, dumps)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
