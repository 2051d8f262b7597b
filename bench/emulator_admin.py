"""Admin reads of `authsh emulator` at growing account counts (driver for bench/emulator-admin.sh).

Seeds accounts over keep-alive connections (Supabase `POST /admin/users` with a ready bcrypt
hash, Firebase `accounts:batchCreate` with `Bearer owner`, 1000 a call: no password hashing), then times, as the
median of SAMPLES requests each: an exact-e-mail filter and page 1 of the Supabase list, page 1
of Firebase `accounts:batchGet`, and the lookups (`GET /admin/users/{id}`, `accounts:lookup`).
Prints one table row per size with the emulator's resident memory.

Usage: python3 bench/emulator_admin.py BASE_URL EMULATOR_PID SIZES...
"""
import http.client
import json
import random
import statistics
import sys
import threading
import time
from urllib.parse import quote, urlparse

PROJECT = "demo-authsh"
# The emulator's secret key (the Supabase CLI's fixed local one), sent as `apikey` only.
SUPABASE_ADMIN = {"apikey": "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"}
SAMPLES = 41
SEED_THREADS = 4
# A bcrypt hash of "bench-password-1" (cost 4): creating an account hashes nothing.
BCRYPT = "$2b$04$me.dsM7ViF5eNXewNZ3VFeP4BRWk7CBJe1h2Y3hSNYniQERFeORHC"
# Before the indexes (every request sorted or scanned all accounts), from the issue.
BEFORE = {
    1_000: {"filter": "1.9", "sb_page": "1.9", "fb_page": "3"},
    10_000: {"filter": "18", "sb_page": "18"},
    20_000: {"fb_page": "31"},
    30_000: {"filter": "51", "sb_page": "51"},
}


class Client:
    def __init__(self, base):
        url = urlparse(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)

    def request(self, method, path, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        all_headers = {"Content-Type": "application/json"} if data else {}
        all_headers.update(headers or {})
        self.conn.request(method, path, body=data, headers=all_headers)
        response = self.conn.getresponse()
        payload = response.read()
        if response.status != 200:
            raise SystemExit(f"{method} {path}: HTTP {response.status} {payload[:200]!r}")
        return payload


def email(index):
    return f"user{index}@example.com"


def seed(base, start, stop):
    """Creates accounts start..stop-1 on both sides, over SEED_THREADS connections."""
    sb = SUPABASE_ADMIN
    fb = {"Authorization": "Bearer owner"}

    def work(offset):
        client = Client(base)
        for index in range(start + offset, stop, SEED_THREADS):
            client.request("POST", "/auth/v1/admin/users", {"email": email(index), "password_hash": BCRYPT,
                                                           "email_confirm": True}, sb)
        # Firebase: accounts:batchCreate, 1000 accounts a call.
        for first in range(start + offset * 1000, stop, SEED_THREADS * 1000):
            users = [{"localId": f"uid{index:07d}", "email": email(index)} for index in range(first, min(first + 1000, stop))]
            client.request("POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:batchCreate",
                           {"users": users}, fb)

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(SEED_THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def median_ms(client, requests):
    """Median wall time of the (method, path, body, headers) requests, in milliseconds."""
    times = []
    for method, path, body, headers in requests:
        started = time.perf_counter()
        client.request(method, path, body, headers)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure(base, size, pid):
    client = Client(base)
    sb = SUPABASE_ADMIN
    fb = {"Authorization": "Bearer owner"}
    picks = [random.randrange(size) for _ in range(SAMPLES)]
    # Supabase ids of the picked accounts, for GET /admin/users/{id}.
    ids = []
    for index in picks:
        page = json.loads(client.request("GET", "/auth/v1/admin/users?filter=" + quote(email(index)), headers=sb))
        ids.append(next(u["id"] for u in page["users"] if u["email"] == email(index)))
    toolkit = f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}"
    figures = {
        "filter": median_ms(client, [("GET", "/auth/v1/admin/users?filter=" + quote(email(i)), None, sb) for i in picks]),
        "sb_page": median_ms(client, [("GET", "/auth/v1/admin/users?page=1&per_page=50", None, sb)] * SAMPLES),
        "fb_page": median_ms(client, [("GET", toolkit + "/accounts:batchGet", None, fb)] * SAMPLES),
        "sb_get": median_ms(client, [("GET", "/auth/v1/admin/users/" + i, None, sb) for i in ids]),
        "fb_lookup": median_ms(client, [("POST", toolkit + "/accounts:lookup", {"email": [email(i)]}, fb) for i in picks]),
    }
    return figures, rss_mb(pid)


def before(size, name):
    return BEFORE.get(size, {}).get(name, "-")


def main():
    base, pid = sys.argv[1], int(sys.argv[2])
    sizes = sorted(int(size) for size in sys.argv[3:])
    random.seed(7)
    print(f"{'accounts':>9} | {'SB filter=EMAIL':>15} | {'SB page 1 (50)':>14} | {'FB batchGet p1':>14} |"
          f" {'SB GET /admin/users/{id}':>24} | {'FB lookup':>9} | {'RSS':>8} | seeded in")
    print("-" * 120)
    for size, previous in zip(sizes, [0] + sizes):
        started = time.perf_counter()
        seed(base, previous, size)
        seeded = time.perf_counter() - started
        figures, rss = measure(base, size, pid)
        print(f"{size:>9} | {figures['filter']:>6.2f} (was {before(size, 'filter'):>4}) |"
              f" {figures['sb_page']:>5.2f} (was {before(size, 'sb_page'):>4}) |"
              f" {figures['fb_page']:>5.2f} (was {before(size, 'fb_page'):>3}) |"
              f" {figures['sb_get']:>24.2f} | {figures['fb_lookup']:>9.2f} | {rss:>5.0f} MB | {seeded:.1f} s",
              flush=True)
    print("\nmedian ms per request over a keep-alive connection, client side (includes the loopback round trip);")
    print("'was': before the indexes (the issue's figures: SB at 1k/10k/30k, FB batchGet at 1k and 20k).")


if __name__ == "__main__":
    main()
