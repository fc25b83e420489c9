"""Loads the gateway's documentation page (/docs, Swagger UI) in headless Chromium (Debian's
chromium and chromium-driver, driven by Selenium) and checks that it lists identity's
operations, as a person opening it would see them. Then signs in through the page's own
"Try it out" on POST /v1/sessions and checks the page authorized itself with the new token.

Run by the end-to-end FrontDoorTests (Swift), which start the suite and pass its address:

    .tools/venv/bin/python Tests/FrontDoorClients/docs_page.py --url https://localhost:7443/docs \
        --email ada@example.com --password ...

The dev CA is not in Chromium's trust store, so certificate errors are ignored for this one
loopback origin's page; the page itself is what is under test.
"""

import argparse
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

EXPECTED_OPERATIONS = ["/v1/accounts", "/v1/sessions", "/v1/me", "/v1/payment-methods"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    arguments = parser.parse_args()

    options = webdriver.ChromeOptions()
    options.binary_location = arguments.chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--ignore-certificate-errors",
                 "--disable-gpu", "--window-size=1280,2000"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(arguments.chromedriver), options=options)
    try:
        wait = WebDriverWait(driver, 30)
        driver.get(arguments.url)
        wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, ".opblock")))

        def listed():
            return {element.get_attribute("data-path") for element in driver.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")}

        # Swagger UI renders only the operations near the viewport: scroll down a step at a time
        # (one step per poll of the wait) until every operation looked for has been rendered.
        paths = set()

        def scrolled_until_listed(_):
            paths.update(listed())
            if all(path in paths for path in EXPECTED_OPERATIONS):
                return True
            driver.execute_script("window.scrollBy(0, 700)")
            return False

        try:
            wait.until(scrolled_until_listed)
        except TimeoutException:
            pass
        missing = [path for path in EXPECTED_OPERATIONS if path not in paths]
        assert not missing, f"the page does not list {missing} (it lists {sorted(p for p in paths if p)})"
        assert "Binario" in driver.find_element(By.CSS_SELECTOR, ".info .title").text
        print(f"ok: /docs lists {len(paths)} paths, identity's among them")

        # Sign in through the page: POST /v1/sessions, "Try it out", the body, "Execute".
        driver.execute_script("window.scrollTo(0, 0)")

        def scrolled_until_present(_):
            found = driver.find_elements(By.ID, "operations-Identity-Identity_Login")
            if found:
                return found[0]
            driver.execute_script("window.scrollBy(0, 700)")
            return False

        block = wait.until(scrolled_until_present)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", block)
        block.find_element(By.CSS_SELECTOR, ".opblock-summary").click()
        wait.until(lambda _: block.find_elements(By.CSS_SELECTOR, ".try-out__btn"))
        block.find_element(By.CSS_SELECTOR, ".try-out__btn").click()
        body = wait.until(lambda _: block.find_element(By.CSS_SELECTOR, "textarea.body-param__text"))
        body.clear()
        body.send_keys(json.dumps({"email": arguments.email, "password": arguments.password}))
        block.find_element(By.CSS_SELECTOR, ".execute").click()
        wait.until(lambda _: block.find_elements(By.CSS_SELECTOR, ".live-responses-table tr.response .response-col_status"))
        status = block.find_element(By.CSS_SELECTOR, ".live-responses-table tr.response .response-col_status").text.strip()
        assert status.startswith("200"), f"signing in through the page answered {status}"
        authorized = wait.until(lambda _: driver.execute_script(
            "const auth = window.ui.authSelectors.authorized().toJS();"
            "return auth.bearer && auth.bearer.value ? auth.bearer.value : null;"))
        assert authorized and authorized.count(".") == 2, "the page did not authorize itself with the access token"
        print("ok: signed in through the page; later calls carry the token")
    finally:
        driver.quit()


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
