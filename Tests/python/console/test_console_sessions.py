"""An account's sessions in the console (headless Chromium, Selenium): two supabase-auth sign-ins
are listed with their browser and address, one is revoked and its refresh token fails through
supabase-auth while the other still refreshes, then "sign out everywhere" ends the rest. Firebase
keeps no sessions: "sign out everywhere" revokes the refresh tokens, which firebase-admin's
verify_id_token(check_revoked=True) sees, and like production a refresh then fails.

AUTHSH_CONSOLE_SCREENSHOTS=DIR saves docs/console-sessions.png there."""
import time

import pytest
import requests
from firebase_admin import auth
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from chromium import browser  # noqa: F401 (the fixture)
from test_console_usable import no_sideways_scroll
from test_web_console import HOSTILE, no_alert, screenshot, supabase_admin, wait_for_text

PASSWORD = "correct-horse-1"


def client(emu, agent):
    """supabase-auth as an app on one device: its own User-Agent."""
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": emu.anon_key, "User-Agent": agent},
                            persist_session=False, auto_refresh_token=False)


def press_by_keyboard(button):
    """Focus the button and press Enter, as someone without a mouse does."""
    button.send_keys(Keys.ENTER)


def test_supabase_sessions_revoked_one_by_one_and_everywhere(emulator, browser):
    user = supabase_admin(emulator).create_user(
        {"email": "sessions@example.com", "password": PASSWORD, "email_confirm": True}).user
    phone, laptop = client(emulator, "PhoneApp/1.0 (Android 14)"), client(emulator, "Mozilla/5.0 " + HOSTILE)
    phone_session = phone.sign_in_with_password({"email": "sessions@example.com", "password": PASSWORD}).session
    laptop_session = laptop.sign_in_with_password({"email": "sessions@example.com", "password": PASSWORD}).session
    laptop_session = laptop.refresh_session(laptop_session.refresh_token).session

    browser.get(f"{emulator.base}/_/accounts/supabase/{user.id}")
    sessions = browser.find_element(By.ID, "sessions")
    assert "Session 1 of 2" in sessions.text and "Session 2 of 2" in sessions.text
    assert "PhoneApp/1.0 (Android 14)" in sessions.text and "127.0.0.1" in sessions.text
    # The hostile user agent shows as its characters: no image element, no alert.
    assert HOSTILE in sessions.text and browser.find_elements(By.CSS_SELECTOR, "main img") == [] and no_alert(browser)
    assert "2 issued, 1 revoked" in sessions.text
    times = sessions.find_elements(By.TAG_NAME, "time")
    assert times and all(t.text.endswith(" UTC") for t in times)
    browser.execute_script("document.getElementById('sessions-heading').scrollIntoView()")
    screenshot(browser, "console-sessions.png")

    browser.set_window_size(375, 800)
    try:
        assert no_sideways_scroll(browser)
    finally:
        browser.set_window_size(1280, 900)

    phone_block = browser.find_element(By.XPATH, "//div[@class='session'][contains(., 'PhoneApp/1.0')]")
    press_by_keyboard(phone_block.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    wait_for_text(browser, "Session revoked")
    with pytest.raises(AuthApiError):
        phone.refresh_session(phone_session.refresh_token)
    laptop_session = laptop.refresh_session(laptop_session.refresh_token).session
    assert laptop_session.access_token
    sessions = browser.find_element(By.ID, "sessions")
    assert "Session 1 of 1" in sessions.text and "PhoneApp" not in sessions.text

    press_by_keyboard(browser.find_element(By.XPATH, "//button[normalize-space()='Sign out everywhere']"))
    wait_for_text(browser, "Signed out everywhere")
    with pytest.raises(AuthApiError):
        laptop.refresh_session(laptop_session.refresh_token)
    assert "No live session" in browser.find_element(By.ID, "sessions").text


def sign_in_firebase(emu, email):
    answer = requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                           params={"key": emu.api_key},
                           json={"email": email, "password": PASSWORD, "returnSecureToken": True}, timeout=10)
    answer.raise_for_status()
    return answer.json()


def refresh_firebase(emu, refresh_token):
    return requests.post(f"{emu.base}/securetoken.googleapis.com/v1/token", params={"key": emu.api_key},
                         data={"grant_type": "refresh_token", "refresh_token": refresh_token}, timeout=10)


def sign_out_everywhere(browser, emu, uid):
    browser.get(f"{emu.base}/_/accounts/firebase/{uid}")
    assert "Firebase Auth keeps no sessions" in browser.find_element(By.ID, "sessions").text
    button = browser.find_element(By.XPATH, "//button[normalize-space()='Sign out everywhere (revoke refresh tokens)']")
    press_by_keyboard(button)
    wait_for_text(browser, "Refresh tokens revoked")


def test_firebase_sign_out_everywhere_seen_by_firebase_admin(emulator, admin_app, browser):
    record = auth.create_user(email="fire@example.com", password=PASSWORD, app=admin_app)
    signed_in = sign_in_firebase(emulator, "fire@example.com")
    assert auth.verify_id_token(signed_in["idToken"], check_revoked=True, app=admin_app)["uid"] == record.uid
    time.sleep(1.1)  # validSince is in seconds: a token of the same second stays valid
    sign_out_everywhere(browser, emulator, record.uid)
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(signed_in["idToken"], check_revoked=True, app=admin_app)
    assert auth.get_user(record.uid, app=admin_app).tokens_valid_after_timestamp > 0
    # As the official emulator, the default mode lets the old refresh token refresh (the page says so).
    assert "As in the official emulator" in browser.find_element(By.ID, "revocation-effect").text
    assert refresh_firebase(emulator, signed_in["refreshToken"]).ok


def test_firebase_like_production_refresh_fails_after_sign_out_everywhere(emulator_factory, browser):
    emu = emulator_factory("--like-production")
    created = requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signUp",
                            params={"key": emu.api_key},
                            json={"email": "prod@example.com", "password": PASSWORD, "returnSecureToken": True},
                            timeout=10).json()
    time.sleep(1.1)
    sign_out_everywhere(browser, emu, created["localId"])
    refused = refresh_firebase(emu, created["refreshToken"])
    assert refused.status_code == 400 and "TOKEN_EXPIRED" in refused.text
    assert refresh_firebase(emu, sign_in_firebase(emu, "prod@example.com")["refreshToken"]).ok
