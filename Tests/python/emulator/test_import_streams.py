"""`user import` reads its file as a stream: a Firebase export of 100,000 accounts is checked whole
(the dry run counts every one) in the memory of a few records, not of the file."""
import json
import os
import subprocess

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
    process = subprocess.Popen([authsh_binary(), "user", "import", str(export), "--hash-config",
                                str(tmp_path / "hash.json"), "--dry-run"], env=env, stdin=subprocess.DEVNULL,
                               stdout=out, stderr=err)
    # Waited for here, not by Popen: wait4 gives this process's own peak resident memory.
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    err.seek(0)
    stdout, stderr = out.read(), err.read()
    assert process.returncode == 0, stderr
    assert f"{ACCOUNTS} accounts from" in stdout and f"{ACCOUNTS} would be imported" in stdout, stdout
    assert f"Firebase scrypt {ACCOUNTS}" in stdout, stdout
    peak = usage.ru_maxrss * 1024
    size = export.stat().st_size
    assert peak < 150 * 1024 * 1024, f"{peak >> 20} MB for a file of {size >> 20} MB"
