"""Every account on a side of the emulator, read through its admin APIs page by page (firebase
`accounts:batchGet` as the owner, GoTrue `GET /admin/users` with the service role)."""
import requests


def firebase_accounts(emu):
    users, token = [], None
    while True:
        params = {"maxResults": 1000, **({"nextPageToken": token} if token else {})}
        r = requests.get(f"{emu.base}/identitytoolkit.googleapis.com/v1/projects/{emu.project}/accounts:batchGet",
                         params=params, headers={"Authorization": "Bearer owner"}, timeout=30)
        assert r.status_code == 200, r.text
        users += r.json().get("users", [])
        token = r.json().get("nextPageToken")
        if not token:
            return users


def supabase_accounts(emu):
    users, page = [], 1
    headers = {"apikey": emu.service_role_key, "Authorization": f"Bearer {emu.service_role_key}"}
    while True:
        r = requests.get(f"{emu.supabase_url}/admin/users", params={"page": page, "per_page": 1000}, headers=headers,
                         timeout=30)
        assert r.status_code == 200, r.text
        batch = r.json()["users"]
        users += batch
        if len(batch) < 1000:
            return users
        page += 1
