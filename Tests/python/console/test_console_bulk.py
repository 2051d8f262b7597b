"""Many accounts at once in the console (headless Chromium, Selenium): tick two accounts, disable
(ban) and confirm them after a page that lists them, and the official clients (firebase_admin,
supabase_auth) see it at once; "delete all" on one side, confirmed by typing its name, leaves the
other side and a Firebase tenant untouched."""
import requests
from firebase_admin import auth
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from chromium import browser  # noqa: F401 (the fixture)
from test_web_console import HOSTILE, no_alert, supabase_admin, wait_for_text


def no_sideways_scroll(browser):
    return browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def tick(browser, email):
    box = browser.find_element(By.XPATH, f"//tr[td/a[.='{email}']]//input[@type='checkbox']")
    # By keyboard: the tick is a real checkbox, toggled with the space bar.
    box.send_keys(Keys.SPACE)
    assert box.is_selected()


def press(browser, label):
    button = browser.find_element(By.XPATH, f"//button[normalize-space()='{label}']")
    button.send_keys(Keys.ENTER)


def test_tick_two_then_disable_and_confirm(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    ids = {}
    for name in ("one", "two", "three"):
        ids[name] = sb.create_user({"email": f"{name}@example.com", "password": "correct-horse-1",
                                    "user_metadata": {"full_name": HOSTILE}}).user.id
    browser.get(f"{emulator.base}/_/?side=supabase")
    tick(browser, "one@example.com")
    tick(browser, "two@example.com")
    press(browser, "Ban…")
    wait_for_text(browser, "Ban these 2 Supabase accounts?")
    listed = browser.find_element(By.ID, "selection").text
    assert "one@example.com" in listed and "two@example.com" in listed and "three@example.com" not in listed
    # Asked, not done.
    assert sb.get_user_by_id(ids["one"]).user.banned_until is None
    browser.set_window_size(375, 800)
    try:
        assert no_sideways_scroll(browser)
    finally:
        browser.set_window_size(1280, 900)
    press(browser, "Yes, ban 2 accounts")
    wait_for_text(browser, "The selected accounts banned.")
    assert sb.get_user_by_id(ids["one"]).user.banned_until is not None
    assert sb.get_user_by_id(ids["two"]).user.banned_until is not None
    assert sb.get_user_by_id(ids["three"]).user.banned_until is None

    tick(browser, "one@example.com")
    tick(browser, "two@example.com")
    press(browser, "Confirm e-mail…")
    wait_for_text(browser, "Confirm the e-mail of these 2 Supabase accounts?")
    press(browser, "Yes, confirm 2 accounts")
    wait_for_text(browser, "E-mails of the selected accounts confirmed.")
    assert sb.get_user_by_id(ids["one"]).user.email_confirmed_at is not None
    assert sb.get_user_by_id(ids["two"]).user.email_confirmed_at is not None
    assert sb.get_user_by_id(ids["three"]).user.email_confirmed_at is None
    assert no_alert(browser) and browser.find_elements(By.CSS_SELECTOR, "main img") == []

    # Firebase: the same, seen by firebase_admin.
    users = {name: auth.create_user(email=f"{name}@example.com", display_name=HOSTILE, app=admin_app).uid
             for name in ("one", "two", "three")}
    browser.get(f"{emulator.base}/_/?side=firebase")
    tick(browser, "one@example.com")
    tick(browser, "two@example.com")
    press(browser, "Disable…")
    wait_for_text(browser, "Disable these 2 Firebase accounts?")
    press(browser, "Yes, disable 2 accounts")
    wait_for_text(browser, "The selected accounts disabled.")
    assert [auth.get_user(users[n], app=admin_app).disabled for n in ("one", "two", "three")] == [True, True, False]
    tick(browser, "one@example.com")
    tick(browser, "two@example.com")
    press(browser, "Confirm e-mail…")
    wait_for_text(browser, "Confirm the e-mail of these 2 Firebase accounts?")
    press(browser, "Yes, confirm 2 accounts")
    wait_for_text(browser, "E-mails of the selected accounts confirmed.")
    verified = [auth.get_user(users[n], app=admin_app).email_verified for n in ("one", "two", "three")]
    assert verified == [True, True, False]

    # Every account of the page at once (console.js shows that tick), then enable them all.
    everything = browser.find_element(By.ID, "select-all")
    everything.send_keys(Keys.SPACE)
    assert all(box.is_selected() for box in browser.find_elements(By.CSS_SELECTOR, "#accounts input[name=id]"))
    press(browser, "Enable…")
    wait_for_text(browser, "Enable these 3 Firebase accounts?")
    press(browser, "Yes, enable 3 accounts")
    wait_for_text(browser, "The selected accounts enabled.")
    assert [auth.get_user(users[n], app=admin_app).disabled for n in ("one", "two", "three")] == [False] * 3


def test_delete_all_on_one_side(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    for index in range(3):
        sb.create_user({"email": f"sb{index}@example.com", "password": "correct-horse-1"})
    fb = auth.create_user(email="stays@example.com", app=admin_app)
    created = requests.post(
        f"{emulator.base}/identitytoolkit.googleapis.com/v2/projects/{emulator.project}/tenants",
        headers={"Authorization": "Bearer owner"}, json={"displayName": "Shop"}, timeout=5)
    tenant = created.json()["name"].split("/")[-1]
    toolkit = f"{emulator.base}/identitytoolkit.googleapis.com/v1/projects/{emulator.project}/tenants/{tenant}"

    def tenant_admin(operation, body):
        return requests.post(f"{toolkit}/{operation}", headers={"Authorization": "Bearer owner"}, json=body,
                             timeout=5).json()

    uid = tenant_admin("accounts", {"email": "tenant@example.com"})["localId"]

    def tenant_email():
        return tenant_admin("accounts:lookup", {"localId": [uid]})["users"][0]["email"]

    browser.get(f"{emulator.base}/_/?side=supabase")
    browser.find_element(By.ID, "delete-all").send_keys(Keys.ENTER)
    wait_for_text(browser, "Delete all 3 accounts of Supabase?")
    browser.set_window_size(375, 800)
    try:
        assert no_sideways_scroll(browser)
    finally:
        browser.set_window_size(1280, 900)
    # A wrong name deletes nothing.
    browser.find_element(By.ID, "delete-all-name").send_keys("supabase")
    press(browser, "Delete every account")
    wait_for_text(browser, "Nothing deleted")
    assert len(sb.list_users()) == 3
    browser.back()
    field = browser.find_element(By.ID, "delete-all-name")
    field.clear()
    field.send_keys("Supabase")
    press(browser, "Delete every account")
    wait_for_text(browser, "Every account of this side deleted.")
    assert "0 accounts" in browser.find_element(By.ID, "count").text
    assert sb.list_users() == []
    # The other side and the tenant keep theirs.
    assert auth.get_user(fb.uid, app=admin_app).email == "stays@example.com"
    assert tenant_email() == "tenant@example.com"

    # The Firebase project: its accounts go, the tenant's stay.
    browser.get(f"{emulator.base}/_/?side=firebase")
    browser.find_element(By.ID, "delete-all").send_keys(Keys.ENTER)
    wait_for_text(browser, "Delete all 1 account of the Firebase project?")
    browser.find_element(By.ID, "delete-all-name").send_keys("Firebase")
    press(browser, "Delete every account")
    wait_for_text(browser, "Every account of this side deleted.")
    assert list(auth.list_users(app=admin_app).iterate_all()) == []
    assert tenant_email() == "tenant@example.com"
