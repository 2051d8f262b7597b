"""`user export --db` reaches PostgreSQL through libpq, which authsh loads at run time (dlopen)
for that command alone: start-up and other commands never map it, and where it cannot be loaded
the export says which package to install, with the exit status of a failed connection (3)."""
import os
import subprocess

from conftest import authsh_binary

PASSWORD = "no-such-db-pw-71c3"
URL = f"postgres://postgres:{PASSWORD}@127.0.0.1:9/postgres?sslmode=disable"


def base_env(tmp_path):
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1",
            "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state")}


def run(command, tmp_path, extra=None):
    return subprocess.run(command, env={**base_env(tmp_path), **(extra or {})}, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)


def export_args():
    return [authsh_binary(), "user", "export", "--provider", "supabase", "--db", URL]


def test_libpq_is_mapped_only_by_an_export_from_a_database(tmp_path):
    version = run([authsh_binary(), "--version"], tmp_path, {"LD_DEBUG": "files"})
    assert version.returncode == 0 and "libpq" not in version.stderr
    done = run(export_args(), tmp_path, {"LD_DEBUG": "files"})
    assert "libpq.so.5" in done.stderr
    # A closed port: libpq ran and said refused.
    plain = run(export_args(), tmp_path)
    assert plain.returncode == 3, plain.stderr
    assert "Could not connect to the database at 127.0.0.1:9: connection refused" in plain.stderr
    assert PASSWORD not in plain.stdout + plain.stderr


def test_without_libpq_the_export_names_the_package(tmp_path):
    # A private mount namespace where the file behind libpq.so.5 is empty (/dev/null bound over
    # it): dlopen fails there as it does on a machine without libpq5, and nowhere else.
    hide = ('set -e; for f in $(ldconfig -p | sed -n "s/.*libpq\\.so\\.5 .*=> //p"); do '
            'mount --bind /dev/null "$(readlink -f "$f")"; done; exec "$@"')
    namespace = ["unshare", "--mount"] if os.geteuid() == 0 else ["unshare", "--map-root-user", "--mount"]
    done = run([*namespace, "sh", "-c", hide, "sh", *export_args()], tmp_path)
    assert done.returncode == 3, done.stderr
    assert "libpq.so.5 could not be loaded" in done.stderr
    assert "apt install libpq5" in done.stderr and "network_unreachable" in done.stderr
    assert done.stdout == "" and PASSWORD not in done.stderr


def test_a_server_that_never_answers_times_out_within_the_timeout(tmp_path):
    import socket
    import time
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        port = silent.getsockname()[1]
        url = f"postgres://postgres:{PASSWORD}@127.0.0.1:{port}/postgres?sslmode=disable"
        started = time.monotonic()
        done = run([authsh_binary(), "user", "export", "--provider", "supabase", "--db", url, "--timeout", "2s"], tmp_path)
        elapsed = time.monotonic() - started
    assert done.returncode == 3, done.stderr
    assert f"Could not connect to the database at 127.0.0.1:{port}: no answer (timed out)" in done.stderr
    assert 1.5 < elapsed < 15 and PASSWORD not in done.stderr
