#!/usr/bin/env python3
"""The official Python client side of bench/script.sh: sign up once, then time N
`SyncGoTrueClient.get_user()` calls against the same emulator; prints the median per-call time
of REPEAT rounds in milliseconds (`python_ms_per_call <value>`), then the raw keep-alive floor
(`floor_ms_per_call`) and that loop's own user CPU time per call (`floor_client_cpu_us_per_call`)."""
import argparse
import re
import resource
import socket
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
    # The floor: the same GET /user written as raw bytes on one keep-alive socket and read back
    # by Content-Length (no HTTP library: a send and a recv or two per call, a few µs of Python),
    # i.e. what the emulator and the loopback wire cost per call.
    session = client.get_session()
    parts = urllib.parse.urlsplit(args.url)
    request = (f"GET {parts.path}/user HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
               f"apikey: {args.key}\r\nAuthorization: Bearer {session.access_token}\r\n\r\n").encode()
    sock = socket.create_connection((parts.hostname, parts.port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    floor = []
    cpu_start = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    for _ in range(args.repeat):
        start = time.perf_counter()
        for _ in range(args.n):
            raw_get(sock, request)
        floor.append((time.perf_counter() - start) * 1000 / args.n)
    sock.close()
    # The loop's own cost: the user-mode CPU time this process spent per call (the rest is the
    # kernel's socket calls, which any client makes, and waiting on the emulator).
    cpu_us = (resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu_start) * 1e6 / (args.n * args.repeat)
    print(f"floor_ms_per_call {statistics.median(floor):.4f}")
    print(f"floor_client_cpu_us_per_call {cpu_us:.1f}")


def raw_get(sock, request):
    """One request on `sock`; reads the whole answer (head, then Content-Length bytes)."""
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the emulator closed the connection")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"GET /user answered {head.split(b' ', 2)[1].decode()}")
    match = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    length = int(match.group(1)) if match else 0
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the emulator closed the connection")
        body += chunk


if __name__ == "__main__":
    main()
