"""Second factors on a real pseudo-terminal (issue 21): `login` asks for the password, then the
authenticator code, echoing neither and drawing no spinner over either prompt; `mfa enroll` draws
a QR code that zbarimg reads back to the same otpauth:// URI, whose secret then confirms it."""
import struct
import subprocess
import zlib
from urllib.parse import parse_qs, urlparse

import pyotp
import pytest
import requests

from conftest import ROOT, start_emulator
from conftest import authsh_binary
from test_oneshot_pty import OneShot, assert_no_spinner
from test_repl_pty import environment

SEED = ROOT / "examples" / "accounts.jsonl"
PASSWORD = "correct-horse-1"
SECRET = "JBSWY3DPEHPK3PXP"
CODE_PROMPT = "Code from your authenticator app: "
BLOCKS = {" ": (False, False), "▀": (True, False), "▄": (False, True), "█": (True, True)}  # (top, bottom) light


@pytest.fixture
def seeded():
    emu = start_emulator("--seed", str(SEED))
    yield emu
    emu.stop()


@pytest.fixture(params=["supabase", "firebase"])
def env(request, tmp_path, seeded):
    env = environment(tmp_path, seeded, request.param)
    env.pop("CI", None)  # the spinner stays off in CI; these tests look for it
    env["PW"] = PASSWORD
    return env


def one_shot(env, *args):
    """A one-shot command without a terminal (setup and checks)."""
    done = subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done


def slow_down(emulator, ms=1500):
    r = requests.put(f"{emulator.base}/emulator/v1/faults", json={"faults": [{"times": 0, "latency_ms": ms}]},
                     timeout=5)
    assert r.status_code == 200, r.text


def test_login_asks_the_password_then_the_code_without_echo_or_spinner(env, seeded):
    slow_down(seeded)
    run = OneShot(env, "login", "mfa@example.com")
    assert_no_spinner(run.watch_prompt("Password: "), "Signing in")
    run.child.sendline(PASSWORD)
    drawn = run.watch_prompt(CODE_PROMPT)
    assert_no_spinner(drawn, "Signing in")
    code = pyotp.TOTP(SECRET).now()
    run.child.sendline(code)
    run.child.expect_exact("mfa@example.com")
    assert run.finish() == 0
    screen = run.screen.getvalue()
    assert PASSWORD not in screen and code not in screen
    assert screen.index("Password: ") < screen.index(CODE_PROMPT)
    assert "aal2" in one_shot(env, "whoami").stdout


def test_a_wrong_code_on_a_terminal_is_mfa_invalid_code(env):
    run = OneShot(env, "login", "mfa@example.com", "--password-env", "PW")
    run.child.expect_exact(CODE_PROMPT)
    run.child.sendline(f"{(int(pyotp.TOTP(SECRET).now()) + 1) % 1_000_000:06d}")
    run.child.expect_exact("mfa_invalid_code")
    assert run.finish() == 1


def qr_lines(screen):
    """The QR code's lines: the longest run of lines drawn only with half blocks."""
    best, current = [], []
    for line in screen.replace("\r", "").split("\n"):
        if line and set(line) <= set(BLOCKS) and set(line) & {"█", "▀", "▄"}:
            current.append(line)
            best = max(best, current, key=len)
        else:
            current = []
    return best


def png(lines, path, scale=6):
    """The drawing as a grey PNG (light blocks white), with a wide white margin for the decoder."""
    rows = []
    for line in lines:
        top = [BLOCKS[c][0] for c in line]
        bottom = [BLOCKS[c][1] for c in line]
        rows += [top, bottom]
    margin = 4
    width = len(rows[0]) + 2 * margin
    padded = [[True] * width] * margin + [[True] * margin + r + [True] * margin for r in rows] + [[True] * width] * margin
    raw = b""
    for row in padded:
        pixels = bytes(255 if light else 0 for light in row for _ in range(scale))
        raw += (b"\x00" + pixels) * scale
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    header = struct.pack(">IIBBBBB", width * scale, len(padded) * scale, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_mfa_enroll_draws_a_qr_code_that_reads_back_to_its_uri(env, tmp_path):
    one_shot(env, "login", "ada@example.com", "--password-env", "PW")
    run = OneShot(env, "mfa", "enroll", "--name", "phone", "--show-tokens")
    run.child.expect_exact(CODE_PROMPT)
    screen = run.screen.getvalue()
    uri_line = next(line for line in screen.replace("\r", "").split("\n") if line.startswith("uri "))
    printed = uri_line.split(None, 1)[1].strip()
    image = tmp_path / "qr.png"
    png(qr_lines(screen), image)
    decoded = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True, text=True, timeout=30)
    assert decoded.returncode == 0, decoded.stderr
    uri = decoded.stdout.strip()
    assert uri == printed and uri.startswith("otpauth://totp/")
    # (pyotp.parse_uri refuses GoTrue's default label, whose issuer is the site's host:port)
    code = pyotp.TOTP(parse_qs(urlparse(uri).query)["secret"][0]).now()
    run.child.sendline(code)
    run.child.expect_exact("Added the authenticator 'phone'")
    assert run.finish() == 0
    assert code not in run.screen.getvalue()
    assert "phone (totp, verified)" in one_shot(env, "whoami").stdout


def test_mfa_enroll_shows_the_secret_to_the_person_at_the_terminal(env):
    """Where a person enrols (a terminal) the secret is there to type by hand; off a terminal it
    is *** (Tests/python/mfa/test_secrets_stay_hidden.py)."""
    one_shot(env, "login", "ada@example.com", "--password-env", "PW")
    run = OneShot(env, "mfa", "enroll", "--name", "phone")
    run.child.expect_exact(CODE_PROMPT)
    screen = run.screen.getvalue()
    uri = next(line for line in screen.splitlines() if line.startswith("uri ")).split()[-1]
    secret = parse_qs(urlparse(uri).query)["secret"][0]
    assert len(secret) >= 16 and f"secret  {secret}" in screen and "***" not in screen
    run.child.sendcontrol("c")
    assert run.finish() == 130
