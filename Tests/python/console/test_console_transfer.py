"""Export in the console (headless Chromium, Selenium): the download is what `authsh user export`
writes, and `authsh user import --dry-run` takes it."""
import subprocess
import time

from firebase_admin import auth
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from chromium import browser  # noqa: F401 (the fixture)
from conftest import authsh_binary, user_env
from test_web_console import HOSTILE, supabase_admin


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
