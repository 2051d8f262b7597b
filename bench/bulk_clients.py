"""The official Python admin SDKs for bench/bulk.sh: make the seed file, read the ids, and confirm
every account the way each SDK can, 8 threads at a time.

  seed N FILE                  write a seed of N unconfirmed accounts per set ("a" for authsh from
                               e-mails, "b" for the SDK, "c" for authsh from ids) on both backends,
                               and the "a" e-mails to FILE.emails
  ids PROVIDER PREFIX FILE     write the ids of the accounts whose e-mail starts with PREFIX
  supabase FILE.ids            supabase-auth admin.update_user_by_id(id, {"email_confirm": True})
  firebase FILE.ids            firebase-admin auth.update_user(uid, email_verified=True)
  check PROVIDER PREFIX        print how many accounts whose e-mail starts with PREFIX are confirmed
"""
import json
import os
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor

THREADS = int(os.environ.get("THREADS", "8"))


def seed(count, path):
    with open(path, "w") as f:
        for prefix in ("a", "b", "c"):
            for n in range(count):
                f.write(json.dumps({"backend": "both", "email": f"{prefix}{n:05d}@example.com", "confirmed": False}) + "\n")
    with open(path + ".emails", "w") as f:
        f.write("".join(f"a{n:05d}@example.com\n" for n in range(count)))


def gotrue():
    from supabase_auth import SyncGoTrueClient
    key = os.environ["SUPABASE_SERVICE_ROLE_KEY"]
    return SyncGoTrueClient(url=os.environ["SUPABASE_URL"] + "/auth/v1",
                            headers={"apikey": key, "Authorization": f"Bearer {key}"},
                            persist_session=False, auto_refresh_token=False)


def firebase_app():
    import firebase_admin
    return firebase_admin.initialize_app(options={"projectId": os.environ["FIREBASE_PROJECT_ID"]},
                                         name=f"bench-{uuid.uuid4()}")


def accounts(provider):
    """(email, id, confirmed) of every account."""
    if provider == "supabase":
        admin, page = gotrue().admin, 1
        while True:
            users = admin.list_users(page=page, per_page=1000)
            if not users:
                return
            for u in users:
                yield u.email, u.id, u.email_confirmed_at is not None
            page += 1
    else:
        from firebase_admin import auth
        for u in auth.list_users(app=firebase_app()).iterate_all():
            yield u.email, u.uid, u.email_verified


def ids(provider, prefix, path):
    with open(path, "w") as f:
        f.write("".join(f"{uid}\n" for email, uid, _ in accounts(provider) if email.startswith(prefix)))


def lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def supabase(path):
    admin = gotrue().admin
    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(lambda uid: admin.update_user_by_id(uid, {"email_confirm": True}), lines(path)))


def firebase(path):
    from firebase_admin import auth
    app = firebase_app()
    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(lambda uid: auth.update_user(uid, email_verified=True, app=app), lines(path)))


def check(provider, prefix):
    print(sum(1 for email, _, confirmed in accounts(provider) if email.startswith(prefix) and confirmed))


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    if command == "seed":
        seed(int(args[0]), args[1])
    elif command == "ids":
        ids(*args)
    elif command == "check":
        check(*args)
    else:
        {"supabase": supabase, "firebase": firebase}[command](*args)
