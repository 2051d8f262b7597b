"""`user import` reads its file as a stream: a Firebase export of 100,000 accounts is checked whole
(the dry run counts every one) in the memory of a few records, not of the file."""
import json
import subprocess

import peak_memory

from conftest import authsh_binary
from hashes import hash_config
from one_shot import environment

ACCOUNTS = 100_000


def test_a_large_firebase_export_is_read_in_bounded_memory(emulator, tmp_path):
    export = tmp_path / "users.json"
    with export.open("w") as out:
        # As firebase-tools writes it: one account a line inside {"users": [ … ]}.
        out.write('{"users": [\n')
        for i in range(ACCOUNTS):
            user = {"localId": f"uid{i:06d}", "email": f"person{i}@bulk.example", "emailVerified": True,
                    "passwordHash": "c2NyeXB0LWhhc2gtb2YtYS1wZXJzb24tMDAwMDAwMDA=", "salt": "c2FsdC0xMjM0",
                    "displayName": f"Person {i}, the {i}th", "createdAt": "1700000000000"}
            out.write(json.dumps(user) + (",\n" if i < ACCOUNTS - 1 else "\n"))
        out.write("]}\n")
    (tmp_path / "hash.json").write_text(json.dumps(hash_config(emulator)))
    env = environment(tmp_path, emulator, "supabase")
    out, err = (tmp_path / "stdout").open("w+"), (tmp_path / "stderr").open("w+")
    # Measured in a small launcher: a child of this (large) pytest worker would be charged its size.
    status, peak = peak_memory.run([authsh_binary(), "user", "import", str(export), "--hash-config",
                                    str(tmp_path / "hash.json"), "--dry-run"], env=env, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=err)
    out.seek(0)
    err.seek(0)
    stdout, stderr = out.read(), err.read()
    assert status == 0, stderr
    assert f"{ACCOUNTS} accounts from" in stdout and f"{ACCOUNTS} would be imported" in stdout, stdout
    assert f"Firebase scrypt {ACCOUNTS}" in stdout, stdout
    size = export.stat().st_size
    assert peak < 150 * 1024 * 1024, f"{peak >> 20} MB for a file of {size >> 20} MB"


def test_the_measure_is_the_commands_own_not_the_test_processs():
    # This process grows by 200 MB; a command measured from it must not be charged for that.
    ballast = bytearray(b"x") * (200 << 20)
    status, peak = peak_memory.run(["/bin/true"])
    assert status == 0 and len(ballast) == 200 << 20
    assert peak < 40 << 20, f"{peak >> 20} MB for /bin/true"
