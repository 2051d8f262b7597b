"""Render time of the web console's accounts page (driver for bench/console.sh).

Seeds accounts as bench/emulator_admin.py does (both backends, no password hashing), then times
each page (lists with search, filters and paging, and one account's page) as the median of SAMPLES GETs over a keep-alive connection, client side (the loopback
round trip included), and prints it beside the 50 ms target.

Usage: python3 bench/console_bench.py BASE_URL SIZES...
"""
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from emulator_admin import SUPABASE_ADMIN, Client, email, seed  # noqa: E402

SAMPLES = 21
TARGET_MS = 50
PAGES = [
    ("SB page 1", "/_/?side=supabase"),
    ("SB last page", "/_/?side=supabase&page=999999"),
    ("SB by last sign-in", "/_/?side=supabase&sort=last_sign_in"),
    ("SB search", "/_/?side=supabase&q=user4242"),
    ("SB phone search", "/_/?side=supabase&q=%2B1+555+010+4242"),
    ("SB search+filter", "/_/?side=supabase&q=user42&confirmed=1&provider=email"),
    ("SB 2nd factor", "/_/?side=supabase&mfa=1"),
    ("SB one account", "/_/accounts/supabase/{sb_id}"),
    ("FB page 1", "/_/?side=firebase"),
    ("FB last page", "/_/?side=firebase&page=999999"),
    ("FB by last sign-in", "/_/?side=firebase&sort=last_sign_in"),
    ("FB search", "/_/?side=firebase&q=uid00042"),
    ("FB phone search", "/_/?side=firebase&q=555-010-4242"),
    ("FB search+filter", "/_/?side=firebase&q=user42&anonymous=1&phone=1"),
    ("FB one account", "/_/accounts/firebase/uid0000042"),
]


def median_ms(client, path):
    times = []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        client.request("GET", path)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def supabase_id(client, index):
    """The id of the Supabase account seeded with index `index` (its page's address)."""
    body = client.request("GET", f"/auth/v1/admin/users?filter=user{index}%40example.com", headers=SUPABASE_ADMIN)
    users = [user for user in json.loads(body)["users"] if user["email"] == email(index)]
    return users[0]["id"]


def main():
    base = sys.argv[1]
    sizes = sorted(int(size) for size in sys.argv[2:])
    for size, previous in zip(sizes, [0] + sizes):
        seed(base, previous, size)
        client = Client(base)  # a new connection: the last one may have idled out while seeding
        sb_id = supabase_id(client, 42)
        figures = [median_ms(client, path.format(sb_id=sb_id)) for _, path in PAGES]
        verdict = "all under" if max(figures) < TARGET_MS else "OVER"
        print(f"{size:>9} accounts a side, {verdict} {TARGET_MS} ms (slowest {max(figures):.2f} ms)", flush=True)
        for (name, _), ms in zip(PAGES, figures):
            print(f"          {name:<20} {ms:>8.2f} ms", flush=True)
    print(f"\nmedian ms per page over {SAMPLES} GETs on a keep-alive connection, client side;"
          f" the issue's target is {TARGET_MS} ms at 100,000 accounts.")


if __name__ == "__main__":
    main()
