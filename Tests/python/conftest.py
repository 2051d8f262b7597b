"""Shared fixtures: start the real `authsh emulator` binary on a free loopback port."""
import os
import shutil
import socket
import uuid
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import jwt  # PyJWT, installed with supabase-auth
import pexpect
import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
JWT_SECRET = "test-secret-for-authsh-emulator-at-least-32-chars"
PROJECT = "demo-authsh"


@pytest.fixture(scope="session", autouse=True)
def private_keyring():
    """Every test runs against a private Secret Service: a D-Bus session bus of its own
    (dbus-run-session) with an unlocked GNOME Keyring, started by scripts/with-keyring.sh. So
    authsh's default `credential_store = "auto"` keeps sessions in a real keyring, and neither
    the machine's nor the user's own keyring is ever touched. Under scripts/with-keyring.sh
    (scripts/test.sh) the bus it made is used. Yields the bus address."""
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    if address and os.environ.get("AUTHSH_TEST_KEYRING") == address:
        yield address
        return
    process = subprocess.Popen([str(ROOT / "scripts" / "with-keyring.sh")], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("DBUS_SESSION_BUS_ADDRESS="):
        process.kill()
        pytest.fail(f"no private keyring: {line} {process.stderr.read()}", pytrace=False)
    saved = {name: os.environ.get(name) for name in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY")}
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = line.split("=", 1)[1]
    # No desktop: a locked keyring must not wait for an unlock prompt nobody sees.
    os.environ.pop("DISPLAY", None)
    os.environ.pop("WAYLAND_DISPLAY", None)
    yield os.environ["DBUS_SESSION_BUS_ADDRESS"]
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    process.stdin.close()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session", autouse=True)
def no_crash(tmp_path_factory):
    """A crash of any authsh process the tests start is an error of the run, even when the test
    that started it passed: Swift's backtracer writes each crash to a file here (at once: not
    waiting on a terminal for a key, as it does on a pty), and the run ends by showing them."""
    crashes = tmp_path_factory.mktemp("crashes")
    saved = os.environ.get("SWIFT_BACKTRACE")
    # The toolchain's backtracer, named: the static release binary does not find one of its own
    # (and would say so on standard error).
    swift = shutil.which("swift")
    backtracer = Path(swift).resolve().parents[1] / "libexec/swift/linux/swift-backtrace-static" if swift else None
    if backtracer is None or not backtracer.exists():
        yield crashes
        return
    setting = f"enable=yes,interactive=no,color=no,output-to={crashes},swift-backtrace={backtracer}"
    os.environ["SWIFT_BACKTRACE"] = setting
    # Tests that start a process with an environment of their own (a user's bare `env`) get the
    # setting too: every process start goes through Popen or pexpect.spawn.
    patch = pytest.MonkeyPatch()
    for cls in (subprocess.Popen, pexpect.spawn):
        patch.setattr(cls, "__init__", with_backtrace_setting(cls.__init__, setting))
    yield crashes
    patch.undo()
    if saved is None:
        os.environ.pop("SWIFT_BACKTRACE", None)
    else:
        os.environ["SWIFT_BACKTRACE"] = saved
    logs = sorted(crashes.iterdir())
    if logs:
        pytest.fail("authsh crashed:\n\n" + "\n\n".join(log.read_text(errors="replace")[:20000] for log in logs),
                    pytrace=False)


def with_backtrace_setting(start, setting):
    """`start` (a process class's __init__) with SWIFT_BACKTRACE added to an explicit `env`."""
    def wrapped(self, *args, **kwargs):
        env = kwargs.get("env")
        if isinstance(env, dict) and "SWIFT_BACKTRACE" not in env:
            kwargs["env"] = {**env, "SWIFT_BACKTRACE": setting}
        start(self, *args, **kwargs)
    return wrapped


def authsh_binary() -> str:
    return os.environ.get("AUTHSH_BIN", str(ROOT / ".build" / "debug" / "authsh"))


def user_env(home: Path, emulator=None, provider: str = "supabase", **extra) -> dict:
    """A user's environment in `home`: no inherited SUPABASE_/FIREBASE_/AUTHSH_/XDG_ settings, state
    and config under `home`, plain output; pointed at `emulator` on `provider` when given."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SUPABASE_", "FIREBASE_", "AUTHSH_", "XDG_"))}
    env.update(HOME=str(home), XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"),
               LANG="C.UTF-8", NO_COLOR="1")
    if emulator is not None and provider == "supabase":
        env.update(SUPABASE_URL=emulator.base, SUPABASE_ANON_KEY=emulator.anon_key)
    elif emulator is not None:
        env.update(FIREBASE_AUTH_EMULATOR_HOST=emulator.host, FIREBASE_PROJECT_ID=emulator.project)
    env.update(extra)
    return env


@pytest.fixture
def admin_app(emulator, monkeypatch):
    """A firebase-admin app on the emulator's Firebase side (the official Admin SDK as the oracle)."""
    import firebase_admin

    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", emulator.host)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    app = firebase_admin.initialize_app(options={"projectId": emulator.project}, name=f"authsh-{uuid.uuid4()}")
    yield app
    firebase_admin.delete_app(app)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Emulator:
    port: int
    process: subprocess.Popen
    args: list = field(default_factory=list)
    project: str = PROJECT
    jwt_secret: str = JWT_SECRET
    api_key: str = "fake-api-key"

    @property
    def like_production(self) -> bool:
        return "--like-production" in self.args

    @property
    def host(self) -> str:  # FIREBASE_AUTH_EMULATOR_HOST form
        return f"127.0.0.1:{self.port}"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def supabase_url(self) -> str:
        return f"{self.base}/auth/v1"

    def key(self, role: str) -> str:
        now = int(time.time())
        claims = {"iss": "supabase-demo", "role": role, "iat": now, "exp": now + 10 * 365 * 86400}
        return jwt.encode(claims, self.jwt_secret, algorithm="HS256")

    @property
    def anon_key(self) -> str:
        return self.key("anon")

    @property
    def service_role_key(self) -> str:
        return self.key("service_role")

    def outbox(self, email: str) -> list:
        r = requests.get(f"{self.base}/emulator/v1/outbox", params={"email": email}, timeout=5)
        r.raise_for_status()
        return r.json()["messages"]

    def stop(self, sig=None):
        if self.process.poll() is None:
            if sig is None:
                self.process.terminate()
            else:
                self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_emulator(*extra_args, port=None) -> Emulator:
    port = port or free_port()
    args = [authsh_binary(), "emulator", "--port", str(port), "--jwt-secret", JWT_SECRET,
            "--project", PROJECT, *extra_args]
    process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 20
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"emulator exited with {process.returncode}: {process.stdout.read()}")
        try:
            if requests.get(f"http://127.0.0.1:{port}/auth/v1/health", timeout=1).status_code == 200:
                return Emulator(port=port, process=process, args=list(extra_args))
        except requests.RequestException:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("emulator did not become ready within 20 s")


@pytest.fixture
def emulator():
    """A fresh emulator per test (defaults: no e-mail confirmation, no e-mail privacy)."""
    emu = start_emulator()
    yield emu
    emu.stop()


@pytest.fixture(params=["default", "like-production"])
def emulator_in_both_modes(request):
    """A fresh emulator per test, once as the local stacks behave and once `--like-production`
    with custom SMTP (any address receives mail; the built-in service's team rule and its
    2-an-hour quota have tests of their own). Conformance modules use it as their `emulator`;
    `emu.like_production` says which run this is."""
    emu = start_emulator(*([] if request.param == "default" else ["--like-production", "--smtp", "custom"]))
    yield emu
    emu.stop()


@pytest.fixture
def emulator_factory():
    """Start emulators with extra flags: `emulator_factory("--confirm-email")`."""
    started = []

    def make(*extra_args, port=None):
        emu = start_emulator(*extra_args, port=port)
        started.append(emu)
        return emu

    yield make
    for emu in started:
        emu.stop()
