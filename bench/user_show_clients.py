"""The official Python clients for bench/user-show.sh: seed accounts, and look them all up the way
each SDK can, sequentially (as a support script would).

  seed PROVIDER N FILE          create N accounts, write their e-mails to FILE (ids to FILE.ids)
  firebase FILE                 firebase_admin auth.get_user_by_email for every line
  supabase FILE.ids             supabase_auth admin get_user_by_id for every id (the admin API
                                has no lookup by e-mail)
"""
import os
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor

import requests


def seed(provider, count, path):
    base = os.environ["BENCH_BASE"]
    emails = [f"bench{n:05d}@example.com" for n in range(count)]
    session = requests.Session()
    if provider == "supabase":
        headers = {"apikey": os.environ["SUPABASE_SERVICE_ROLE_KEY"],
                   "Authorization": "Bearer " + os.environ["SUPABASE_SERVICE_ROLE_KEY"]}

        def create(email):
            r = session.post(f"{base}/auth/v1/admin/users", headers=headers,
                             json={"email": email, "password": "bench-password-1", "email_confirm": True}, timeout=30)
            r.raise_for_status()
            return r.json()["id"]
    else:
        project = os.environ["FIREBASE_PROJECT_ID"]
        url = f"{base}/identitytoolkit.googleapis.com/v1/projects/{project}/accounts"

        def create(email):
            r = session.post(url, headers={"Authorization": "Bearer owner"},
                             json={"email": email, "password": "bench-password-1", "emailVerified": True}, timeout=30)
            r.raise_for_status()
            return r.json()["localId"]
    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(create, emails))
    with open(path, "w") as f:
        f.write("\n".join(emails) + "\n")
    with open(path + ".ids", "w") as f:
        f.write("\n".join(ids) + "\n")


def lines(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def firebase(path):
    import firebase_admin
    from firebase_admin import auth
    app = firebase_admin.initialize_app(options={"projectId": os.environ["FIREBASE_PROJECT_ID"]},
                                        name=f"bench-{uuid.uuid4()}")
    found = sum(1 for email in lines(path) if auth.get_user_by_email(email, app=app).email == email)
    print(found)


def supabase(path):
    from supabase_auth import SyncGoTrueAdminAPI
    key = os.environ["SUPABASE_SERVICE_ROLE_KEY"]
    admin = SyncGoTrueAdminAPI(url=os.environ["BENCH_BASE"] + "/auth/v1",
                               headers={"apikey": key, "Authorization": f"Bearer {key}"})
    found = sum(1 for uid in lines(path) if admin.get_user_by_id(uid).user.id == uid)
    print(found)


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "seed":
        seed(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif command == "firebase":
        firebase(sys.argv[2])
    elif command == "supabase":
        supabase(sys.argv[2])
