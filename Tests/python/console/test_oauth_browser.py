"""`authsh login --oauth` end to end in a real browser: authsh listens on a loopback address and
prints the provider's address (no display here); headless Chromium, driven by Selenium, opens it,
and the emulator's page for the provider is where the person picks an account or adds one. On
both backends: a new address makes an account; an address that already has a confirmed account
gets the identity linked to it; Cancel ends the command as cancelled."""
import re
import subprocess
import time

import pytest
import requests
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chromium import browser  # noqa: F401 (the fixture)

from conftest import authsh_binary

PASSWORD = "correct horse battery staple 42"


def environment(tmp_path, emu, side):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "NO_COLOR": "1", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state")}
    if side == "supabase":
        env.update(SUPABASE_URL=emu.base, SUPABASE_ANON_KEY=emu.anon_key)
    else:
        env.update(FIREBASE_AUTH_EMULATOR_HOST=emu.host, FIREBASE_API_KEY=emu.api_key, FIREBASE_PROJECT_ID=emu.project)
    return env


def existing_account(emu, side, email):
    """A confirmed account with a password, made through the backend's admin API: its id."""
    if side == "supabase":
        key = emu.service_role_key
        r = requests.post(f"{emu.supabase_url}/admin/users", headers={"apikey": key, "Authorization": f"Bearer {key}"},
                          json={"email": email, "password": PASSWORD, "email_confirm": True}, timeout=10)
        r.raise_for_status()
        return r.json()["id"]
    r = requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/projects/{emu.project}/accounts",
                      headers={"Authorization": "Bearer owner"},
                      json={"email": email, "password": PASSWORD, "emailVerified": True}, timeout=10)
    r.raise_for_status()
    return r.json()["localId"]


def start_login(env, provider):
    process = subprocess.Popen([authsh_binary(), "login", "--oauth", provider], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    shown = ""
    deadline = time.time() + 20
    while time.time() < deadline:
        line = process.stderr.readline()
        shown += line
        match = re.search(r"(http://127\.0\.0\.1:\d+/\S+)", line)
        if match:
            return process, match.group(1)
        if not line and process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"no address to open; stderr: {shown}{process.stderr.read()}")


def page_text(driver, tag="body"):
    """The page's text; "" while the page is being replaced (an element gone stale is not an error)."""
    try:
        return driver.find_element(By.TAG_NAME, tag).text
    except WebDriverException:
        return ""


def came_back(browser):
    """Until the browser shows authsh's own page on the loopback callback."""
    try:
        WebDriverWait(browser, 15).until(lambda d: "Signed in" in page_text(d))
    except Exception:
        raise AssertionError(f"the browser is at {browser.current_url}: {browser.page_source[:1500]}")


def finish(process):
    out, err = process.communicate(timeout=30)
    return process.returncode, out, err


def whoami(env):
    done = subprocess.run([authsh_binary(), "whoami", "--json"], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_a_browser_sign_in_with_google_makes_links_and_cancels(browser, emulator, tmp_path, side):
    env = environment(tmp_path, emulator, side)
    ada = existing_account(emulator, side, "ada@example.com")

    # A new address: the provider's page, "add an account", back to authsh with a new account.
    process, url = start_login(env, "google")
    browser.get(url)
    WebDriverWait(browser, 10).until(lambda d: "Sign in with Google" in page_text(d, "h1"))
    assert "No Google account has signed in here yet" in browser.find_element(By.TAG_NAME, "body").text
    browser.find_element(By.ID, "email").send_keys("grace@example.com")
    browser.find_element(By.ID, "name").send_keys("Grace Hopper")
    browser.find_element(By.ID, "add-account").click()
    came_back(browser)
    code, out, err = finish(process)
    assert code == 0, err
    assert "Signed in with google" in out and "grace@example.com" in out
    me = whoami(env)
    assert "grace@example.com" in me and "google" in me and ada not in me

    # The address of an existing confirmed account: the identity is linked to it (the same id).
    process, url = start_login(env, "google")
    browser.get(url)
    browser.find_element(By.ID, "email").send_keys("ada@example.com")
    browser.find_element(By.ID, "add-account").click()
    came_back(browser)
    code, out, err = finish(process)
    assert code == 0, err
    assert ada in whoami(env)

    # Google's accounts seen here are offered as buttons; choosing one signs in as it.
    process, url = start_login(env, "google")
    browser.get(url)
    buttons = browser.find_elements(By.CSS_SELECTOR, "ul.accounts button")
    assert sorted(b.text for b in buttons) == ["Grace Hopper <grace@example.com>", "ada@example.com"]
    next(b for b in buttons if "grace" in b.text).click()
    came_back(browser)
    code, out, err = finish(process)
    assert code == 0 and "grace@example.com" in whoami(env), err

    # Cancel on the provider's page: authsh says so and keeps the session it had.
    process, url = start_login(env, "google")
    browser.get(url)
    browser.find_element(By.ID, "cancel").click()
    code, out, err = finish(process)
    assert code != 0 and "cancelled" in (out + err).lower(), (code, out, err)
    assert "grace@example.com" in whoami(env)


def test_a_provider_the_backend_does_not_have_is_refused_before_anything_is_opened(emulator, tmp_path):
    env = environment(tmp_path, emulator, "firebase")
    done = subprocess.run([authsh_binary(), "login", "--oauth", "discord"], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 64, done.stderr
    assert "Firebase has no discord sign-in" in done.stderr and "http://" not in done.stderr


def test_a_supabase_server_that_is_down_fails_at_once_without_an_address_to_open(tmp_path):
    """The browser's /authorize cannot tell authsh the server is down: authsh asks it first."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "NO_COLOR": "1",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "SUPABASE_URL": f"http://127.0.0.1:{closed}", "SUPABASE_ANON_KEY": "anon-key"}
    # Without the check it would wait minutes for a callback: the timeout fails the test then.
    done = subprocess.run([authsh_binary(), "login", "--oauth", "google"], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 3, done.stderr
    assert "network_unreachable" in done.stderr and "/authorize" not in done.stderr, done.stderr
