"""The console says only what is true: notices from a fixed set, flags as the CLI spells them,
soft-deleted and anonymous accounts named, one time format, texts beside mails (headless
Chromium through Selenium; the official clients as the oracle)."""
import subprocess

import requests
from firebase_admin import auth
from selenium.webdriver.common.by import By
from supabase_auth import SyncGoTrueClient

from chromium import browser  # noqa: F401 (the fixture)
from conftest import authsh_binary
from test_web_console import HOSTILE, no_alert, supabase_admin, wait_for_text


def console_flags(emulator, browser):
    """Every `--flag` the console's pages name (in <code>)."""
    flags = set()
    for path in ("/_/", "/_/create", "/_/inbox", "/_/faults"):
        browser.get(f"{emulator.base}{path}")
        for code in browser.find_elements(By.TAG_NAME, "code"):
            flags.update(word for word in code.text.split() if word.startswith("--"))
    return flags


def test_notices_flags_account_kinds_times_and_texts(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    user = sb.create_user({"email": "kept@example.com", "password": "correct-horse-1", "email_confirm": True}).user
    # A notice comes from the fixed set: text in the URL is never shown.
    browser.get(f"{emulator.base}/_/accounts/supabase/{user.id}?done=Your+account+is+compromised")
    assert "compromised" not in browser.find_element(By.TAG_NAME, "main").text
    assert browser.find_elements(By.CSS_SELECTOR, ".notice") == []
    browser.find_element(By.XPATH, "//button[normalize-space()='Confirm e-mail']").click()
    wait_for_text(browser, "E-mail confirmed.")
    assert "done=confirmed" in browser.current_url

    # Every flag the pages name is one `authsh emulator --help` lists.
    help_text = subprocess.run([authsh_binary(), "emulator", "--help"], capture_output=True, text=True,
                               timeout=30).stdout
    flags = console_flags(emulator, browser)
    assert "--latency-ms" in flags
    assert all(flag in help_text.split() or f"{flag}," in help_text for flag in flags), (flags, help_text)

    # Times: UTC with the zone in <time>, the browser's local time in the title.
    browser.get(f"{emulator.base}/_/accounts/supabase/{user.id}")
    created = browser.find_element(By.XPATH, "//th[.='created_at']/following-sibling::td/time")
    assert created.text.endswith(" UTC") and created.get_attribute("datetime").endswith("Z")
    assert "local time" in created.get_attribute("title")

    # A soft-deleted account is named so; sign-in answers invalid_credentials, and the page agrees.
    gone = sb.create_user({"email": "gone@example.com", "password": "correct-horse-1", "email_confirm": True}).user
    sb.delete_user(gone.id, should_soft_delete=True)
    browser.get(f"{emulator.base}/_/accounts/supabase/{gone.id}")
    assert browser.title.startswith("Deleted account")
    facts = browser.find_element(By.ID, "signin-facts").text
    assert "invalid_credentials" in facts and "Nothing stops" not in facts
    browser.get(f"{emulator.base}/_/?side=supabase")
    assert "(deleted account)" in browser.find_element(By.ID, "accounts").text

    # Firebase: lastLoginAt and validSince are times, not epoch numbers.
    fb = auth.create_user(email="fbtime@example.com", password="correct-horse-1", display_name=HOSTILE,
                          app=admin_app)
    requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake",
                  json={"email": "fbtime@example.com", "password": "correct-horse-1", "returnSecureToken": True},
                  timeout=5).raise_for_status()
    last_login = auth.get_user(fb.uid, app=admin_app).user_metadata.last_sign_in_timestamp
    browser.get(f"{emulator.base}/_/accounts/firebase/{fb.uid}")
    assert no_alert(browser) and browser.find_elements(By.CSS_SELECTOR, "main img") == []
    for key in ("lastLoginAt", "validSince", "createdAt"):
        cell = browser.find_element(By.XPATH, f"//th[.='{key}']/following-sibling::td")
        assert cell.find_element(By.TAG_NAME, "time").text.endswith(" UTC"), key
    assert str(last_login) not in browser.find_element(By.CSS_SELECTOR, "table.facts").text

    # A code texted to the account's phone is on its page, beside its mails.
    client = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.anon_key},
                              persist_session=False, auto_refresh_token=False)
    client.sign_in_with_otp({"phone": "+1 555 010 0999"})
    texted = next(u for u in sb.list_users() if u.phone == "15550100999")
    code = requests.get(f"{emulator.base}/emulator/v1/outbox", params={"email": "+15550100999"},
                        timeout=5).json()["messages"][-1]["code"]
    browser.get(f"{emulator.base}/_/accounts/supabase/{texted.id}")
    assert code in browser.find_element(By.ID, "messages").text
