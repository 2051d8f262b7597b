"""Import and export in the console (headless Chromium, Selenium): upload a file, read its dry run,
import it, and the official clients (supabase_auth, firebase_admin) see the accounts at once; the
export downloads what `authsh user export` writes, and `authsh user import --dry-run` takes it.

AUTHSH_CONSOLE_SCREENSHOTS=DIR saves docs/console-import.png (the preview) there."""
import json
import subprocess
import time

from firebase_admin import auth
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from chromium import browser  # noqa: F401 (the fixture)
from conftest import authsh_binary, user_env
from test_console_bulk import no_sideways_scroll, press
from test_web_console import HOSTILE, no_alert, screenshot, supabase_admin, wait_for_text

ACCOUNTS = [
    {"email": "ada@example.com", "email_verified": True, "display_name": HOSTILE + "\x1b[2J"},
    {"email": "bob@example.com", "email_verified": True, "display_name": "Bob"},
    {"email": "ADA@example.com", "display_name": "Ada again"},
]


def upload(browser, base, side, path):
    browser.get(f"{base}/_/?side={side}")
    link = browser.find_element(By.ID, "import")
    link.send_keys(Keys.ENTER)
    wait_for_text(browser, "Account file")
    browser.set_window_size(375, 800)
    try:
        assert no_sideways_scroll(browser)
    finally:
        browser.set_window_size(1280, 900)
    browser.find_element(By.ID, "import-file").send_keys(str(path))
    press(browser, "Preview the import")
    wait_for_text(browser, "Nothing has been created yet.")


def test_upload_preview_then_import_on_both_sides(emulator, admin_app, browser, tmp_path):
    path = tmp_path / "users.jsonl"
    path.write_text("".join(json.dumps(account) + "\n" for account in ACCOUNTS))
    sb = supabase_admin(emulator)

    upload(browser, emulator.base, "supabase", path)
    main = browser.find_element(By.TAG_NAME, "main").text
    assert "3 accounts in the file (jsonl): 2 would be created, 0 held back, 1 refused" in main
    assert "earlier in the file" in main
    # The hostile name is shown as its characters, its escape code as text.
    assert HOSTILE + "\\e[2J" in browser.find_element(By.ID, "import-preview").text
    assert browser.find_elements(By.CSS_SELECTOR, "main img") == [] and no_alert(browser)
    assert sb.list_users() == []
    screenshot(browser, "console-import.png")
    browser.set_window_size(375, 800)
    try:
        assert no_sideways_scroll(browser)
    finally:
        browser.set_window_size(1280, 900)
    press(browser, "Import 2 accounts")
    wait_for_text(browser, "Imported 2 of 3 accounts into Supabase")
    emails = sorted(user.email for user in sb.list_users())
    assert emails == ["ada@example.com", "bob@example.com"]

    upload(browser, emulator.base, "firebase", path)
    press(browser, "Import 2 accounts")
    wait_for_text(browser, "Imported 2 of 3 accounts into the Firebase project")
    ada = auth.get_user_by_email("ada@example.com", app=admin_app)
    assert ada.display_name == HOSTILE + "\x1b[2J" and ada.email_verified


def test_export_downloads_what_the_cli_writes(emulator, admin_app, browser, tmp_path):
    sb = supabase_admin(emulator)
    sb.create_user({"email": "one@example.com", "password": "correct-horse-1", "email_confirm": True,
                    "user_metadata": {"full_name": HOSTILE}})
    auth.create_user(email="fire@example.com", password="correct-horse-1", display_name="Fire", app=admin_app)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    for side, name in (("supabase", "supabase-users.jsonl"), ("firebase", "firebase-users.jsonl")):
        browser.get(f"{emulator.base}/_/?side={side}")
        browser.find_element(By.ID, "export-jsonl").send_keys(Keys.ENTER)
        target = downloads / name
        deadline = time.time() + 10
        while not target.exists() and time.time() < deadline:
            time.sleep(0.1)
        assert target.exists(), list(downloads.iterdir())
        home = tmp_path / f"home-{side}"
        home.mkdir()
        env = user_env(home, emulator, side, SUPABASE_SERVICE_ROLE_KEY=emulator.service_role_key)
        cli = subprocess.run([authsh_binary(), "--provider", side, "user", "export"], env=env,
                             stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        assert cli.returncode == 0, cli.stderr
        assert target.read_bytes() == cli.stdout
        check = subprocess.run([authsh_binary(), "--provider", side, "user", "import", str(target), "--dry-run",
                                "--without-passwords"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                               text=True, timeout=60)
        assert check.returncode == 0, check.stdout + check.stderr
        assert "Dry run: nothing was sent. 1 accounts" in check.stdout
