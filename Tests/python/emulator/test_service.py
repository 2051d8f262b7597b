"""The emulator as a long-running service: idle connections, a low descriptor limit, one process
per state file, and a clean stop on SIGTERM/SIGINT. Every test starts the real binary."""
import os
import resource
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import time

import pytest
import requests

from conftest import JWT_SECRET, PROJECT, authsh_binary, free_port, start_emulator


def spawn(*extra_args, nofile=None):
    """Starts `authsh emulator` (optionally under `ulimit -n NOFILE`) and waits until it answers."""
    port = free_port()
    args = [authsh_binary(), "emulator", "--port", str(port), "--jwt-secret", JWT_SECRET, "--project", PROJECT,
            *extra_args]

    def limit():
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=limit)
    deadline = time.time() + 20
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"emulator exited with {process.returncode}: {process.stderr.read()}")
        try:
            if requests.get(f"http://127.0.0.1:{port}/auth/v1/health", timeout=1).status_code == 200:
                return port, process
        except requests.RequestException:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("emulator did not become ready within 20 s")


def stop(process):
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def half_open(port, count):
    """Connections that send part of a request head and then nothing."""
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /auth/v1/health HTTP/1.1\r\nHost: x\r\n")
        sockets.append(s)
    return sockets


def closed_by_server(s, timeout):
    s.settimeout(timeout)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_connections_without_a_complete_request_are_closed():
    port, process = spawn("--idle-timeout", "1")
    try:
        slow = half_open(port, 5)
        trickle = socket.create_connection(("127.0.0.1", port), timeout=5)
        started = time.monotonic()
        for byte in b"GET /auth/v1/health HTTP/1.1\r\n":  # one byte every 0.1 s: never a whole head in time
            if time.monotonic() - started > 3:
                break
            try:
                trickle.send(bytes([byte]))
            except OSError:
                break
            time.sleep(0.1)
        assert closed_by_server(trickle, 10)
        assert all(closed_by_server(s, 10) for s in slow)
        # A keep-alive connection that answered a request and then idles is closed too.
        with requests.Session() as session:
            assert session.get(f"http://127.0.0.1:{port}/auth/v1/health", timeout=5).status_code == 200
        keep = socket.create_connection(("127.0.0.1", port), timeout=5)
        keep.sendall(b"GET /auth/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        keep.settimeout(5)
        assert b"200 OK" in keep.recv(4096)
        assert closed_by_server(keep, 10)
        for s in slow + [trickle, keep]:
            s.close()
    finally:
        stop(process)


def test_low_descriptor_limit_keeps_answering_without_spinning():
    # ulimit -n 64, three times as many idle connections: the emulator stops accepting below the
    # limit instead of failing accept() in a loop, and makes room for new clients by closing the
    # connections idle longest (well before the 30 s idle timeout).
    port, process = spawn(nofile=64)
    sockets = []
    try:
        sockets = half_open(port, 200)
        before = cpu_seconds(process.pid)
        time.sleep(1.5)
        busy = cpu_seconds(process.pid) - before
        assert busy < 0.5, f"the emulator used {busy:.2f} s of CPU in 1.5 s while idle connections waited"
        for _ in range(3):
            r = requests.get(f"http://127.0.0.1:{port}/auth/v1/health", timeout=15)
            assert r.status_code == 200
        assert process.poll() is None
    finally:
        for s in sockets:
            s.close()
        stop(process)


def test_a_second_emulator_on_the_same_state_file_refuses_to_start(tmp_path):
    state = tmp_path / "state.sqlite"
    first = start_emulator("--state", str(state))
    try:
        second = subprocess.run(
            [authsh_binary(), "emulator", "--port", str(free_port()), "--state", str(state)],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        assert second.returncode != 0
        assert "in use by another emulator" in second.stderr
        assert str(state) in second.stderr
        assert requests.get(f"{first.supabase_url}/health", timeout=5).status_code == 200
    finally:
        first.stop()
    # Once the first one stopped, the file can be used again.
    again = start_emulator("--state", str(state))
    again.stop()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_checkpoints_and_closes_the_state_file(tmp_path, sig):
    state = tmp_path / "state.sqlite"
    emu = start_emulator("--state", str(state))
    try:
        r = requests.post(f"{emu.supabase_url}/signup", json={"email": "kept@example.com", "password": "hunter22"},
                          timeout=5)
        assert r.status_code == 200
        for suffix in ["", "-wal", "-shm"]:
            path = str(state) + suffix
            if os.path.exists(path):
                assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, f"{path} is not 0600"
        emu.process.send_signal(sig)
        assert emu.process.wait(timeout=15) == 0
    finally:
        emu.stop()
    wal = str(state) + "-wal"
    assert not os.path.exists(wal) or os.path.getsize(wal) == 0
    alone = tmp_path / "copy" / "state.sqlite"
    alone.parent.mkdir()
    shutil.copyfile(state, alone)  # the main file only, no -wal
    with sqlite3.connect(alone) as db:
        rows = db.execute("SELECT doc FROM documents WHERE tbl = 'supabase_users'").fetchall()
    assert any("kept@example.com" in doc for (doc,) in rows)


def test_unreadable_rows_are_reported_at_start_up(tmp_path):
    state = tmp_path / "state.sqlite"
    emu = start_emulator("--state", str(state))
    requests.post(f"{emu.supabase_url}/signup", json={"email": "fine@example.com", "password": "hunter22"}, timeout=5)
    emu.stop()
    with sqlite3.connect(state) as db:
        db.execute("INSERT INTO documents(tbl, key, doc) VALUES('supabase_users', 'torn-row-id', '{\"id\": ')")
    port, process = spawn("--state", str(state))
    try:
        assert requests.post(f"http://127.0.0.1:{port}/auth/v1/token?grant_type=password",
                             json={"email": "fine@example.com", "password": "hunter22"}, timeout=5).status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=15)
    assert "could not be read" in err
    assert "supabase_users: 1 row (torn-row-id)" in err
