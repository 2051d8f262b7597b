"""`--state FILE` survives `kill -9`: every sign-up that got a 200 can sign in after a restart."""
import signal
import threading
import time

import requests

from conftest import start_emulator

PASSWORD = "kill-nine-password"


def test_acknowledged_sign_ups_survive_sigkill(tmp_path):
    state = tmp_path / "state.sqlite"
    emu = start_emulator("--state", str(state))
    acknowledged = []
    lock = threading.Lock()
    stop = time.monotonic() + 2.0

    def worker(index):
        session = requests.Session()
        n = 0
        while time.monotonic() < stop:
            email = f"w{index}-{n}@example.com"
            n += 1
            try:
                r = session.post(f"{emu.supabase_url}/signup", json={"email": email, "password": PASSWORD}, timeout=5)
            except requests.RequestException:
                continue
            if r.status_code == 200:
                with lock:
                    acknowledged.append(email)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    time.sleep(1.8)  # kill while requests are still in flight
    emu.process.send_signal(signal.SIGKILL)
    emu.process.wait(timeout=10)
    for thread in threads:
        thread.join()
    assert len(acknowledged) > 20, f"only {len(acknowledged)} sign-ups were acknowledged: too few to mean anything"

    restarted = start_emulator("--state", str(state))  # a new port: no wait for the old socket
    try:
        session = requests.Session()
        missing = []
        for email in acknowledged:
            r = session.post(f"{restarted.supabase_url}/token?grant_type=password",
                             json={"email": email, "password": PASSWORD}, timeout=5)
            if r.status_code != 200:
                missing.append((email, r.status_code, r.text))
        assert missing == [], f"{len(missing)} of {len(acknowledged)} acknowledged users lost: {missing[:3]}"
    finally:
        restarted.stop()
