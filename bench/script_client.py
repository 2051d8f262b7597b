#!/usr/bin/env python3
"""The official Python client side of bench/script.sh: sign up once, then time N
`SyncGoTrueClient.get_user()` calls against the same emulator; prints the median per-call time
of REPEAT rounds in milliseconds (one line: `python_ms_per_call <value>`)."""
import argparse
import http.client
import statistics
import time
import urllib.parse
import uuid

from supabase_auth import SyncGoTrueClient


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="Supabase Auth base, e.g. http://127.0.0.1:54321/auth/v1")
    parser.add_argument("--key", default="bench-anon-key")
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    client = SyncGoTrueClient(
        url=args.url, headers={"apikey": args.key, "Authorization": f"Bearer {args.key}"},
        auto_refresh_token=False, persist_session=False)
    email = f"bench-py-{uuid.uuid4()}@example.com"
    client.sign_up({"email": email, "password": "bench-password-1"})
    client.get_user()  # warm the connection, as authsh's signup warms its own
    rounds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for _ in range(args.n):
            if client.get_user() is None:
                raise SystemExit("get_user returned nothing")
        rounds.append((time.perf_counter() - start) * 1000 / args.n)
    print(f"python_ms_per_call {statistics.median(rounds):.4f}")
    # The floor: the same GET /user over one keep-alive http.client connection (almost no client
    # work), i.e. what the emulator itself costs per call.
    session = client.get_session()
    parts = urllib.parse.urlsplit(args.url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    headers = {"apikey": args.key, "Authorization": f"Bearer {session.access_token}"}
    floor = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for _ in range(args.n):
            connection.request("GET", parts.path + "/user", headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise SystemExit(f"GET /user answered {response.status}")
        floor.append((time.perf_counter() - start) * 1000 / args.n)
    print(f"floor_ms_per_call {statistics.median(floor):.4f}")


if __name__ == "__main__":
    main()
