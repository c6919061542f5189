"""Headless Debian chromium driven by selenium, sized like a phone, for the web ledger's page."""
from __future__ import annotations

import os
import pathlib
import shutil
import tempfile
import time
from typing import Callable

import pytest

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
PHONE = (390, 844)
WAIT = 60.0                  # how long a step may take to become possible: a guard against a hang on a
                             # loaded machine (2 cores shared by many), not a speed claim


def have_browser() -> bool:
    return os.path.exists(CHROMIUM) and os.path.exists(DRIVER)


needs_browser = pytest.mark.skipif(not have_browser(), reason="chromium and chromium-driver are not "
                                   "installed (make test installs them)")


class Phone:
    """One browser session: a phone at the table, with its own profile (its own join and seat)."""

    def __init__(self, lang: str = "en") -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="ledger-phone-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--disable-dev-shm-usage", f"--user-data-dir={self.profile}", f"--lang={lang}"):
            options.add_argument(arg)
        options.add_experimental_option("prefs", {"intl.accept_languages": lang})
        self.driver = webdriver.Chrome(service=Service(DRIVER), options=options)
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True})

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def seq(self) -> int:
        value = self.js("return document.body.dataset.seq;")
        return int(value) if value is not None else -1

    def until(self, test: Callable[[], object], what: str, timeout: float = WAIT):
        deadline = time.monotonic() + timeout
        while True:
            try:
                result = test()
            except Exception:        # an element replaced while looking at it: look again
                result = None
            if result:
                return result
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not seen within {timeout} s")
            time.sleep(0.03)

    def tap(self, css: str) -> None:
        """Click the element as a finger would, once it is there and enabled."""
        from selenium.webdriver.common.by import By

        def click() -> bool:
            element = self.driver.find_element(By.CSS_SELECTOR, css)
            if not element.is_enabled():
                return False
            self.js("arguments[0].scrollIntoView({block: 'center'});", element)
            element.click()
            return True

        self.until(click, f"tap {css}")

    def type(self, css: str, text: str) -> None:
        from selenium.webdriver.common.by import By

        def typed() -> bool:
            element = self.driver.find_element(By.CSS_SELECTOR, css)
            element.clear()
            element.send_keys(text)
            return element.get_attribute("value") == text

        self.until(typed, f"type into {css}")

    def text(self, css: str) -> str:
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;", css) or ""

    def screenshot(self, name: str, css: str | None = None) -> None:
        """Keep a phone-sized picture in docs/screens when WEB_SCREENS names that folder."""
        folder = os.environ.get("WEB_SCREENS")
        if folder:
            self.js("const e = arguments[0] && document.querySelector(arguments[0]);"
                    "if (e) { e.scrollIntoView({block: 'start'}); window.scrollBy(0, -60); }"
                    "else window.scrollTo(0, 0);", css)
            time.sleep(0.2)
            pathlib.Path(folder).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(pathlib.Path(folder) / name))


def attr(name: str, value: str) -> str:
    """A CSS selector for an attribute with this exact value (quotes in names escaped)."""
    return '[%s="%s"]' % (name, value.replace("\\", "\\\\").replace('"', '\\"'))
