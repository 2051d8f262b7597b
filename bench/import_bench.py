"""Driver for bench/import.sh: `authsh user import` of accounts with bcrypt hashes beside the
official admin SDKs doing the same work on the same emulator, as the project's targets state them:
  Supabase (20,000 accounts): at least 6x faster than supabase-auth admin.create_user in a loop
  Firebase (100,000 accounts): at least 1.5x faster than a firebase-admin script doing the whole job
    (bench/firebase_admin_import.py: read the file, build the ImportUserRecords, import_users in
    batches of 1,000), both timed the same way: from the start of the process to its exit
Supabase: the SDK runs first, so authsh meets the fuller emulator. Firebase: each side imports into
a project of its own on the same emulator (a project is a user store of its own), so both start from
an empty one. For information the bench also prints the Firebase SDK's calls alone (records already
built in memory, timed around import_users).

Usage: python bench/import_bench.py AUTHSH_BIN HOST:PORT SUPABASE_COUNT WORKDIR [FIREBASE_COUNT]
"""
import json
import os
import subprocess
import sys
import time
import uuid

import bcrypt
import firebase_admin
import jwt
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

PROJECT = "demo-authsh"
JWT_SECRET = "super-secret-jwt-token-with-at-least-32-characters-long"  # the emulator's default
TARGETS = {"supabase": 6.0, "firebase": 1.5}


def key(role):
    now = int(time.time())
    return jwt.encode({"iss": "supabase-demo", "role": role, "iat": now, "exp": now + 3600}, JWT_SECRET, algorithm="HS256")


def records(prefix, count, hashed):
    return [{"id": str(uuid.uuid4()), "email": f"{prefix}{i}@bench.example", "email_verified": True,
             "password_hash": hashed} for i in range(count)]


def run_authsh(binary, host, provider, path, work):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work, "NO_COLOR": "1",
           "XDG_CONFIG_HOME": os.path.join(work, "config"), "XDG_STATE_HOME": os.path.join(work, "state"),
           "SUPABASE_URL": f"http://{host}", "SUPABASE_ANON_KEY": key("anon"), "SUPABASE_SERVICE_ROLE_KEY": key("service_role"),
           "FIREBASE_AUTH_EMULATOR_HOST": host, "FIREBASE_API_KEY": "fake-api-key", "FIREBASE_PROJECT_ID": PROJECT}
    start = time.perf_counter()
    done = subprocess.run([binary, "user", "import", path, "--provider", provider, "--yes"],
                          env=env, capture_output=True, text=True, timeout=3600)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"authsh user import --provider {provider} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return elapsed, done.stdout.splitlines()[0]


def sdk_supabase(host, accounts):
    service = key("service_role")
    admin = SyncGoTrueClient(url=f"http://{host}/auth/v1", headers={"apikey": service, "Authorization": f"Bearer {service}"},
                             persist_session=False, auto_refresh_token=False).admin
    start = time.perf_counter()
    for r in accounts:
        admin.create_user({"id": r["id"], "email": r["email"], "email_confirm": True, "password_hash": r["password_hash"]})
    return time.perf_counter() - start


def sdk_firebase_calls(host, accounts):
    """firebase-admin import_users in batches of 1,000, timed around its calls alone (the records
    already built in memory)."""
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
    os.environ.pop("GOOGLE_APPLICATION_CREDENTIALS", None)
    app = firebase_admin.initialize_app(options={"projectId": PROJECT + "-calls"}, name=f"bench-{uuid.uuid4()}")
    users = [auth.ImportUserRecord(uid=r["id"], email=r["email"], email_verified=r.get("email_verified", False),
                                   password_hash=r["password_hash"].encode()) for r in accounts]
    start = time.perf_counter()
    for index in range(0, len(users), 1000):
        result = auth.import_users(users[index:index + 1000], hash_alg=auth.UserImportHash.bcrypt(), app=app)
        if result.failure_count:
            sys.exit(f"firebase-admin import_users: {result.errors[0].reason}")
    elapsed = time.perf_counter() - start
    firebase_admin.delete_app(app)
    return elapsed


def sdk_firebase_script(host, path, work):
    """The whole job as a person would script it (bench/firebase_admin_import.py), timed like authsh:
    from the start of its process to its exit."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "firebase_admin_import.py")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": work}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, script, host, PROJECT + "-sdk", path, "--bcrypt"], env=env, capture_output=True,
                          text=True, timeout=3600)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"bench/firebase_admin_import.py failed ({done.returncode}):\n{done.stderr}")
    return elapsed


def write(path, accounts):
    with open(path, "w") as out:
        out.writelines(json.dumps(r) + "\n" for r in accounts)


def main():
    binary, host, count, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    firebase_count = int(sys.argv[5]) if len(sys.argv) > 5 else 100_000
    hashed = bcrypt.hashpw(b"bench-password-1", bcrypt.gensalt(rounds=4)).decode()
    print("== user import (bcrypt hashes) into the emulator, beside the official SDKs")
    ok = True

    def verdict(provider, number, authsh_time, summary, sdk_time, label):
        speedup = sdk_time / authsh_time
        target = TARGETS[provider]
        print(f"{provider:9} authsh user import of {number:,}  {authsh_time:7.2f} s  {number / authsh_time:8,.0f} accounts/s"
              f"   ({summary})")
        print(f"{'':9} {label:46.46} {sdk_time:7.2f} s  {number / sdk_time:8,.0f} accounts/s")
        print(f"{'':9} authsh {speedup:.2f}x faster   {'OK' if speedup >= target else 'UNDER TARGET'} (target >= {target}x)")
        return speedup >= target

    # Supabase: the SDK's loop, then authsh on the same emulator.
    sdk_time = sdk_supabase(host, records("s-supabase-", count, hashed))
    path = os.path.join(work, "supabase.jsonl")
    write(path, records("a-supabase-", count, hashed))
    authsh_time, summary = run_authsh(binary, host, "supabase", path, work)
    ok = verdict("supabase", count, authsh_time, summary, sdk_time, "supabase-auth admin.create_user in a loop") and ok

    # Firebase: the SDK's whole script, then authsh; the SDK's calls alone for information.
    sdk_path = os.path.join(work, "firebase-sdk.jsonl")
    write(sdk_path, records("s-firebase-", firebase_count, hashed))
    script_time = sdk_firebase_script(host, sdk_path, work)
    path = os.path.join(work, "firebase.jsonl")
    write(path, records("a-firebase-", firebase_count, hashed))
    authsh_time, summary = run_authsh(binary, host, "firebase", path, work)
    ok = verdict("firebase", firebase_count, authsh_time, summary, script_time,
                 "firebase-admin script, whole job, from its start") and ok
    calls = sdk_firebase_calls(host, records("c-firebase-", firebase_count, hashed))
    print(f"{'':9} {'firebase-admin import_users calls alone':46.46} {calls:7.2f} s  {firebase_count / calls:8,.0f} "
          f"accounts/s   (authsh {calls / authsh_time:.2f}x; for information)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
