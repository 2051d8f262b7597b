"""`user show` of many accounts on an emulator reads its mail once for the whole run (the whole
outbox, and on Firebase the out-of-band codes), not once per account, and still shows each
account's pending mail; one account is still asked for by address."""
import subprocess

import pytest

from conftest import authsh_binary, user_env

ADDRESSES = [f"once{i}@example.com" for i in range(6)]


def side_env(emulator, home, side):
    env = user_env(home, emulator, side)
    if side == "supabase":
        env["SUPABASE_SERVICE_ROLE_KEY"] = emulator.service_role_key
    else:
        env["FIREBASE_API_KEY"] = emulator.api_key
    return env


def authsh(env, *args):
    return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


def requests_sent(verbose_output):
    return [line[2:].split(" ", 1)[1] for line in verbose_output.splitlines()
            if line.startswith(("> GET ", "> POST "))]


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_many_accounts_read_the_mail_once_and_one_account_asks_by_address(emulator, tmp_path, side):
    env = side_env(emulator, tmp_path, side)
    for address in ADDRESSES:
        created = authsh(env, "user", "create", address)
        assert created.returncode == 0, created.stderr
    if side == "supabase":
        sent = authsh(env, "user", "resend", ADDRESSES[2])
        assert sent.returncode == 0, sent.stderr
    listing = tmp_path / "accounts.txt"
    listing.write_text("\n".join(ADDRESSES) + "\n")

    shown = authsh(env, "user", "show", "--from", str(listing), "--verbose")
    assert shown.returncode == 0, shown.stderr
    sent = requests_sent(shown.stdout + shown.stderr)
    assert len([url for url in sent if "/emulator/v1/outbox" in url]) == 1, sent
    assert len([url for url in sent if url.endswith("/oobCodes")]) == (1 if side == "firebase" else 0), sent
    plain = authsh(env, "user", "show", "--from", str(listing))
    assert f"Found {len(ADDRESSES)} of {len(ADDRESSES)} accounts." in plain.stdout + plain.stderr
    if side == "supabase":
        # The batch's one read still finds the mail waiting for the third account.
        assert f"pending mail       confirm_email to {ADDRESSES[2]}" in plain.stdout

    one = authsh(env, "user", "show", ADDRESSES[2], "--verbose")
    assert one.returncode == 0, one.stderr
    outbox = [url for url in requests_sent(one.stdout + one.stderr) if "/emulator/v1/outbox" in url]
    assert len(outbox) == 1 and "email=" in outbox[0], outbox
