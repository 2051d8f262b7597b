"""Render time of the web console's accounts page (driver for bench/console.sh).

Seeds accounts as bench/emulator_admin.py does (both backends, no password hashing), then times
each page as the median of SAMPLES GETs over a keep-alive connection, client side (the loopback
round trip included), and prints it beside the 50 ms target.

Usage: python3 bench/console_bench.py BASE_URL SIZES...
"""
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from emulator_admin import Client, seed  # noqa: E402

SAMPLES = 21
TARGET_MS = 50
PAGES = [
    ("SB page 1", "/_/?side=supabase"),
    ("SB last page", "/_/?side=supabase&page=999999"),
    ("SB by last sign-in", "/_/?side=supabase&sort=last_sign_in"),
    ("SB search", "/_/?side=supabase&q=user4242"),
    ("FB page 1", "/_/?side=firebase"),
    ("FB search", "/_/?side=firebase&q=uid00042"),
]


def median_ms(client, path):
    times = []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        client.request("GET", path)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main():
    base = sys.argv[1]
    sizes = sorted(int(size) for size in sys.argv[2:])
    client = Client(base)
    print(f"{'accounts':>9} | " + " | ".join(f"{name:>18}" for name, _ in PAGES) + " | target")
    print("-" * (22 + 21 * len(PAGES)))
    for size, previous in zip(sizes, [0] + sizes):
        seed(base, previous, size)
        figures = [median_ms(client, path) for _, path in PAGES]
        verdict = "all under" if max(figures) < TARGET_MS else "OVER"
        print(f"{size:>9} | " + " | ".join(f"{ms:>15.2f} ms" for ms in figures) + f" | {verdict} {TARGET_MS} ms",
              flush=True)
    print(f"\nmedian ms per page over {SAMPLES} GETs on a keep-alive connection, client side;"
          f" the issue's target is {TARGET_MS} ms at 100,000 accounts.")


if __name__ == "__main__":
    main()
