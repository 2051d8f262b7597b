"""Driver for bench/import.sh: `authsh user import` of 20,000 accounts with bcrypt hashes beside the
official admin SDKs doing the same work on the same emulator, as the project's targets state them:
  Supabase: at least 6x faster than supabase-auth admin.create_user in a loop (one thread)
  Firebase: at least 1.5x faster than firebase-admin import_users in batches of 1,000
The SDKs run first, so authsh meets the fuller emulator. The SDKs are timed around their calls alone
(records already built in memory); authsh from the start of its process to its exit. For Firebase the
bench also prints the SDK doing the same work as authsh (reading the file, building the records).

Usage: python bench/import_bench.py AUTHSH_BIN HOST:PORT COUNT WORKDIR
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


def sdk_firebase(host, accounts, path):
    """firebase-admin import_users in batches of 1,000. Returns the time of its calls alone (the
    records already built) and the time of the same work authsh does: reading the file, building the
    records, importing them (the interpreter's start and imports excluded)."""
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
    os.environ.pop("GOOGLE_APPLICATION_CREDENTIALS", None)
    app = firebase_admin.initialize_app(options={"projectId": PROJECT}, name=f"bench-{uuid.uuid4()}")
    with open(path, "w") as out:
        out.writelines(json.dumps(r) + "\n" for r in accounts)
    begin = time.perf_counter()
    with open(path) as lines:
        users = [auth.ImportUserRecord(uid=r["id"], email=r["email"], email_verified=r.get("email_verified", False),
                                       password_hash=r["password_hash"].encode()) for r in map(json.loads, lines)]
    start = time.perf_counter()
    for index in range(0, len(users), 1000):
        result = auth.import_users(users[index:index + 1000], hash_alg=auth.UserImportHash.bcrypt(), app=app)
        if result.failure_count:
            sys.exit(f"firebase-admin import_users: {result.errors[0].reason}")
    end = time.perf_counter()
    firebase_admin.delete_app(app)
    return end - start, end - begin


def main():
    binary, host, count, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    hashed = bcrypt.hashpw(b"bench-password-1", bcrypt.gensalt(rounds=4)).decode()
    print(f"== user import of {count:,} accounts (bcrypt hashes) into the emulator, beside the official SDKs")
    ok = True
    for provider, label in [("supabase", "supabase-auth admin.create_user in a loop"),
                            ("firebase", "firebase-admin import_users, batches of 1,000")]:
        sdk_accounts = records(f"s-{provider}-", count, hashed)
        if provider == "supabase":
            sdk_time, whole = sdk_supabase(host, sdk_accounts), None
        else:
            sdk_time, whole = sdk_firebase(host, sdk_accounts, os.path.join(work, "sdk.jsonl"))
        path = os.path.join(work, f"{provider}.jsonl")
        with open(path, "w") as out:
            out.writelines(json.dumps(r) + "\n" for r in records(f"a-{provider}-", count, hashed))
        authsh_time, summary = run_authsh(binary, host, provider, path, work)
        speedup = sdk_time / authsh_time
        target = TARGETS[provider]
        ok = ok and speedup >= target
        print(f"{provider:9} authsh user import     {authsh_time:7.2f} s  {count / authsh_time:8,.0f} accounts/s   ({summary})")
        print(f"{'':9} {label:46.46} {sdk_time:7.2f} s  {count / sdk_time:8,.0f} accounts/s")
        print(f"{'':9} authsh {speedup:.2f}x faster   {'OK' if speedup >= target else 'UNDER TARGET'} (target >= {target}x)")
        if whole is not None:
            print(f"{'':9} {'the same, reading the file and building records':46.46} {whole:7.2f} s  "
                  f"{count / whole:8,.0f} accounts/s   (authsh {whole / authsh_time:.2f}x faster; for information)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
