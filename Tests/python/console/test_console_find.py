"""Finding accounts in the console: filters combined with the search, first/last/jump paging,
phone search in any form on both sides, titles that follow the page's state, and the Confirmed
column counting a confirmed phone (headless Chromium through Selenium)."""
from firebase_admin import auth
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chromium import browser  # noqa: F401 (the fixture)
from test_web_console import HOSTILE, no_alert, supabase_admin, wait_for_text


def listed(browser):
    return [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#accounts tbody td:first-child a")]


def test_filters_search_paging_and_titles(emulator, admin_app, browser):
    sb = supabase_admin(emulator)
    for index in range(55):
        sb.create_user({"email": f"bulk{index}@example.com", "email_confirm": index % 5 != 0,
                        "user_metadata": {"full_name": HOSTILE if index == 3 else f"Bulk {index}"}})
    texted = sb.create_user({"phone": "+1 555 010 0042", "phone_confirm": True}).user

    browser.get(f"{emulator.base}/_/?side=supabase")
    assert browser.title.startswith("Supabase accounts · page 1 of 2")
    # The Confirmed column counts the confirmed phone.
    row = browser.find_element(By.XPATH, f"//tr[td/code[.='{texted.id}']]")
    assert row.find_elements(By.TAG_NAME, "td")[3].text == "yes"

    # Phone search with a plus and spaces.
    search = browser.find_element(By.ID, "q")
    search.send_keys("+1 555 010 0042")
    search.submit()
    wait_for_text(browser, "1 account matching", By.ID, "count")
    assert texted.id in browser.find_element(By.ID, "accounts").text

    # Filters combined with the search: unconfirmed ones are filtered out.
    browser.get(f"{emulator.base}/_/?side=supabase")
    search = browser.find_element(By.ID, "q")
    search.send_keys("bulk1")
    browser.find_element(By.CSS_SELECTOR, "#filters input[name=confirmed]").click()
    browser.find_element(By.XPATH, "//button[normalize-space()='Show']").click()
    wait_for_text(browser, "(confirmed)", By.ID, "count")
    # bulk1, bulk11..bulk19 minus bulk10 and bulk15 (unconfirmed): 9.
    assert "9 accounts matching “bulk1” (confirmed)" in browser.find_element(By.ID, "count").text
    assert "bulk10@example.com" not in listed(browser) and "bulk11@example.com" in listed(browser)
    assert browser.title.startswith("Supabase accounts matching “bulk1”, confirmed")
    assert no_alert(browser)

    # Paging: last, first, and jump to a page; the title follows.
    browser.get(f"{emulator.base}/_/?side=supabase&order=oldest")
    browser.find_element(By.LINK_TEXT, "Last page »").click()
    WebDriverWait(browser, 10).until(lambda d: "page 2 of 2" in d.title)
    assert "bulk54@example.com" not in listed(browser) or len(listed(browser)) == 6
    browser.find_element(By.LINK_TEXT, "« First page").click()
    WebDriverWait(browser, 10).until(lambda d: "page 1 of 2" in d.title)
    assert listed(browser)[0] == "bulk0@example.com"
    jump = browser.find_element(By.ID, "page")
    jump.clear()
    jump.send_keys("2")
    browser.find_element(By.XPATH, "//form[@id='jump']//button").click()
    WebDriverWait(browser, 10).until(lambda d: "page 2 of 2" in d.title)
    assert "order=oldest" in browser.current_url

    # Firebase: the phone in any form, a disabled filter, an account page's title.
    phone = auth.create_user(phone_number="+15550100777", app=admin_app)
    off = auth.create_user(email="off@example.com", disabled=True, display_name=HOSTILE, app=admin_app)
    auth.create_user(email="on@example.com", app=admin_app)
    for form in ("+1 555 010 0777", "15550100777", "555-010-0777"):
        browser.get(f"{emulator.base}/_/?side=firebase")
        search = browser.find_element(By.ID, "q")
        search.send_keys(form)
        search.submit()
        wait_for_text(browser, "1 account matching", By.ID, "count")
        assert phone.uid in browser.find_element(By.ID, "accounts").text, form
    browser.get(f"{emulator.base}/_/?side=firebase&disabled=1")
    assert listed(browser) == ["off@example.com"] and no_alert(browser)
    browser.find_element(By.LINK_TEXT, "off@example.com").click()
    WebDriverWait(browser, 10).until(lambda d: d.title.startswith("off@example.com · Firebase account"))
