"""Edits in the console are what the official clients read at once: claims, metadata, phone, e-mail
and name typed on an account's page, and create with a phone and claims (headless Chromium,
Selenium; firebase_admin and supabase_auth read the result). An error keeps what was typed, and no
page with the forms scrolls sideways at 375 px."""
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from chromium import browser  # noqa: F401 (the fixture)
from test_console_usable import no_sideways_scroll
from test_web_console import HOSTILE, no_alert, supabase_admin, wait_for_text


def retype(browser, element_id, text):
    field = browser.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def press(browser, label):
    browser.find_element(By.XPATH, f"//button[normalize-space()='{label}']").click()


def alert_text(browser, expected):
    """The text of the page's alert once one says `expected`: the page before the form was sent may
    still be showing an alert of its own (its text is returned if `expected` never comes)."""
    def says(driver):
        try:
            return any(expected in alert.text for alert in driver.find_elements(By.CSS_SELECTOR, "[role=alert]"))
        except WebDriverException:  # the old page went away while it was read
            return False
    try:
        WebDriverWait(browser, 10, poll_frequency=0.1).until(says)
    except TimeoutException:
        pass
    alerts = browser.find_elements(By.CSS_SELECTOR, "[role=alert]")
    return " | ".join(alert.text for alert in alerts)


def test_supabase_phone_name_and_metadata_seen_by_supabase_auth(emulator, browser):
    sb = supabase_admin(emulator)
    sb.create_user({"email": "taken@example.com", "password": "correct-horse-1"})
    user = sb.create_user({"email": "edit@example.com", "password": "correct-horse-1",
                           "user_metadata": {"old": 1}}).user
    browser.get(f"{emulator.base}/_/accounts/supabase/{user.id}")
    retype(browser, "edit-phone", "+1 555 010 0700")
    retype(browser, "edit-name", "Edith")
    press(browser, "Save e-mail, phone and name")
    wait_for_text(browser, "E-mail, phone and name saved.")
    seen = sb.get_user_by_id(user.id).user
    assert seen.phone == "15550100700" and seen.user_metadata.get("full_name") == "Edith"

    retype(browser, "edit-app_metadata", '{"provider": "email", "providers": ["email"], "role": "editor"}')
    press(browser, "Save app_metadata")
    wait_for_text(browser, "app_metadata saved.")
    retype(browser, "edit-user_metadata", '{"plan": "pro"}')
    press(browser, "Save user_metadata")
    wait_for_text(browser, "user_metadata saved.")
    seen = sb.get_user_by_id(user.id).user
    assert seen.app_metadata["role"] == "editor" and seen.user_metadata == {"plan": "pro"}

    # Not JSON: refused before anything is saved, the text kept as typed (and as text).
    broken = '{"plan": ' + HOSTILE
    retype(browser, "edit-user_metadata", broken)
    press(browser, "Save user_metadata")
    assert "not JSON" in alert_text(browser, "not JSON")
    assert browser.find_element(By.ID, "edit-user_metadata").get_attribute("value") == broken
    assert no_alert(browser)
    # A taken e-mail: GoTrue's own error, the form as typed.
    retype(browser, "edit-email", "taken@example.com")
    retype(browser, "edit-name", HOSTILE)
    press(browser, "Save e-mail, phone and name")
    assert "already" in alert_text(browser, "already")
    assert browser.find_element(By.ID, "edit-email").get_attribute("value") == "taken@example.com"
    assert browser.find_element(By.ID, "edit-name").get_attribute("value") == HOSTILE
    assert no_alert(browser)
    seen = sb.get_user_by_id(user.id).user
    assert seen.email == "edit@example.com" and seen.user_metadata == {"plan": "pro"}


def test_firebase_claims_and_phone_seen_by_firebase_admin(emulator, admin_app, browser):
    record = auth.create_user(email="claims@example.com", password="correct-horse-1", app=admin_app)
    browser.get(f"{emulator.base}/_/accounts/firebase/{record.uid}")
    retype(browser, "edit-customAttributes", '{"admin": true, "tier": 2}')
    press(browser, "Save Custom claims (customAttributes)")
    wait_for_text(browser, "Custom claims saved.")
    assert auth.get_user(record.uid, app=admin_app).custom_claims == {"admin": True, "tier": 2}

    retype(browser, "edit-phone", "+15550100800")
    retype(browser, "edit-name", "Claire")
    press(browser, "Save e-mail, phone and name")
    wait_for_text(browser, "E-mail, phone and name saved.")
    seen = auth.get_user(record.uid, app=admin_app)
    assert seen.phone_number == "+15550100800" and seen.display_name == "Claire"
    assert auth.get_user_by_phone_number("+15550100800", app=admin_app).uid == record.uid

    # The backend's own limits: a reserved claim and claims over 1000 bytes are refused, kept as typed.
    retype(browser, "edit-customAttributes", '{"sub": "someone-else"}')
    press(browser, "Save Custom claims (customAttributes)")
    assert "FORBIDDEN_CLAIM" in alert_text(browser, "FORBIDDEN_CLAIM")
    assert browser.find_element(By.ID, "edit-customAttributes").get_attribute("value") == '{"sub": "someone-else"}'
    big = '{"a": "' + "x" * 1000 + '"}'
    retype(browser, "edit-customAttributes", big)
    press(browser, "Save Custom claims (customAttributes)")
    assert "CLAIMS_TOO_LARGE" in alert_text(browser, "CLAIMS_TOO_LARGE")
    assert auth.get_user(record.uid, app=admin_app).custom_claims == {"admin": True, "tier": 2}

    # Emptying the phone removes it.
    browser.get(f"{emulator.base}/_/accounts/firebase/{record.uid}")
    browser.find_element(By.ID, "edit-phone").clear()
    press(browser, "Save e-mail, phone and name")
    wait_for_text(browser, "E-mail, phone and name saved.")
    assert auth.get_user(record.uid, app=admin_app).phone_number is None


def test_create_with_phone_and_claims(emulator, admin_app, browser):
    browser.get(f"{emulator.base}/_/create")
    browser.find_element(By.CSS_SELECTOR, "input[name=side][value=firebase]").click()
    retype(browser, "create-phone", "+15550100900")
    retype(browser, "create-claims", '{"iss": "me"}')
    press(browser, "Create")
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".warning"))
    assert "FORBIDDEN_CLAIM" in browser.find_element(By.TAG_NAME, "main").text
    assert browser.find_element(By.ID, "create-phone").get_attribute("value") == "+15550100900"
    assert browser.find_element(By.ID, "create-claims").get_attribute("value") == '{"iss": "me"}'
    retype(browser, "create-claims", '{"beta": true}')
    press(browser, "Create")
    WebDriverWait(browser, 10).until(lambda d: "/_/accounts/firebase/" in d.current_url)
    made = auth.get_user_by_phone_number("+15550100900", app=admin_app)
    assert made.custom_claims == {"beta": True}

    sb = supabase_admin(emulator)
    browser.get(f"{emulator.base}/_/create")
    browser.find_element(By.CSS_SELECTOR, "input[name=side][value=supabase]").click()
    retype(browser, "create-phone", "+15550101000")
    retype(browser, "create-password", "correct-horse-1")
    retype(browser, "create-claims", '{"role": "tester"}')
    press(browser, "Create")
    WebDriverWait(browser, 10).until(lambda d: "/_/accounts/supabase/" in d.current_url)
    found = [u for u in sb.list_users() if u.phone == "15550101000"]
    assert len(found) == 1 and found[0].app_metadata["role"] == "tester"


def test_create_with_a_provider_identity(emulator, admin_app, browser):
    browser.get(f"{emulator.base}/_/create")
    browser.find_element(By.CSS_SELECTOR, "input[name=side][value=firebase]").click()
    retype(browser, "create-email", "octo@example.com")
    retype(browser, "create-phone", "+15550101200")
    Select(browser.find_element(By.ID, "create-provider")).select_by_value("github")
    press(browser, "Create")
    WebDriverWait(browser, 10).until(lambda d: "/_/accounts/firebase/" in d.current_url)
    made = auth.get_user_by_email("octo@example.com", app=admin_app)
    assert {p.provider_id for p in made.provider_data} == {"github.com", "phone"}
    assert made.phone_number == "+15550101200"

    sb = supabase_admin(emulator)
    browser.get(f"{emulator.base}/_/create")
    browser.find_element(By.CSS_SELECTOR, "input[name=side][value=supabase]").click()
    retype(browser, "create-email", "goog@example.com")
    retype(browser, "create-claims", '{"team": "blue"}')
    Select(browser.find_element(By.ID, "create-provider")).select_by_value("google")
    press(browser, "Create")
    WebDriverWait(browser, 10).until(lambda d: "/_/accounts/supabase/" in d.current_url)
    user_id = browser.current_url.split("/_/accounts/supabase/")[1].split("?")[0]
    seen = sb.get_user_by_id(user_id).user
    assert [i.provider for i in seen.identities] == ["google"] and seen.app_metadata["team"] == "blue"
    # The same address again: the backend's words, the choice kept.
    browser.get(f"{emulator.base}/_/create")
    retype(browser, "create-email", "goog@example.com")
    Select(browser.find_element(By.ID, "create-provider")).select_by_value("github")
    press(browser, "Create")
    assert "already been registered" in alert_text(browser, "already been registered")
    assert Select(browser.find_element(By.ID, "create-provider")).first_selected_option.text == "github"


def test_password_set_in_the_console_signs_in_with_the_clients(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    user = sb.create_user({"email": "pw@example.com", "password": "correct-horse-1", "email_confirm": True}).user
    browser.get(f"{emulator.base}/_/accounts/supabase/{user.id}")
    retype(browser, "new-password", "12")
    press(browser, "Set password")
    wait_for_text(browser, "Password should be at least 6 characters")
    browser.get(f"{emulator.base}/_/accounts/supabase/{user.id}")
    retype(browser, "new-password", "battery-staple-2")
    press(browser, "Set password")
    wait_for_text(browser, "Password set.")
    assert browser.find_element(By.ID, "new-password").get_attribute("value") == ""
    client = SyncGoTrueClient(url=emulator.supabase_url, headers={"apikey": emulator.anon_key},
                              persist_session=False, auto_refresh_token=False)
    session = client.sign_in_with_password({"email": "pw@example.com", "password": "battery-staple-2"})
    assert session.user.id == user.id

    record = auth.create_user(email="fbpw@example.com", password="correct-horse-1", app=admin_app)
    browser.get(f"{emulator.base}/_/accounts/firebase/{record.uid}")
    retype(browser, "new-password", "battery-staple-2")
    press(browser, "Set password")
    wait_for_text(browser, "Password set.")
    signed_in = requests.post(
        f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake",
        json={"email": "fbpw@example.com", "password": "battery-staple-2", "returnSecureToken": True}, timeout=5)
    assert signed_in.status_code == 200 and signed_in.json()["localId"] == record.uid


def test_edit_forms_do_not_scroll_sideways_at_375_px(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    user = sb.create_user({"email": "narrow-edit@example.com", "user_metadata": {"note": "x" * 200}}).user
    record = auth.create_user(email="narrow-edit@example.com", app=admin_app)
    auth.set_custom_user_claims(record.uid, {"long": "y" * 200}, app=admin_app)
    browser.set_window_size(375, 800)
    try:
        for path in (f"/_/accounts/supabase/{user.id}", f"/_/accounts/firebase/{record.uid}", "/_/create"):
            browser.get(f"{emulator.base}{path}")
            assert no_sideways_scroll(browser), (path, browser.execute_script(
                "return document.documentElement.scrollWidth"))
    finally:
        browser.set_window_size(1280, 900)
