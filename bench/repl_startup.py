"""Start-to-first-prompt time of the interactive shell on a pty, and the resident memory of an
idle shell. Used by bench/repl.sh; prints one `name value unit` line per figure."""
import os
import statistics
import sys
import tempfile
import time

import pexpect

binary = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20

with tempfile.TemporaryDirectory() as home:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SUPABASE_", "FIREBASE_", "AUTHSH_", "XDG_"))}
    # A configured backend (never contacted): the prompt then reads the profile and session.
    env.update(HOME=home, XDG_STATE_HOME=home + "/state", XDG_CONFIG_HOME=home + "/config", TERM="xterm",
               LANG="C.UTF-8", SUPABASE_URL="http://127.0.0.1:9", SUPABASE_ANON_KEY="bench-anon-key")
    times = []
    rss_kb = []
    for _ in range(runs):
        started = time.perf_counter()
        child = pexpect.spawn(binary, ["--no-rc"], env=env, encoding="utf-8", timeout=10)
        child.expect("> ")
        times.append((time.perf_counter() - started) * 1000)
        time.sleep(0.3)  # idle at the prompt
        with open(f"/proc/{child.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss_kb.append(int(line.split()[1]))
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
        child.close()
    # The harness's own cost: the same spawn and wait for a program that only prints a prompt.
    baseline = []
    for _ in range(runs):
        started = time.perf_counter()
        child = pexpect.spawn("/bin/sh", ["-c", "printf '> '; read line"], env=env, encoding="utf-8", timeout=10)
        child.expect("> ")
        baseline.append((time.perf_counter() - started) * 1000)
        child.sendline("")
        child.expect(pexpect.EOF)
        child.close()
    print(f"harness_median {statistics.median(baseline):.1f} ms")
    print(f"prompt_median {statistics.median(times):.1f} ms")
    print(f"prompt_min {min(times):.1f} ms")
    print(f"prompt_max {max(times):.1f} ms")
    print(f"rss_median {statistics.median(rss_kb) / 1024:.1f} MB")
