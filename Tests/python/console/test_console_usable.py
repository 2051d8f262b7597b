"""The console is usable: no sideways scroll at 375 px on any page, ids that stay readable, copy
buttons, a ban with a duration and only the action the state allows, a create form that keeps its
input after an error, and every action reachable by keyboard (headless Chromium, Selenium)."""
from datetime import datetime, timezone

import requests
from firebase_admin import auth
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import WebDriverWait

from chromium import browser  # noqa: F401 (the fixture)
from test_web_console import HOSTILE, no_alert, supabase_admin, wait_for_text


def no_sideways_scroll(browser):
    return browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def test_no_sideways_scroll_at_375_px_and_readable_ids(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    user = sb.create_user({"email": "a-rather-long-address-for-a-phone@example.com", "password": "correct-horse-1",
                           "user_metadata": {"full_name": HOSTILE}}).user
    sb.generate_link({"type": "recovery", "email": "a-rather-long-address-for-a-phone@example.com"})
    fb = auth.create_user(email="narrow@example.com", password="correct-horse-1", display_name=HOSTILE,
                          app=admin_app)
    pages = ["/_/", "/_/?side=firebase", f"/_/accounts/supabase/{user.id}", f"/_/accounts/firebase/{fb.uid}",
             f"/_/accounts/supabase/{user.id}/delete", "/_/create", "/_/inbox", "/_/faults", "/_/nowhere"]
    browser.set_window_size(375, 800)
    try:
        assert browser.execute_script("return window.innerWidth") <= 375
        for path in pages:
            browser.get(f"{emulator.base}{path}")
            assert no_sideways_scroll(browser), (path, browser.execute_script(
                "return document.documentElement.scrollWidth"))
            assert no_alert(browser)
        # The TOTP page after a create.
        browser.get(f"{emulator.base}/_/create")
        browser.find_element(By.ID, "create-email").send_keys("qr@example.com")
        browser.find_element(By.CSS_SELECTOR, "input[name=totp]").click()
        browser.find_element(By.XPATH, "//button[normalize-space()='Create']").click()
        WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "totp-secret"))
        assert no_sideways_scroll(browser)
        # An id stays on one line in the list (its table scrolls inside its box, the page does not).
        browser.get(f"{emulator.base}/_/?side=supabase")
        ids = browser.find_elements(By.CSS_SELECTOR, "#accounts code.id")
        assert ids and all(code.size["height"] < 2 * 24 for code in ids)
        assert no_sideways_scroll(browser)
        # On the account page the id is on at most two lines, not one character a line.
        browser.get(f"{emulator.base}/_/accounts/supabase/{user.id}")
        code = browser.find_element(By.CSS_SELECTOR, "table.facts code.id")
        assert code.size["height"] < 3 * 24 and code.size["width"] > 200
    finally:
        browser.set_window_size(1280, 900)


def test_copy_buttons_ban_duration_create_form_and_keyboard(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    user = sb.create_user({"email": "keys@example.com", "password": "correct-horse-1",
                           "user_metadata": {"full_name": HOSTILE}}).user
    browser.get(f"{emulator.base}/_/accounts/supabase/{user.id}")
    # Copy: a real button, shown by the console's script, carrying the id.
    copy = browser.find_element(By.CSS_SELECTOR, "table.facts button.copy")
    assert copy.is_displayed() and copy.tag_name == "button" and copy.get_attribute("data-copy") == user.id
    copy.click()
    WebDriverWait(browser, 5).until(lambda d: copy.text in ("Copied", "Select and copy by hand"))
    assert copy.text == "Copied"
    # Only Ban is offered on an account that is not banned; reach it by keyboard and choose a week.
    assert browser.find_elements(By.XPATH, "//button[normalize-space()='Unban']") == []
    browser.find_element(By.ID, "ban-duration").send_keys("for a week")
    target = browser.find_element(By.XPATH, "//form[@id='ban']//button")
    for _ in range(60):
        if browser.switch_to.active_element == target:
            break
        ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.switch_to.active_element == target
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait_for_text(browser, "Banned.")
    banned_until = sb.get_user_by_id(user.id).user.banned_until
    assert banned_until is not None
    until = datetime.fromisoformat(str(banned_until).replace("Z", "+00:00"))
    days = (until - datetime.now(timezone.utc)).total_seconds() / 86400
    assert 6.9 < days < 7.1
    assert browser.find_elements(By.XPATH, "//button[normalize-space()='Ban']") == []
    browser.find_element(By.XPATH, "//button[normalize-space()='Unban']").click()
    wait_for_text(browser, "Unbanned.")
    assert sb.get_user_by_id(user.id).user.banned_until is None
    # No click-only elements: nothing in the page carries an onclick or a tabindex on a div/span.
    assert browser.find_elements(By.CSS_SELECTOR, "[onclick], div[tabindex], span[tabindex]") == []

    # Firebase: Disable only, then Enable only.
    fb = auth.create_user(email="fbkeys@example.com", app=admin_app)
    browser.get(f"{emulator.base}/_/accounts/firebase/{fb.uid}")
    assert browser.find_elements(By.XPATH, "//button[normalize-space()='Enable']") == []
    browser.find_element(By.XPATH, "//button[normalize-space()='Disable']").click()
    wait_for_text(browser, "Disabled.")
    assert auth.get_user(fb.uid, app=admin_app).disabled is True
    assert browser.find_elements(By.XPATH, "//button[normalize-space()='Disable']") == []

    # The create form keeps its input after an error (the address is taken).
    browser.get(f"{emulator.base}/_/create")
    browser.find_element(By.ID, "create-email").send_keys("keys@example.com")
    browser.find_element(By.ID, "create-name").send_keys(HOSTILE)
    browser.find_element(By.ID, "create-password").send_keys("correct-horse-1")
    browser.find_element(By.CSS_SELECTOR, "input[name=totp]").click()
    browser.find_element(By.XPATH, "//button[normalize-space()='Create']").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".warning"))
    assert browser.find_element(By.ID, "create-email").get_attribute("value") == "keys@example.com"
    assert browser.find_element(By.ID, "create-name").get_attribute("value") == HOSTILE
    assert browser.find_element(By.CSS_SELECTOR, "input[name=totp]").is_selected()
    assert no_alert(browser) and browser.find_elements(By.CSS_SELECTOR, "main img") == []

    # The inbox's codes and links have copy buttons, also when the script redraws the table.
    requests.post(f"{emulator.supabase_url}/otp", headers={"apikey": emulator.anon_key},
                  json={"email": "keys@example.com"}, timeout=5)
    browser.get(f"{emulator.base}/_/inbox")
    WebDriverWait(browser, 10).until(
        lambda d: any(b.is_displayed() for b in d.find_elements(By.CSS_SELECTOR, "#inbox button.copy")))
