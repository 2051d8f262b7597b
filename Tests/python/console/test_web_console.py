"""The emulator's web console (`/_/`) in a real browser: Debian's Chromium, headless, driven by
Selenium through the system chromedriver (never a downloaded one). The official clients
(firebase_admin, supabase_auth) check that the console's actions change the state they read.

Every run takes the screenshots of docs/emulator.md (into .build/screenshots);
AUTHSH_CONSOLE_SCREENSHOTS=docs writes them over the ones in docs/."""
import os
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient

from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chromium import browser  # noqa: F401 (the fixture)

SECRET = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"
HOSTILE = "<img src=x onerror=alert(1)>"
CHROMIUM = "/usr/bin/chromium"


def supabase_admin(emu):
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": SECRET},
                            persist_session=False, auto_refresh_token=False).admin


def no_alert(driver):
    try:
        driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


def wait_for_text(driver, text, by=By.TAG_NAME, value="main", timeout=10):
    """Until the element shows `text` (a page being replaced meanwhile is retried, not an error)."""
    def seen(d):
        try:
            return text in d.find_element(by, value).text
        except WebDriverException:
            return False
    WebDriverWait(driver, timeout, poll_frequency=0.1).until(seen)


def screenshot(driver, name):
    """Every run takes the screenshots of the docs (into .build/screenshots, so a page that no longer
    renders fails here); AUTHSH_CONSOLE_SCREENSHOTS=docs writes them over the ones in docs/."""
    folder = Path(os.environ.get("AUTHSH_CONSOLE_SCREENSHOTS") or Path(__file__).resolve().parents[3] / ".build/screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(folder / name)), f"no screenshot {name}"
    assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{name} is not a PNG"


def test_list_search_hostile_name_and_disable(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    for index in range(3):
        sb.create_user({"email": f"ada{index}@example.com", "password": "correct-horse-1", "email_confirm": True,
                        "user_metadata": {"full_name": f"Ada {index}"}})
    hostile = sb.create_user({"email": "mallory@example.com", "password": "correct-horse-1",
                              "user_metadata": {"full_name": HOSTILE}}).user
    fb_user = auth.create_user(email="grace@example.com", password="correct-horse-1", display_name=HOSTILE,
                               app=admin_app)

    browser.get(f"{emulator.base}/_/")
    assert "4 accounts" in browser.find_element(By.ID, "count").text
    rows = browser.find_elements(By.CSS_SELECTOR, "#accounts tbody tr")
    assert {row.find_element(By.TAG_NAME, "a").text for row in rows} >= {"ada0@example.com", "mallory@example.com"}
    # The hostile name is shown as its characters: no alert, no img element was made.
    assert HOSTILE in browser.find_element(By.ID, "accounts").text
    assert browser.find_elements(By.CSS_SELECTOR, "main img") == [] and no_alert(browser)

    search = browser.find_element(By.ID, "q")
    search.send_keys("ada1")
    search.submit()
    wait_for_text(browser, "1 account matching", By.ID, "count")
    assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#accounts tbody a")] == ["ada1@example.com"]
    # docs/emulator.md's screenshot: the list with a filter set (confirmed accounts only).
    browser.get(f"{emulator.base}/_/?side=supabase&confirmed=1")
    shown = sorted(a.text for a in browser.find_elements(By.CSS_SELECTOR, "#accounts tbody a"))
    assert shown == ["ada0@example.com", "ada1@example.com", "ada2@example.com"]
    screenshot(browser, "console-accounts.png")

    # Supabase: ban from the account page; the official admin client sees it at once.
    browser.get(f"{emulator.base}/_/accounts/supabase/{hostile.id}")
    assert HOSTILE in browser.find_element(By.TAG_NAME, "main").text and no_alert(browser)
    browser.find_element(By.XPATH, "//button[normalize-space()='Ban']").click()
    wait_for_text(browser, "Banned.")
    assert sb.get_user_by_id(hostile.id).user.banned_until is not None

    # Firebase: the same with firebase_admin.
    browser.get(f"{emulator.base}/_/?side=firebase")
    assert HOSTILE in browser.find_element(By.ID, "accounts").text and no_alert(browser)
    browser.find_element(By.LINK_TEXT, "grace@example.com").click()
    browser.find_element(By.XPATH, "//button[normalize-space()='Disable']").click()
    wait_for_text(browser, "Disabled.")
    assert auth.get_user(fb_user.uid, app=admin_app).disabled is True
    assert browser.find_elements(By.CSS_SELECTOR, "main img") == [] and no_alert(browser)


def test_delete_asks_first(emulator, admin_app, browser):
    user = auth.create_user(email="gone@example.com", password="correct-horse-1", app=admin_app)
    browser.get(f"{emulator.base}/_/accounts/firebase/{user.uid}")
    browser.find_element(By.ID, "delete").click()
    WebDriverWait(browser, 10).until(lambda d: "Delete gone@example.com?" in d.title)
    # Asked, not done.
    assert auth.get_user(user.uid, app=admin_app).email == "gone@example.com"
    browser.find_element(By.XPATH, "//button[normalize-space()='Yes, delete it']").click()
    WebDriverWait(browser, 10).until(lambda d: "Firebase accounts" in d.title)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(user.uid, app=admin_app)


def test_inbox_shows_a_signup_mail_without_reload(emulator_factory, browser):
    emu = emulator_factory("--confirm-email")
    browser.get(f"{emu.base}/_/inbox")
    browser.execute_script("window.__notReloaded = true")
    client = SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": emu.anon_key},
                              persist_session=False, auto_refresh_token=False)
    client.sign_up({"email": "newcomer@example.com", "password": "correct-horse-1"})
    started = time.monotonic()
    wait_for_text(browser, "newcomer@example.com", By.ID, "inbox")
    assert time.monotonic() - started < 10
    assert browser.execute_script("return window.__notReloaded") is True
    screenshot(browser, "console-inbox.png")
    # Following the mailed link confirms the account (the emulator's verify endpoint).
    link = browser.find_element(By.CSS_SELECTOR, "#inbox tbody tr a")
    assert "/auth/v1/verify" in link.get_attribute("href")
    link.click()
    user = next(u for u in supabase_admin(emu).list_users() if u.email == "newcomer@example.com")
    deadline = time.time() + 10
    while user.email_confirmed_at is None and time.time() < deadline:
        time.sleep(0.2)
        user = supabase_admin(emu).get_user_by_id(user.id).user
    assert user.email_confirmed_at is not None


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def post(url, data, headers=None):
    """A plain form POST (no browser), its status without following the redirect."""
    request = urllib.request.Request(url, data=data.encode(), method="POST", headers={
        "Content-Type": "application/x-www-form-urlencoded", **(headers or {})})
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_posts_need_the_token_and_the_consoles_origin(emulator):
    requests.post(f"{emulator.base}/emulator/v1/faults", json={"path": "/nowhere", "status": 500, "times": 0}, timeout=5)
    page = requests.get(f"{emulator.base}/_/faults", timeout=5).text
    token = page.split('name="token" value="', 1)[1].split('"', 1)[0]
    url = f"{emulator.base}/_/faults/clear"
    assert post(url, "") == 403
    assert post(url, "token=nope") == 403
    assert post(url, f"token={token}", {"Origin": "http://evil.example"}) == 403
    assert len(requests.get(f"{emulator.base}/emulator/v1/faults", timeout=5).json()["faults"]) == 1
    assert post(url, f"token={token}", {"Origin": emulator.base}) == 303
    assert requests.get(f"{emulator.base}/emulator/v1/faults", timeout=5).json()["faults"] == []


def test_dump_dom_lists_seeded_accounts(emulator, tmp_path):
    """The issue's acceptance line: `chromium --headless --dump-dom URL` lists the accounts."""
    requests.post(f"{emulator.supabase_url}/admin/users", headers={"apikey": SECRET},
                  json={"email": "seeded@example.com"}, timeout=5).raise_for_status()
    out = __import__("subprocess").run(
        [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path}",
         "--dump-dom", f"{emulator.base}/_/"], capture_output=True, text=True, timeout=60)
    assert "seeded@example.com" in out.stdout, out.stderr[-2000:]
