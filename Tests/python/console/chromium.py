"""The browser of the console's and the browser sign-in's tests (a fixture both import): Debian's Chromium, headless,
driven by Selenium through the system chromedriver (never a downloaded one)."""
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser():
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.fail("chromium and chromium-driver are not installed (scripts/setup.sh installs them)", pytrace=False)
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never try to download anything
    profile = tempfile.mkdtemp(prefix="authsh-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # --no-sandbox: Chromium refuses to start as root with its sandbox, and a container gives an
    # unprivileged user no namespaces for it; the browser only ever loads the loopback emulator.
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", f"--user-data-dir={profile}", "--no-first-run"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)
