"""The web app (clients/web) in headless Chromium (Debian's chromium and chromium-driver, driven
by Selenium) against a running suite, as its people use it:

- a traveller signs up, confirms with the emailed code and signs in; the demo station's board
  shows the next trains; they follow one;
- an admin delays that train from the admin page: the traveller's board and unread count show it
  without a reload, and a platform change then arrives in their open notification list;
- the traveller adds a card, buys a ticket and finds it in the wallet with a QR code, which
  zbarimg decodes to a code the inspectors' InspectTicket accepts;
- subscriptions, itineraries, nearby deals and stations;
- uploading a board's readings draws the chart (with the reference station's line) and the map;
- a driver rejects an offer, and the control room shows their taxi move to the tail of the queue;
- a forgotten password is reset through the emailed link; the board on a phone-sized screen.

In both languages: the traveller's browser speaks Italian, so the app does (the page's words
from its Italian catalogue, dates and money as Italians write them), their account is made in
Italian, and what the suite writes to them (the emailed code, the train's notifications, the
refusals beside the fields) comes in Italian; the admin's and the driver's browsers speak
English, and so does a second traveller's, who signs up, buys from a board and a return from the
buy page, and opens the profile, all in English. On the phone, a person switches the language from the header and it stays switched.

No page may log a console error, and every page is checked with axe-core (the copy PyPI's
axe-selenium-python carries) as it is shown: no serious or critical violation. A screenshot of
every page goes to --screenshots.

Run by the end-to-end WebAppTests (Swift), which start the suite and pass its address:

    .tools/venv/bin/python Tests/FrontDoorClients/web_app.py --url https://localhost:7443 \
        --ca .dev/certs/ca.pem --admin-email admin@binario.test --admin-password ... \
        --readings Services/Telemetry/DemoData/board-walk-2024-01-15.csv --screenshots /tmp/shots

The dev CA is not in Chromium's trust store, so certificate errors are ignored for this one
loopback origin; the setup calls made over HTTP (the admin's outbox, a passenger asking for a
taxi) verify the gateway against --ca.
"""

import argparse
import base64
import csv
import datetime
import json
import pathlib
import re
import ssl
import subprocess
import sys
import tempfile
import traceback
import urllib.error
import urllib.parse
import time
import urllib.request
import uuid
import zoneinfo

import axe_selenium_python
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

PASSWORD = "a-good-password-1"
AXE = pathlib.Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
ROOT = pathlib.Path(__file__).resolve().parents[2]
CATALOGUES = ROOT / "clients" / "web" / "locales"
# What the services write in each language, as the tests look for it (the Italian is from
# Shared/Domain/Language/Italian.swift).
SERVER_WORDS = {
    "it": {"late": "{count} minuti di ritardo", "code": "il tuo codice di conferma Binario", "not_email": "non è un indirizzo email",
           "first_class": "1ª classe", "one_way": "sola andata",
           "emergency_services": "Servizi di emergenza",
           "portal_only": "un collegamento al portale open data, https://www.dati.lombardia.it/…"},
    "en": {"late": "{count} minutes late", "code": "your Binario confirmation code", "not_email": "is not an email address",
           "first_class": "1st class", "one_way": "one way",
           "emergency_services": "Emergency services",
           "portal_only": "a link to the open-data portal, https://www.dati.lombardia.it/…"},
}


def words(language, key, **params):
    """The app's text for `key` in `language`, as i18n.js makes it (plural by `count`)."""
    entry = json.loads((CATALOGUES / f"{language}.json").read_text())[key]
    if isinstance(entry, dict):
        entry = entry["one" if params.get("count") == 1 else "other"]
    return re.sub(r"\{(\w+)\}", lambda match: str(params.get(match.group(1), match.group(0))), entry)
DUOMO = (45.46419, 9.18960)
BRERA = (45.47190, 9.18790)


class Gateway:
    """JSON calls to the front door for the setup a person would do elsewhere (their email,
    another person's phone)."""

    def __init__(self, url, ca):
        self.url = url
        self.context = ssl.create_default_context(cafile=ca)

    def call(self, method, path, body=None, token=None, scheme="Bearer", language=None, headers=None):
        request = urllib.request.Request(self.url + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        request.add_header("content-type", "application/json")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        if language:
            request.add_header("accept-language", language)
        if token:
            request.add_header("authorization", f"{scheme} {token}")
        try:
            with urllib.request.urlopen(request, context=self.context, timeout=30) as response:
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path} answered {error.code}: {error.read().decode()}") from None

    def sign_in(self, email, password):
        return self.call("POST", "/v1/sessions", {"email": email, "password": password})["tokens"]["accessToken"]

    def outbox(self, admin, recipient):
        answer = self.call("GET", f"/v1/admin/outbox-messages?recipient={urllib.parse.quote(recipient)}&limit=10", token=admin)
        return [message["body"] for message in answer.get("messages", [])]

    def code(self, admin, recipient):
        for body in self.outbox(admin, recipient):
            found = re.search(r"\b(\d{6})\b", body)
            if found:
                return found.group(1)
        raise AssertionError(f"no code for {recipient} in the outbox")


class Browser:
    """One person's Chromium: its own tab, storage and console."""

    def __init__(self, arguments, name, size=(1280, 900), language="en"):
        options = webdriver.ChromeOptions()
        options.binary_location = arguments.chromium
        locale = {"it": "it-IT", "en": "en-GB"}[language]
        for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--ignore-certificate-errors",
                     "--disable-gpu", f"--window-size={size[0]},{size[1]}", f"--lang={locale}"]:
            options.add_argument(flag)
        # What navigator.languages (and Accept-Language) say: the person's language.
        options.add_experimental_option("prefs", {"intl.accept_languages": f"{locale},{language}"})
        self.language = language
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        if size[0] < 500:
            # A window is never narrower than 500px: a phone's screen is emulated instead.
            options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1], "pixelRatio": 2}})
        self.name = name
        self.driver = webdriver.Chrome(service=Service(arguments.chromedriver), options=options)
        self.wait = WebDriverWait(self.driver, 30)
        self.base = arguments.url
        self.shots = pathlib.Path(arguments.screenshots)
        self.errors = []
        self.violations = []
        self.offline = False
        self.offline_windows = []  # [start, end] in ms, while Chromium emulated no network
        self.worker_sessions = []
        # Refusals a step provokes on purpose ("path", status): Chromium logs every failed
        # request as an error, and each of these may be logged once.
        self.provoked = []

    def open(self, fragment):
        """Goes to a page of the app by its #fragment (no reload once the app is loaded)."""
        if self.driver.current_url.startswith(self.base + "/"):
            self.driver.execute_script("location.hash = arguments[0]", fragment)
        else:
            self.driver.get(f"{self.base}/{fragment}")

    def until(self, condition, what):
        def check(_):
            try:
                return condition()
            except StaleElementReferenceException:
                return False  # the page redrew what was being read: read it again
        try:
            return self.wait.until(check)
        except TimeoutException:
            # What the person would see: the page's alerts, and a screenshot beside the others.
            alerts = "; ".join(element.text for element in self.driver.find_elements(By.CSS_SELECTOR, "[role=alert]") if element.text)
            self.driver.save_screenshot(str(self.shots / f"FAILED-{self.name}.png"))
            console = " | ".join(entry["message"][-200:] for entry in self.driver.get_log("browser")[-6:])
            raise AssertionError(f"{self.name}: {what} (page: {self.driver.current_url}; alerts: {alerts or 'none'}; "
                                 f"console: {console or 'nothing'})") from None

    def find(self, css):
        return self.until(lambda: self.driver.find_elements(By.CSS_SELECTOR, css), f"no {css}")[0]

    def fill(self, form_css, values, submit=True):
        """Types `values` into the form's fields by name and submits it. A page that redraws the
        form meanwhile (new data arrived) is filled again from the start."""
        for attempt in range(3):
            try:
                form = self.find(form_css)
                for name, value in values.items():
                    element = form.find_element(By.NAME, name)
                    if element.tag_name == "select":
                        Select(element).select_by_value(value)
                    elif element.get_attribute("type") == "checkbox":
                        if element.is_selected() != value:
                            element.click()
                    elif element.get_attribute("type") in ("date", "time") and re.fullmatch(r"\d{4}-\d\d-\d\d|\d\d:\d\d", value):
                        # An ISO value (typed keys depend on the browser's locale) is set as
                        # the picker would, with its change event.
                        self.driver.execute_script(
                            "arguments[0].value = arguments[1];"
                            "arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", element, value)
                    else:
                        element.clear()
                        element.send_keys(value)
                if submit:
                    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
                return form
            except StaleElementReferenceException:
                if attempt == 2:
                    raise
        return None

    def text(self, css):
        return " ".join(element.text for element in self.driver.find_elements(By.CSS_SELECTOR, css))

    def words(self, key, **params):
        """The app's text for `key` in this person's language."""
        return words(self.language, key, **params)

    def server(self, key, **params):
        """What the services write to this person for `key`, in their language."""
        return SERVER_WORDS[self.language][key].format(**params)

    #: Added to every screenshot's name (a second person's shots beside the first's).
    shot_suffix = ""

    def shot(self, name):
        """A screenshot of the page (its full height) as NAME.png."""
        height = self.driver.execute_script("return Math.min(document.documentElement.scrollHeight, 4000)")
        width = self.driver.get_window_size()["width"]
        self.driver.set_window_size(width, max(height + 120, 600))
        self.driver.save_screenshot(str(self.shots / f"{name}{self.shot_suffix}.png"))
        self.driver.set_window_size(width, 900 if width > 500 else 844)
        self.check_console(name)
        self.check_accessibility(name)

    def check_accessibility(self, where):
        """axe-core on the page as it is: its serious and critical violations are recorded."""
        if not self.driver.execute_script("return typeof window.axe === 'object'"):
            self.driver.execute_script(AXE.read_text())
        self.driver.set_script_timeout(60)
        results = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(done, (error) => done({error: String(error)}))")
        assert "error" not in results, f"axe-core did not run on {where}: {results.get('error')}"
        for violation in results["violations"]:
            if violation["impact"] in ("serious", "critical"):
                targets = ", ".join(f"{node['html'][:90]}" for node in violation["nodes"][:4])
                self.violations.append(f"{self.name} on {where}: {violation['id']} ({violation['impact']}): {violation['help']} [{targets}]")

    def set_offline(self, offline):
        """Chromium's offline emulation, for the page and for its service worker (which makes
        its own requests, and would otherwise still reach the network). The worker's emulation
        lasts as long as the DevTools session that set it, which also keeps the worker running."""
        if not offline:
            self.check_console("offline")
        conditions = {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", conditions)
        if offline:
            for target in self.driver.execute_cdp_cmd("Target.getTargets", {})["targetInfos"]:
                if target["type"] == "service_worker" and target["url"].startswith(self.base):
                    attached = self.driver.execute_cdp_cmd("Target.attachToTarget", {"targetId": target["targetId"], "flatten": False})
                    self.worker_sessions.append(attached["sessionId"])
            assert self.worker_sessions, "no service worker to take offline"
        for session in self.worker_sessions:
            for number, (method, params) in enumerate([("Network.enable", {}), ("Network.emulateNetworkConditions", conditions)]):
                message = json.dumps({"id": 9000 + number, "method": method, "params": params})
                self.driver.execute_cdp_cmd("Target.sendMessageToTarget", {"sessionId": session, "message": message})
        if not offline:
            for session in self.worker_sessions:
                self.driver.execute_cdp_cmd("Target.detachFromTarget", {"sessionId": session})
            self.worker_sessions = []
        self.offline = offline
        now = time.time() * 1000
        if offline:
            self.offline_windows.append([now, None])
        elif self.offline_windows:
            self.offline_windows[-1][1] = now

    def in_offline_window(self, timestamp):
        """Whether a console entry stamped `timestamp` (ms) was logged while the network was off."""
        return any(start - 1000 <= timestamp <= (end if end is not None else float("inf")) + 1000 for start, end in self.offline_windows)

    def check_console(self, where):
        for entry in self.driver.get_log("browser"):
            if entry["level"] != "SEVERE":
                continue
            if self.offline_windows and "net::ERR_INTERNET_DISCONNECTED" in entry["message"] and self.in_offline_window(entry["timestamp"]):
                continue  # what a request does without network (Chrome may deliver it after the network is back)
            provoked = next((refusal for refusal in self.provoked
                             if f"{refusal[0]} - Failed to load resource: the server responded with a status of {refusal[1]}" in entry["message"]), None)
            if provoked:
                self.provoked.remove(provoked)
                continue
            self.errors.append(f"{self.name} on {where}: {entry['message']}")

    def press(self, *keys):
        """Keys pressed on whatever has the focus, as a person at a keyboard does; a pair
        (modifier, key) holds the modifier down for the key."""
        actions = ActionChains(self.driver)
        for key in keys:
            if isinstance(key, tuple):
                actions.key_down(key[0]).send_keys(key[1]).key_up(key[0])
            else:
                actions.send_keys(key)
        actions.perform()

    def focused(self, script):
        """`script` (a JavaScript expression about `element`) on the focused element."""
        return self.driver.execute_script(f"const element = document.activeElement; return {script};")

    def tab_to(self, script, what, limit=80, backwards=False):
        """Presses Tab (Shift+Tab `backwards`) until the focused element satisfies `script`."""
        for _ in range(limit):
            if self.focused(script):
                return
            self.press((Keys.SHIFT, Keys.TAB) if backwards else Keys.TAB)
        raise AssertionError(f"{self.name}: Tab never reaches {what} (focused: {self.focused('element.outerHTML.slice(0, 120)')})")

    def sign_in(self, email, password):
        self.open("#/sign-in")
        self.fill("#sign-in-form", {"email": email, "password": password})
        self.until(lambda: self.driver.find_elements(By.ID, "sign-out"), f"{email} is not signed in")

    def mark_loaded(self):
        """Marks this page load: a reload would lose the mark."""
        self.driver.execute_script("window.__loadedOnce = true")

    def still_loaded(self):
        return self.driver.execute_script("return window.__loadedOnce === true")

    def quit(self):
        self.check_console("the end")
        self.driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the front door, https://localhost:PORT")
    parser.add_argument("--ca", required=True)
    parser.add_argument("--admin-email", required=True)
    parser.add_argument("--admin-password", required=True)
    parser.add_argument("--readings", required=True, help="a board's readings CSV to upload")
    parser.add_argument("--reference-folder", required=True, help="the ARPA demo files (stations, measurements)")
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--zbarimg", default="/usr/bin/zbarimg")
    arguments = parser.parse_args()
    pathlib.Path(arguments.screenshots).mkdir(parents=True, exist_ok=True)
    for old in pathlib.Path(arguments.screenshots).glob("*.png"):
        old.unlink()
    gateway = Gateway(arguments.url, arguments.ca)
    admin_token = gateway.sign_in(arguments.admin_email, arguments.admin_password)

    browsers = []
    try:
        traveller = Browser(arguments, "traveller", language="it")
        admin = Browser(arguments, "admin", language="en")
        browsers += [traveller, admin]
        email = f"web-{uuid.uuid4().hex[:8]}@example.com"
        sign_up_and_in(traveller, gateway, admin_token, email)
        trip = board_and_live_changes(traveller, admin, arguments)
        service_notices(traveller, admin)
        emergency(traveller)
        buying(traveller)
        wallet(traveller, gateway, admin_token, arguments.zbarimg)
        subscriptions_and_itineraries(traveller, gateway, admin_token)
        air_quality(traveller, gateway, admin_token, arguments)
        nearby(traveller, gateway, email)
        driver = Browser(arguments, "driver")
        browsers.append(driver)
        taxi = control_room(admin, driver, gateway, admin_token)
        rider = Browser(arguments, "rider", language="en")
        browsers.append(rider)
        taxi_ride(rider, driver, gateway, taxi)
        fleet(admin, gateway, admin_token)
        tourist = Browser(arguments, "tourist", language="en")
        browsers.append(tourist)
        in_english(tourist, gateway, admin_token)
        email = profile(traveller, gateway, admin_token, email)
        password_reset(traveller, gateway, admin_token, email)
        kept_session(traveller, email, "a-new-password-2")
        phone(arguments, trip)
        # Last: the public air map the phone opens shows this person's public walk.
        leaving(traveller, gateway, email, "a-new-password-2")
        errors = [error for browser in browsers for error in browser.errors]
        assert not errors, "console errors:\n  " + "\n  ".join(errors)
        violations = [violation for browser in browsers for violation in browser.violations]
        assert not violations, "accessibility (axe-core), serious or critical:\n  " + "\n  ".join(violations)
        print(f"ok: every page, no console errors, no serious or critical axe-core violation; screenshots in {arguments.screenshots}")
    finally:
        for browser in browsers:
            try:
                browser.quit()
            except Exception as error:  # noqa: BLE001 - quitting must not hide the failure
                print(f"could not close {browser.name}: {error}", file=sys.stderr)


def sign_up_and_in(traveller, gateway, admin_token, email):
    traveller.open("#/sign-up")
    traveller.provoked.append(("/v1/accounts", 400))
    # The password typed twice: two that differ are refused beside the second, before anything is sent.
    traveller.fill("#sign-up-form", {"email": email, "password": PASSWORD, "passwordAgain": "a-different-one-9", "firstName": "Web"})
    traveller.until(lambda: traveller.words("account.passwordsDiffer") in traveller.text('[data-error-for="passwordAgain"]'),
                    "two different passwords are not refused beside the second")
    traveller.fill("#sign-up-form", {"email": "not-an-email", "passwordAgain": PASSWORD})
    traveller.until(lambda: traveller.server("not_email") in traveller.text('[data-error-for="email"]'),
                    "a bad email is not named beside its field, in the person's language")
    assert traveller.driver.execute_script("return document.documentElement.lang") == traveller.language, "the page is not in the browser's language"
    assert traveller.words("signUp.submit") in traveller.text("#sign-up-form button"), "the sign-up form is not in the browser's language"
    traveller.shot("sign-up")
    # What MOQA asks, the birthday and the gender optional.
    traveller.fill("#sign-up-form", {"email": email, "birthDate": "1991-03-14", "gender": "GENDER_FEMALE"})
    traveller.find("#confirm-form")
    assert any(traveller.server("code") in body for body in gateway.outbox(admin_token, email)), \
        "the confirmation email is not in the language the account was made in"
    traveller.fill("#confirm-form", {"code": gateway.code(admin_token, email)})
    traveller.find("#sign-in-form")
    traveller.shot("sign-in")
    traveller.fill("#sign-in-form", {"password": PASSWORD})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#board tbody tr[data-trip]"), "the board shows no trains")
    assert email in traveller.text("#who"), "the header does not say who is signed in"
    profile = gateway.call("GET", "/v1/me", token=gateway.sign_in(email, PASSWORD))["profile"]
    assert profile.get("language") == traveller.language, f"the account's language is {profile.get('language')}, not the app's"
    assert profile.get("birthDate") == "1991-03-14" and profile.get("gender") == "GENDER_FEMALE", f"the sign-up's birthday and gender are not kept: {profile}"
    print(f"ok: signed up in {traveller.language}, confirmed with the emailed code (in {traveller.language}), signed in")


def board_and_live_changes(traveller, admin, arguments):
    rows = traveller.driver.find_elements(By.CSS_SELECTOR, "#board tbody tr[data-trip]")
    assert len(rows) >= 3, f"the demo station's board shows {len(rows)} trains"
    assert traveller.words("board.from", station="Milano Centrale") in traveller.text("h1")
    first = rows[0]
    trip, service_date = first.get_attribute("data-trip"), first.get_attribute("data-date")
    # Following a train asks to turn on pushes; the person says yes. (Headless Chromium has no
    # push service to subscribe at, so the app carries on with the inbox and its live stream.)
    traveller.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": traveller.base, "permissions": ["notifications"]})
    first.find_element(By.CSS_SELECTOR, "button.follow").click()
    traveller.until(lambda: traveller.driver.find_element(By.CSS_SELECTOR, f'#board tr[data-trip="{trip}"] button.follow')
                    .get_attribute("aria-pressed") == "true", "following the train did not take")
    traveller.shot("board")
    traveller.mark_loaded()

    admin.sign_in(arguments.admin_email, arguments.admin_password)
    admin.open("#/admin/trips")
    admin.find(f'#admin-runs tr[data-trip="{trip}"] button.change-run').click()
    admin.fill("#delay-form", {"minutes": "17", "reason": "Signal failure at Lambrate"})
    admin.until(lambda: "delay 17 min" in admin.text("#run-editor .changes"), "the delay is not in the run's changes")
    admin.shot("admin-timetable")

    row = f'#board tr[data-trip="{trip}"]'
    traveller.until(lambda: traveller.words("run.late", count=17) in traveller.text(row), "the traveller's board does not show the delay")
    assert "delayed" in traveller.driver.find_element(By.CSS_SELECTOR, row).get_attribute("class")
    traveller.until(lambda: traveller.text("#unread") not in ("", "0"), "the unread count does not show the new notification")
    assert traveller.still_loaded(), "the board was reloaded"
    traveller.shot("board-delayed")

    traveller.open("#/notifications")
    traveller.until(lambda: traveller.server("late", count=17) in traveller.text("#notifications"),
                    "the notification list does not show the delay in the account's language")
    admin.fill("#platform-form", {"platform": "21", "reason": "Track works"})
    traveller.until(lambda: "21" in traveller.text("#notifications li:first-child"),
                    "a platform change does not arrive in the open notification list")
    assert traveller.still_loaded(), "the notifications page was reloaded"
    traveller.shot("notifications")
    traveller.open(f"#/trips/{trip}/{service_date}")
    traveller.until(lambda: "21" in traveller.text("table.stops .platform.changed"), "the trip's page does not show the new platform")
    traveller.shot("trip")
    traveller.open("#/journeys")
    traveller.fill("#journey-form", {"fromStationId": "MI_CENTRALE", "toStationId": "BERGAMO"})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#journeys li.card"), "no journeys from Milano Centrale to Bergamo")
    traveller.shot("journeys")
    print(f"ok: {trip} delayed and moved by the admin; the traveller's board and notifications showed both live")
    return trip


def service_notices(traveller, admin):
    """The admin publishes a network-wide strike notice in Italian and English from the notices
    page (reached from the menu); the traveller, who follows a train, is told in Italian and sees
    it on the board; the admin ends it and it leaves the board."""
    admin.open("#/")
    admin.find('#site-nav a[href="#/admin/notices"]').click()
    form = admin.find("#notice-form")
    ends = time.strftime("%Y-%m-%dT%H:%M", time.localtime(time.time() + 2 * 86400))
    admin.driver.execute_script("arguments[0].value = arguments[1]", form.find_element(By.NAME, "endsAt"), ends)
    admin.fill("#notice-form", {"title": "Sciopero del personale", "description": "Treni a rischio dalle 9 alle 17.",
                                "titleEn": "Staff strike", "descriptionEn": "Trains at risk from 9 to 17.", "cause": "STRIKE",
                                "effect": "REDUCED_SERVICE"})
    admin.until(lambda: "Staff strike" in admin.text("#notices-list") or "Sciopero del personale" in admin.text("#notices-list"),
                "the new notice is not in the admin's list")
    assert admin.words("notices.active") in admin.text("#notices-list tbody tr:first-child"), admin.text("#notices-list")
    admin.shot("admin-notices")
    traveller.open("#/board")
    traveller.until(lambda: "Sciopero del personale" in traveller.text("#board-notices"), "the board does not show the notice in Italian")
    traveller.shot("board-notice")
    traveller.open("#/notifications")
    traveller.until(lambda: "Sciopero del personale" in traveller.text("#notifications"), "the follower was not told of the notice")
    admin.find("#notices-list tbody tr:first-child button.end-notice").click()
    admin.until(lambda: admin.words("notices.ended") in admin.text("#notices-list tbody tr:first-child"), "the notice did not end")
    traveller.open("#/board")
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#board tbody tr[data-trip]")
                    and not traveller.text("#board-notices"), "the ended notice is still on the board")
    print("ok: a service notice published in two languages reached the follower and the board, and ended")


def emergency(traveller):
    """The traveller adds an emergency contact who reads English, then presses the emergency
    button (on every page) with the device's position granted: their contact and 112 are
    alerted, each in their own language, with the position."""
    traveller.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": traveller.base, "permissions": ["geolocation"]})
    traveller.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 45.4858, "longitude": 9.2044, "accuracy": 20})
    traveller.open("#/board")
    traveller.find("#emergency-button").click()
    traveller.fill("#add-contact-form", {"name": "Sam", "phone": "+447700900123", "channel": "CONTACT_CHANNEL_WHATSAPP", "language": "en"})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#emergency-contacts li[data-contact]"), "the contact was not added")
    traveller.fill("#emergency-form", {"recipients": "EMERGENCY_RECIPIENTS_BOTH", "note": "caviglia"})
    traveller.until(lambda: len(traveller.driver.find_elements(By.CSS_SELECTOR, "#emergency-sent .card")) == 2, "the alert did not reach the contact and 112")
    cards = [card.text for card in traveller.driver.find_elements(By.CSS_SELECTOR, "#emergency-sent .card")]
    assert "EMERGENCY:" in cards[0] and "45.485800,9.204400" in cards[0], cards[0]
    assert "EMERGENZA:" in cards[1] and "112" in cards[1], cards[1]
    assert traveller.server("emergency_services") in cards[1], f"112 is not named in the traveller's language: {cards[1]}"
    link = traveller.driver.find_element(By.CSS_SELECTOR, "#emergency-sent .card a").get_attribute("href")
    assert link.startswith("https://wa.me/447700900123?text="), link
    traveller.shot("emergency")
    print("ok: the emergency button alerted a contact in English and 112 in Italian, with the position")


def buying(traveller):
    """A ticket bought from a board row (one way, first class, paid with a new card), and a
    return from the buy page (paid with the saved card): the wallet shows each train's state."""
    traveller.open("#/board/MI_CENTRALE")
    link = traveller.find("#board a.buy")
    row = link.find_element(By.XPATH, "./ancestor::tr")
    train = row.find_element(By.CSS_SELECTOR, 'a[href^="#/trips/"]').text
    link.click()
    # The buy page opens with the board's train chosen, from the board's station.
    chosen = '#trains-form input[name=outbound]:checked'
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, chosen), "the buy page offers no train from the board")
    chosen_label = lambda: traveller.driver.execute_script(
        "const input = document.querySelector(arguments[0]); return input ? input.parentElement.textContent : ''", chosen)
    label = chosen_label()
    assert train in label and "Milano Centrale" in label, f"the buy page chose {label}, not the board's {train}"
    traveller.fill("#buy-form", {"travelClass": "TRAVEL_CLASS_FIRST"})
    traveller.until(lambda: traveller.find("#buy-form").get_attribute("aria-busy") is None and train in chosen_label(),
                    "the board's train is no longer chosen")
    traveller.fill("#trains-form", {})
    assert traveller.find("#quote .validity").text == traveller.words("buy.validOnTrain", minutes=240)
    assert traveller.server("first_class") in traveller.text("#quote .quote tbody"), f"the quote is not for first class: {traveller.text('#quote .quote')}"
    traveller.shot("buy")
    # No card yet: the new card's fields are asked for beside the price.
    assert traveller.find("#pay-form select[name=paymentMethodId]").get_attribute("value") == "new"
    traveller.fill("#pay-form", {"cardNumber": "4242 4242 4242 4242", "expiryMonth": "12", "expiryYear": "2030", "securityCode": "123"})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#quote .bought"), "paying with a new card bought nothing")

    # A return on the day after tomorrow's morning trains, back two days later.
    rome = zoneinfo.ZoneInfo("Europe/Rome")
    going = (datetime.datetime.now(rome) + datetime.timedelta(days=2)).date()
    back = going + datetime.timedelta(days=2)
    traveller.open("#/buy")
    traveller.fill("#buy-form", {"product": "station", "fromStationId": "MALPENSA_T1", "toStationId": "MI_CENTRALE",
                                 "date": going.isoformat(), "time": "09:00", "way": "return",
                                 "returnDate": back.isoformat(), "returnTime": "10:00"})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#trains-form input[name=back]:checked"), "no train back was offered")
    traveller.find("#trains-form button[type=submit]").click()
    pay = traveller.find("#pay-form button[type=submit]")
    assert traveller.find("#pay-form select[name=paymentMethodId]").get_attribute("value") != "new", "the saved card is not offered first"
    assert not traveller.find("#pay-form .new-card").is_displayed(), "the new card's fields show with a saved card chosen"
    pay.click()
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#quote .bought"), "paying with the saved card bought nothing")
    traveller.find("#quote .bought a").click()
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, '#tickets .journey[data-way="back"]'), "the wallet does not show the return's way back")
    ways = [element.text for element in traveller.driver.find_elements(By.CSS_SELECTOR, "#tickets .journey")]
    assert any("Malpensa" in way and traveller.words("wallet.outbound") in way for way in ways), ways
    assert any(traveller.words("wallet.back") in way and way.count("Milano Centrale") == 1 for way in ways), ways
    number = train.split()[-1]
    assert any(traveller.words("wallet.train", train=number) in way for way in ways), f"the wallet does not show the train bought from the board: {ways}"
    traveller.shot("wallet-return")
    print("ok: bought from a board row with a new card and a return from the buy page with the saved card; the wallet shows each way")
    journey_with_a_change(traveller)


def journey_with_a_change(traveller):
    """Malpensa T1 → Bergamo with a change at Milano Centrale, bought from the journey search as
    one ticket: the buy page offers the journey with both trains, the quote is one line, and the
    wallet shows both trains, the second where the traveller changes."""
    traveller.open("#/journeys")
    traveller.fill("#journey-form", {"fromStationId": "MALPENSA_T1", "toStationId": "BERGAMO"})
    link = '#journeys li.card[data-legs="2"] a.buy'
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, link), "the journey search offers no journey with a change to buy")
    traveller.find(link).click()
    chosen = '#trains-form input[name=outbound]:checked'
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, chosen), "the buy page offers no journey from the search")
    label = traveller.driver.execute_script("return document.querySelector(arguments[0]).parentElement", chosen)
    assert label.get_attribute("data-legs") == "2", f"the buy page chose {label.text}, not the journey with a change"
    assert traveller.words("buy.changeAt", station="Milano Centrale") in label.text, label.text
    traveller.fill("#trains-form", {})
    lines = traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#quote .quote tbody tr"), "no quote for the journey")
    assert len(lines) == 1 and "Malpensa" in lines[0].text and "Bergamo" in lines[0].text, [line.text for line in lines]
    assert traveller.server("one_way") in lines[0].text, lines[0].text
    traveller.shot("buy-change")
    traveller.find("#pay-form button[type=submit]").click()
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#quote .bought"), "paying for the journey with a change bought nothing")
    traveller.find("#quote .bought a").click()
    change = '#tickets .journey[data-way="outbound-change"]'
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, change), "the wallet does not show the journey's second train")
    card = traveller.find(change).find_element(By.XPATH, "./ancestor::li[1]")
    ways = [element.text for element in card.find_elements(By.CSS_SELECTOR, ".journey")]
    assert len(ways) == 2 and "Malpensa" in ways[0] and traveller.words("wallet.changeAt", station="Milano Centrale") in ways[1], ways
    assert "Bergamo" in ways[1], ways
    traveller.driver.execute_script("arguments[0].scrollIntoView()", card)
    traveller.shot("wallet-change")
    print("ok: a journey with a change bought from the journey search as one ticket; the wallet shows both trains")


def in_english(tourist, gateway, admin_token):
    """A second traveller whose browser speaks English: the sign-up, buying from a board row and
    a return from the buy page, the wallet's ways, and the profile with its notification topics,
    all in English."""
    tourist.shot_suffix = "-en"
    email = f"tourist-{uuid.uuid4().hex[:8]}@example.com"
    sign_up_and_in(tourist, gateway, admin_token, email)
    buying(tourist)
    tourist.open("#/profile")
    tourist.until(lambda: tourist.driver.find_elements(By.CSS_SELECTOR, "#topic-preferences tbody tr"), "the profile shows no notification topics")
    assert tourist.words("profile.topicsCaption") in tourist.text("#topic-preferences caption"), "the topics are not in English"
    assert tourist.words("profile.topicDeals") in tourist.text("#topic-preferences"), "the deals topic is not in English"
    assert tourist.words("profile.notifications") in tourist.text("#notifications-heading")
    tourist.shot("profile")
    print("ok: in English, signed up, bought from a board and a return from the buy page, and saw the profile's topics")


def wallet(traveller, gateway, admin_token, zbarimg):
    traveller.open("#/buy")
    traveller.fill("#buy-form", {"product": "zone", "zones": "Mi1-Mi3"})
    assert traveller.find("#quote .validity").text == traveller.words("buy.validMinutes", minutes=90)
    traveller.find("#pay-form button[type=submit]").click()
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#quote .bought"), "the zone ticket was not bought")
    traveller.open("#/wallet")
    canvas = traveller.find("#tickets canvas.qr")
    code = canvas.get_attribute("data-code")
    with tempfile.TemporaryDirectory() as folder:
        image = pathlib.Path(folder) / "qr.png"
        image.write_bytes(canvas.screenshot_as_png)
        decoded = subprocess.run([zbarimg, "--quiet", "--raw", str(image)], capture_output=True, text=True)
    assert decoded.returncode == 0, f"zbarimg read no QR code: {decoded.stderr}"
    assert decoded.stdout.strip() == code, "the QR code does not hold the ticket's validation code"
    # The inspectors' check reads the scanned code as this very ticket (signed by ticketing).
    ticket = traveller.find("#tickets li[data-ticket]").get_attribute("data-ticket")
    inspected = gateway.call("POST", "/v1/tickets:inspect", {"code": decoded.stdout.strip()}, token=admin_token)
    assert inspected.get("ticket", {}).get("ticketId") == ticket, f"the inspectors' check does not read the scanned code as the ticket: {inspected}"
    assert "Mi1-Mi3" in traveller.text("#purchases"), "the purchase is not in the history"
    traveller.shot("wallet")
    print("ok: bought a ticket; its QR code scans to a code the inspectors accept")

    # Without network the app opens again from the device: the wallet with the ticket and its
    # QR code, marked as a copy, which still scans to a code the inspectors accept.
    traveller.find("#tickets canvas.qr")
    traveller.until(lambda: traveller.driver.execute_script("return !!navigator.serviceWorker.controller"),
                    "no service worker controls the page")
    traveller.set_offline(True)
    traveller.driver.refresh()
    traveller.until(lambda: traveller.words("offline.asOf", time="") in traveller.text("#offline-mark") + " ",
                    "the wallet without network has no offline mark")
    canvas = traveller.find(f'#tickets li[data-ticket="{ticket}"] canvas.qr')
    with tempfile.TemporaryDirectory() as folder:
        image = pathlib.Path(folder) / "qr.png"
        image.write_bytes(canvas.screenshot_as_png)
        decoded = subprocess.run([zbarimg, "--quiet", "--raw", str(image)], capture_output=True, text=True)
    assert decoded.returncode == 0, f"zbarimg read no QR code offline: {decoded.stderr}"
    inspected = gateway.call("POST", "/v1/tickets:inspect", {"code": decoded.stdout.strip()}, token=admin_token)
    assert inspected.get("ticket", {}).get("ticketId") == ticket, f"the offline QR code is not the ticket: {inspected}"
    traveller.shot("wallet-offline")
    traveller.set_offline(False)
    traveller.driver.refresh()
    traveller.find("#tickets canvas.qr")
    traveller.until(lambda: not traveller.find("#offline-mark").is_displayed(), "the offline mark stays once back online")
    traveller.until(lambda: traveller.driver.find_elements(By.ID, "sign-out"), "back online, the traveller is no longer signed in")
    print("ok: offline, the wallet showed the ticket's QR code from the device, and the inspectors accepted it")


ECB_RATES = ("<gesmes:Envelope><Cube><Cube time='2026-11-27'><Cube currency='USD' rate='1.0512'/>"
             "<Cube currency='GBP' rate='0.8351'/></Cube></Cube></gesmes:Envelope>")


def subscriptions_and_itineraries(traveller, gateway, admin_token):
    """SubscribeME in the browser: four subscriptions added with the whole form (two currencies, a
    free trial, one paid by hand and due today), home's figures per currency and converted with
    the operator's ECB rates, the due date marked paid and in the payment history, the two
    statistics charts, and a budget passed."""
    gateway.call("POST", "/v1/admin/exchange-rates", {"content": ECB_RATES}, admin_token)
    rome = datetime.datetime.now(zoneinfo.ZoneInfo("Europe/Rome")).date()
    typed = lambda day: day.strftime("%m%d%Y")  # what Chromium's date input takes from keys

    def add(values):
        traveller.open("#/subscriptions/new")
        traveller.fill("#subscription-form", values)
        traveller.until(lambda: re.search(r"#/subscriptions/sb_[0-9a-f]+$", traveller.driver.current_url), f"{values['serviceName']} was not added")
        traveller.find("#subscription-detail h2")

    add({"serviceName": "Netflix", "planType": "family", "price": "23.99", "category": "SUBSCRIPTION_CATEGORY_MOVIES_AND_TV", "cardLast4": "4242"})
    add({"serviceName": "Spotify", "price": "10.99", "category": "SUBSCRIPTION_CATEGORY_MUSIC"})
    add({"serviceName": "Disney+", "price": "8.99", "currency": "USD", "category": "SUBSCRIPTION_CATEGORY_MOVIES_AND_TV",
         "trialEndsOn": typed(rome + datetime.timedelta(days=14)), "reminderDays": "5"})
    assert traveller.words("enum.SUBSCRIPTION_STATUS_TRIAL").lower() in traveller.text("#subscription-detail .status").lower(), "the trial is not shown"
    add({"serviceName": "Palestra", "price": "5", "category": "SUBSCRIPTION_CATEGORY_OTHER", "period": "SUBSCRIPTION_PERIOD_WEEKLY",
         "startDate": typed(rome - datetime.timedelta(days=7)), "automaticRenewal": False})
    assert traveller.words("subs.dueToday") in traveller.text("#subscription-detail .due"), "the gym is not due today"

    money = (lambda text: text.replace(".", ",")) if traveller.language == "it" else (lambda text: text)
    traveller.open("#/subscriptions")
    # EUR a month: 23.99 + 10.99 + 5 × 52 / 12 = 21.67: 56.65; a year 287.88 + 131.88 + 260 = 679.76.
    traveller.until(lambda: money("56.65") in traveller.text("#subscription-home .monthly"), "the monthly figure does not add up")
    assert money("679.76") in traveller.text("#subscription-home .yearly"), "the yearly figure is not the periods' sum"
    assert money("8.99") in traveller.text("#subscription-home .monthly"), "the dollars are not apart"
    # All together: 679.76 € + 107.88 USD / 1.0512 = 102.63 €: 782.39 € a year, 65.20 € a month.
    assert money("782.39") in traveller.text("#subscription-home .grand-yearly"), "the grand total is not converted"
    assert money("65.20") in traveller.text("#subscription-home .grand-monthly"), "the grand total's month is not a twelfth"
    traveller.shot("subscriptions")
    traveller.find("#due button").click()
    traveller.until(lambda: not traveller.driver.find_elements(By.CSS_SELECTOR, "#due"), "the date paid is still due")
    traveller.find("#my-subscriptions [data-category='SUBSCRIPTION_CATEGORY_OTHER'] h3 a").click()
    traveller.until(lambda: money("5.00") in traveller.text("#payments .total-paid"), "the payment is not in the history")
    traveller.shot("subscription")

    traveller.open("#/subscription-statistics")
    traveller.until(lambda: traveller.driver.execute_script(
        "const chart = window.Chart && window.Chart.getChart(document.getElementById('category-shares-chart'));"
        "return chart ? chart.data.datasets[0].data.join(' ') : ''") == "50 25 25", "the category shares are not two, one and one of four")
    assert traveller.driver.execute_script(
        "return window.Chart.getChart(document.getElementById('category-chart')).data.datasets[0].data.length") == 3
    traveller.shot("subscription-statistics")
    traveller.open("#/subscription-settings")
    traveller.fill("#subscription-settings-form", {"monthlyBudget": "50"})
    traveller.until(lambda: traveller.words("subs.settingsSaved") == traveller.driver.execute_script(
        "return document.getElementById('announcer').textContent"), "the settings were not saved")
    traveller.open("#/subscriptions")
    traveller.until(lambda: money("65.20") in traveller.text("#subscription-home .budget"), "the budget passed is not told")
    # Moving in from Wallos: its JSON export read, the row Binario cannot count named; then out again.
    wallos = pathlib.Path(tempfile.mkdtemp()) / "wallos.json"
    wallos.write_text(json.dumps([
        {"Name": "Tidal", "Payment Cycle": "Monthly", "Next Payment": (rome + datetime.timedelta(days=9)).isoformat(),
         "Renewal": "Automatic", "Category": "Music", "Price": "€10.99", "State": "Enabled", "Active": "Yes"},
        {"Name": "Vultr", "Payment Cycle": "Every 2 Weeks", "Next Payment": rome.isoformat(), "Renewal": "Automatic",
         "Category": "Servers", "Price": "$5", "State": "Enabled", "Active": "Yes"},
    ]))
    traveller.open("#/subscription-settings")
    importing = traveller.find("#subscription-import-form")
    importing.find_element(By.NAME, "file").send_keys(str(wallos))
    importing.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    traveller.until(lambda: "Tidal" in traveller.text("#imported"), "the Wallos file was not imported")
    assert "Vultr" in traveller.text("#import-problems"), "the row Binario cannot count is not named"
    traveller.find("#export-csv").click()
    traveller.until(lambda: traveller.words("subs.exported", count=5) == traveller.driver.execute_script(
        "return document.getElementById('announcer').textContent"), "the export did not say it wrote five")
    traveller.shot("subscription-settings")

    traveller.open("#/itineraries")
    traveller.fill("#itinerary-form", {"name": "Lake Como", "destination": "Bellagio", "startDate": "05012027",
                                       "endDate": "05022027", "cost": "180"})
    traveller.find("#event-form")
    traveller.fill("#event-form", {"title": "Ferry to Bellagio", "place": "Varenna", "startsAt": "05012027\t1030AM", "cost": "9.20"})
    traveller.until(lambda: "Ferry to Bellagio" in traveller.text("#itinerary-events"), "the event is not in the itinerary")
    traveller.fill("#invite-form", {"name": "Friend", "email": "friend-of-web@example.com"})
    traveller.until(lambda: "friend-of-web@example.com" in traveller.text("#itinerary-invites-sent"), "the invite is not listed")
    assert traveller.words("itinerary.waitsForSignUp") in traveller.text("#itinerary-invites-sent"), "the invite does not say it waits"
    # The trip's money: an expense paid for all (one member: even), the balance per currency.
    traveller.fill("#expense-form", {"description": "Ferry tickets", "amount": "18.40"})
    traveller.until(lambda: "Ferry tickets" in traveller.text("#itinerary-expenses"), "the expense is not listed")
    assert money("18.40") in traveller.text("#itinerary-money .balances h3"), "the money spent is not shown"
    assert traveller.words("itinerary.allSettled") in traveller.text("#itinerary-money"), "one person alone is not even"
    # The trip edited by its organiser; an event edited through its own form (a PATCH with a mask).
    traveller.find("#itinerary-edit summary").click()
    traveller.fill("#itinerary-edit-form", {"name": "Lake Como long weekend"})
    traveller.until(lambda: "Lake Como long weekend" in traveller.text("h1"), "the trip was not renamed")
    traveller.find("#itinerary-events details summary").click()
    traveller.fill("#itinerary-events details form", {"notes": "Buy the tickets at the pier"})
    traveller.until(lambda: "Buy the tickets at the pier" in traveller.text("#itinerary-events"), "the event was not edited")
    assert "Varenna" in traveller.text("#itinerary-events"), "the event's edit lost its place"
    # A train of the wallet joins the trip: its times and station from the timetable, its live
    # state, and the ticket linked for its owner.
    traveller.fill("#wallet-train-form", {"way": "0"})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#itinerary-events .train-ride"), "the wallet's train is not on the trip")
    ride = traveller.text("#itinerary-events .train-ride")
    assert "→" in ride and traveller.words("itinerary.yourTicket") in ride, ride
    # Someone registered who is not a friend yet: the invite sends a friend request and waits for it.
    stranger = "stranger-of-web@example.com"
    gateway.call("POST", "/v1/accounts", {"email": stranger, "password": PASSWORD, "firstName": "Stella"})
    gateway.call("POST", "/v1/accounts:confirmEmail", {"email": stranger, "code": gateway.code(admin_token, stranger)})
    traveller.fill("#invite-form", {"name": "Stella", "email": stranger})
    traveller.until(lambda: stranger in traveller.text("#itinerary-invites-sent"), "the invite to someone registered is not listed")
    assert traveller.words("itinerary.waitsForFriendship") in traveller.text("#itinerary-invites-sent"), "the invite does not say it waits for the friendship"
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#itinerary-map .leaflet-pane"), "no map of the events")
    traveller.shot("itinerary")
    # Friends: a contact saved for a trip before they sign up, and a request to someone unknown refused by its field.
    traveller.open("#/friends")
    traveller.fill("#contact-form", {"name": "Kay", "email": "kay-of-web@example.com"})
    traveller.until(lambda: "kay-of-web@example.com" in traveller.text("#contact-list"), "the contact is not listed")
    traveller.provoked.append(("/v1/friend-requests", 404))
    traveller.fill("#friend-request-form", {"email": "nobody-of-web@example.com"})
    traveller.until(lambda: traveller.text("#friend-request-form .form-alert"), "a request to no one is not refused")
    traveller.shot("friends")
    # The profile shows the friends in short, with the request sent with the invite.
    traveller.open("#/profile")
    traveller.until(lambda: traveller.words("profile.requestsOut", count=1) in traveller.text("#friends-summary"), "the profile does not show the request sent")
    print("ok: subscriptions through their life (trial, due, paid, rates, statistics, budget); a trip with its money and edits; friends")


def air_alerts(traveller, gateway, balcony_token):
    """An air alert set on the settings page; a board's reading above it reaches the person's
    notifications; the page says when it last told them; deleted."""
    traveller.fill("#air-alert-form", {"name": "Casa", "threshold": "25"})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, '#air-alerts [data-alert="Casa"]'), "the new alert is not listed")
    assert traveller.words("airAlerts.notYet") in traveller.text('#air-alerts [data-alert="Casa"]'), "a new alert does not say it has not told yet"
    traveller.shot("air-alerts")
    at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=2)).isoformat(timespec="seconds").replace("+00:00", "Z")
    answer = gateway.call("POST", "/v1/telemetry/readings:upload", {"readings": [{"time": at, "latitude": 45.4654, "longitude": 9.1859, "pm25": 41}]},
                          token=balcony_token, scheme="Device")
    assert answer.get("stored") == 1, f"the reading above the threshold was not stored: {answer}"
    inbox = lambda: traveller.driver.execute_async_script("""
        const done = arguments[0];
        import("/app/js/api.js").then((module) => module.api("GET", "/v1/me/notifications?page_size=50")).then(done, (error) => done({ error: String(error) }));
    """)  # noqa: E731
    told = lambda: [item for item in inbox().get("notifications", []) if item.get("kind") == "NOTIFICATION_KIND_AIR_ALERT"]  # noqa: E731
    traveller.until(lambda: told(), "the alert's notification did not arrive")
    notification = told()[0]
    assert "Casa" in notification["title"] and "PM2.5" in notification["title"] and "41" in notification["body"], f"the alert reads {notification}"
    # As the person sees it: in the notifications page, then beside the alert.
    traveller.open("#/notifications")
    traveller.until(lambda: notification["title"] in traveller.text("#notifications"), "the alert is not among the notifications")
    traveller.shot("air-alert-notification")
    opens = [link.get_attribute("href") for link in traveller.driver.find_elements(By.CSS_SELECTOR, "#notifications a") if "Casa" in link.text]
    assert opens and "#/air?" in opens[0] and "MEASURE_PM2_5" in opens[0], f"the alert does not open the air page on its measure: {opens}"
    traveller.open("#/air-settings")
    traveller.until(lambda: traveller.words("airAlerts.notYet") not in traveller.text('#air-alerts [data-alert="Casa"]'), "the alert does not say when it told")
    traveller.find('#air-alerts [data-alert="Casa"] button').click()
    traveller.until(lambda: not traveller.driver.find_elements(By.CSS_SELECTOR, '#air-alerts [data-alert="Casa"]'), "the alert is not deleted")
    print(f"ok: air alerts: set, told in the notifications ({notification['title']}), and deleted")


def air_calibration(traveller, gateway, arguments, walk_board, balcony_token):
    """A board calibrated against Milano v.Senato's PM2.5 (the EPA's form, with humidity), and the
    chart's outliers marked and replaced."""
    # The walk passed within 1 km of the station in two of its hours only: refused, saying so.
    traveller.fill("#air-form", {"measure": "MEASURE_PM2_5", "device": walk_board, "station": "", "from": "01152024\t0800AM", "to": "01152024\t0200PM"})
    calibrate = lambda board: traveller.driver.find_elements(By.CSS_SELECTOR, f'#air-calibrate[data-device="{board}"]')  # noqa: E731
    traveller.until(lambda: calibrate(walk_board), "calibrating one board is not offered")
    traveller.provoked.append(("/calibration?sensor_id=5505&from=2024-01-15T07%3A00%3A00.000Z&to=2024-01-15T13%3A00%3A00.000Z&max_points=48", 400))
    traveller.until(lambda: calibrate(walk_board)[0].click() or True, "the calibrate button cannot be pressed")
    traveller.until(lambda: "Senato" in traveller.text("#air-calibration-result .failure"), "a calibration without enough pairs does not say why")
    # The balcony board stood 100 m from the station the night before (the station's hourly
    # values, stamped in its standard time at each hour's start), with the station's value =
    # 0.5 × board − 0.3 × humidity + 6 at every reading (the humidity swinging 30 points between
    # readings and rising 2 an hour), and once was carried 5 km off and read 400.
    station, validated = {}, set()
    with open(pathlib.Path(arguments.reference_folder) / "measurements-2024-01-15.csv") as rows:
        for row in csv.DictReader(rows):
            if row["IdSensore"] == "5505":
                stamp = datetime.datetime.strptime(row["Data"], "%d/%m/%Y %I:%M:%S %p") - datetime.timedelta(hours=1)
                station[stamp] = float(row["Valore"].replace(",", "."))
                if row["Stato"] == "VA":
                    validated.add(stamp)
    readings = []
    for step in range(42):  # every 10 minutes from 00:00 to 06:50 UTC
        at = datetime.datetime(2024, 1, 15) + datetime.timedelta(minutes=10 * step)
        humidity = 50 + 30 * (step % 2) + 2 * (step // 6)
        value = (station[at.replace(minute=0)] - 6 + 0.3 * humidity) / 0.5
        readings.append({"time": at.isoformat() + "Z", "latitude": 45.4714, "longitude": 9.1975, "pm25": value, "humidity": humidity})
    readings.append({"time": "2024-01-15T05:05:00Z", "latitude": 45.5155, "longitude": 9.1975, "pm25": 400, "humidity": 70})
    answer = gateway.call("POST", "/v1/telemetry/readings:upload", {"readings": readings}, token=balcony_token, scheme="Device")
    assert answer.get("stored") == len(readings), f"the co-located readings were not stored: {answer}"
    balcony_board = next(option.get_attribute("value") for option in traveller.find("#air-form [name=device]").find_elements(By.TAG_NAME, "option")
                         if option.text == "Balcony board")
    traveller.fill("#air-form", {"device": balcony_board, "from": "01152024\t0100AM", "to": "01152024\t0800AM"})
    traveller.until(lambda: int(traveller.find("#air-chart").get_attribute("data-points") or 0) > 5
                    and calibrate(balcony_board), "the balcony board's night is not drawn")
    traveller.until(lambda: calibrate(balcony_board)[0].click() or True, "the calibrate button cannot be pressed")
    traveller.until(lambda: "Senato" in traveller.text("#air-calibration-fit") and int(traveller.find("#air-chart").get_attribute("data-corrected") or 0) >= 7,
                    "the fit and the corrected line are not shown")
    traveller.shot("air-calibration")
    # The known answer, through the gateway as the app asked it.
    fit = traveller.driver.execute_async_script("""
        const [path, done] = arguments;
        import("/app/js/api.js").then((module) => module.api("GET", path)).then(done, (error) => done({ error: String(error) }));
    """, f"/v1/telemetry/devices/{balcony_board}/calibration?sensor_id=5505&from=2024-01-15T00:00:00Z&to=2024-01-15T07:00:00Z")
    assert abs(fit["slope"] - 0.5) < 1e-6 and abs(fit["humidityCoefficient"] + 0.3) < 1e-6 and abs(fit["intercept"] - 6) < 1e-6, f"the fit is {fit}"
    # One pair per validated hour: the station's 06:00 value is marked not valid (NV), so skipped.
    pairs = sum(1 for hour in range(7) if datetime.datetime(2024, 1, 15, hour) in validated)
    assert pairs == 6 and fit["pairs"] == pairs and abs(fit["rSquared"] - 1) < 1e-9, f"the fit's quality is {fit}"
    print("ok: calibration: refused with the reason for a board seldom near the station; the known answer for one beside it, with its corrected line")
    # Outliers, openSenseMap's way: the 400 is marked, then replaced by its window's mean.
    traveller.fill("#air-form", {"outliers": "mark"})
    traveller.until(lambda: traveller.find("#air-chart").get_attribute("data-outliers") == "1", "the outlier is not marked")
    assert traveller.words("air.outliersFound", count=1, window=15) in traveller.text("#air-chart-note"), "the chart does not say how many outliers"
    traveller.shot("air-outliers")
    traveller.fill("#air-form", {"outliers": "replace"})
    traveller.until(lambda: traveller.words("air.outliersReplaced", count=1, window=15) in traveller.text("#air-chart-note"), "the outlier is not replaced")
    traveller.fill("#air-form", {"outliers": "", "measure": "MEASURE_PM2_5", "device": "", "from": "01152024\t0800AM", "to": "01152024\t0200PM"})
    print("ok: outliers marked and replaced on the chart")


def air_quality(traveller, gateway, admin_token, arguments):
    folder = pathlib.Path(arguments.reference_folder)
    for kind, name in [("KIND_CATALOGUE", "air-quality-stations.csv"), ("KIND_MEASUREMENTS", "measurements-2024-01-15.csv")]:
        data = base64.b64encode((folder / name).read_bytes()).decode()
        gateway.call("POST", "/v1/telemetry/reference:import", {"kind": kind, "network": "air_quality", "data": data}, token=admin_token)

    traveller.open("#/air")
    traveller.fill("#device-form", {"name": "Bike board"})
    token = traveller.find("#new-token").text
    assert len(token) > 20, "no device token shown"
    upload = traveller.find("#upload-form")
    upload.find_element(By.ID, "readings-file").send_keys(str(pathlib.Path(arguments.readings).resolve()))
    upload.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    rows = sum(1 for _ in open(arguments.readings)) - 1
    report = traveller.words("air.report", count=rows, stored=rows, duplicates=0, refused=0)
    traveller.until(lambda: report in traveller.text("#upload-form .upload-report"), "the upload does not report every reading stored")
    traveller.fill("#air-form", {"from": "01152024\t0800AM", "to": "01152024\t0200PM"})
    traveller.until(lambda: int(traveller.driver.find_element(By.ID, "air-chart").get_attribute("data-points") or 0) > 5,
                    "the chart has no series")
    traveller.until(lambda: int(traveller.driver.find_element(By.ID, "air-chart").get_attribute("data-reference-points") or 0) > 0,
                    "the chart has no reference station's line")
    traveller.until(lambda: len(traveller.driver.find_elements(By.CSS_SELECTOR, "#air-map path.reading")) > 20,
                    "the map draws no readings")
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#air-map path.reference-station"),
                    "the map draws no reference station")
    assert traveller.words("air.median") in traveller.text("#quartiles"), "no quartile table"
    # PM2.5 is coloured by its band of the European Air Quality Index: six bands in the legend,
    # each reading filled with one of their colours, ringed in blue as the boards' are.
    index = gateway.call("GET", "/v1/telemetry/air-quality-index", language=traveller.language)["bands"]
    band_colours = {band["colour"] for band in index}
    traveller.until(lambda: len(traveller.driver.find_elements(By.CSS_SELECTOR, "#air-legend li.band")) == 6, "the legend has not the index's six bands")
    fills = {path.get_attribute("fill") for path in traveller.driver.find_elements(By.CSS_SELECTOR, "#air-map path.reading")}
    assert fills and fills <= band_colours, f"readings are not coloured by their band: {fills - band_colours}"
    traveller.find("#air-legend li.band summary").click()
    assert index[0]["advice"] in traveller.text("#air-legend li.band"), "the band's health advice is not shown"
    assert "0–5 µg/m³" in traveller.text("#air-legend li.band"), f"the good band's range reads {traveller.text('#air-legend li.band')}"
    traveller.shot("air-quality")
    # Every measure is offered, altitude included; the boards and the stations near the data.
    measure_options = [option.get_attribute("value") for option in traveller.find("#air-form [name=measure]").find_elements(By.TAG_NAME, "option")]
    assert len(measure_options) == 11 and "MEASURE_ALTITUDE" in measure_options, f"the filter offers {measure_options}"
    stations = lambda: [option.text for option in traveller.find("#air-form [name=station]").find_elements(By.TAG_NAME, "option")]  # noqa: E731
    traveller.until(lambda: any("Pascal" in name for name in stations()) and any("Senato" in name for name in stations()),
                    "the station picker does not offer the stations near the data")
    # Hiding the reference data takes the stations off the map and the red line off the chart.
    traveller.fill("#air-form", {"station": "none"})
    traveller.until(lambda: traveller.find("#air-map").get_attribute("data-stations") == "0"
                    and traveller.find("#air-chart").get_attribute("data-reference-points") == "0", "hiding the reference data leaves it shown")
    assert traveller.words("air.referenceHidden") in traveller.text("#air-summary"), "the summary does not say the reference is hidden"
    # A station picked by name is the one compared with; the default (the nearest) comes back.
    traveller.fill("#air-form", {"station": "10283", "device": ""})
    traveller.until(lambda: "Pascal" in traveller.text("#air-chart-note") and int(traveller.find("#air-chart").get_attribute("data-reference-points") or 0) > 0,
                    "the picked station is not the one compared with")
    traveller.fill("#air-form", {"station": ""})
    traveller.until(lambda: "Senato" in traveller.text("#air-chart-note"), "the nearest station is not restored")
    # One board of the person's, by name.
    board = next(option.get_attribute("value") for option in traveller.find("#air-form [name=device]").find_elements(By.TAG_NAME, "option")
                 if option.text == "Bike board")
    traveller.fill("#air-form", {"device": board})
    traveller.until(lambda: int(traveller.find("#air-map").get_attribute("data-readings") or 0) > 20, "one board's readings are not drawn")
    # The board joins a public campaign: its readings go on the public map (the phone sees them).
    traveller.fill("#campaign-form", {"name": "Passeggiate a Milano", "public": True})
    picker = lambda: traveller.find("#device-list select.campaign")  # noqa: E731 - redrawn after each change
    traveller.until(lambda: len(picker().find_elements(By.TAG_NAME, "option")) == 2, "the new campaign is not offered for the board")
    Select(picker()).select_by_index(1)
    traveller.until(lambda: traveller.words("air.campaignSet", board="Bike board") in traveller.driver.find_element(By.ID, "announcer").get_attribute("textContent"),
                    "the board's campaign is not changed")
    # Through the gateway, each public PM2.5 reading's band is the EEA's for its value (the
    # thresholds written here from the EEA's table, not read from the service).
    public = gateway.call("GET", "/v1/telemetry/public-map?measure=MEASURE_PM2_5&south=44.6&west=8.4&north=46.7&east=11.5")
    names = ["GOOD", "FAIR", "MODERATE", "POOR", "VERY_POOR", "EXTREMELY_POOR"]
    for point in public["points"]:
        expected = names[sum(1 for bound in [5, 15, 50, 90, 140] if point["value"] > bound)]
        assert point["band"] == f"AIR_QUALITY_BAND_{expected}", f"PM2.5 {point['value']} is in {point['band']}, the EEA's {expected}"
    # Live mode: a second board, added here, never heard from; live on, its upload (the board's
    # own, with its token) is on the open map and chart, and in its latest values, within a second.
    traveller.fill("#air-form", {"device": ""})
    traveller.fill("#device-form", {"name": "Balcony board"})
    traveller.until(lambda: "Balcony board" in traveller.text("#device-list") and traveller.driver.find_elements(By.ID, "new-token")
                    and "Balcony board" in traveller.text("#boards-now"), "the new board is not listed as it is now")
    balcony_token = traveller.find("#new-token").text
    balcony = lambda: next(item for item in traveller.driver.find_elements(By.CSS_SELECTOR, "#boards-now li")  # noqa: E731 - redrawn
                           if "Balcony board" in item.text)
    assert traveller.words("air.neverSeen") in balcony().text, "a board never heard from does not say so"
    traveller.find("#air-live").click()
    traveller.until(lambda: traveller.find("#air-map").get_attribute("data-live") == "open", "live mode does not open")
    points_before = int(traveller.find("#air-chart").get_attribute("data-points") or 0)
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    reading = {"time": now, "latitude": 45.4654, "longitude": 9.1859, "pm25": 22, "temperature": 18.5}
    traveller.driver.set_script_timeout(15)
    elapsed = traveller.driver.execute_async_script("""
        const [token, reading, done] = arguments;
        const map = document.getElementById("air-map");
        const before = Number(map.dataset.liveReadings || 0);
        const started = performance.now();
        const observer = new MutationObserver(() => {
          if (Number(map.dataset.liveReadings || 0) > before) { observer.disconnect(); done(performance.now() - started); }
        });
        observer.observe(map, { attributes: true, attributeFilter: ["data-live-readings"] });
        fetch("/v1/telemetry/readings:upload", { method: "POST", body: JSON.stringify({ readings: [reading] }),
          headers: { "content-type": "application/json", authorization: `Device ${token}` } })
          .then((response) => { if (!response.ok) { observer.disconnect(); done(-response.status); } });
    """, balcony_token, reading)
    assert 0 <= elapsed < 1000, f"a live upload reached the open map after {elapsed:.0f} ms (or was refused: {elapsed})"
    traveller.until(lambda: balcony().get_attribute("data-online") == "true", "the board that sent is not shown sending")
    assert "PM2.5 22" in balcony().text, f"the board's latest values do not follow: {balcony().text}"
    assert traveller.driver.find_elements(By.CSS_SELECTOR, "#air-map path.reading.live"), "the live reading is not on the map"
    assert int(traveller.find("#air-chart").get_attribute("data-points") or 0) == points_before + 1, "the live reading is not on the chart"
    # The same board as an airRohr with unmodified firmware: its own JSON, Basic credentials with
    # the token as password, its X-Sensor header; the reading is live too (PM10 31.4 µg/m³).
    post = json.loads((ROOT / "Tests/Fixtures/airrohr/sds011-bme280-gps.json").read_text())
    credentials = base64.b64encode(f"esp8266-15528655:{balcony_token}".encode()).decode()
    answer = gateway.call("POST", "/v1/telemetry/sensor-community", post, token=credentials, scheme="Basic", headers={"X-Sensor": "esp8266-15528655"})
    assert answer.get("stored") == 1, f"the airRohr post was not stored: {answer}"
    traveller.until(lambda: "PM10 31" in balcony().text, "the airRohr board's PM10 is not among its latest values")
    traveller.shot("air-live")
    traveller.find("#air-live").click()
    traveller.until(lambda: traveller.find("#air-map").get_attribute("data-live") is None, "live mode does not close")
    print(f"ok: live mode: an upload on the open map, chart and latest values {elapsed:.0f} ms after it was sent")
    air_calibration(traveller, gateway, arguments, board, balcony_token)
    # Settings, from the air page: PM10 shown first, and Milano Senato picked; the filter opens on
    # PM10 and offers the picked station first, starred.
    traveller.find("#air-settings-link").click()
    traveller.fill("#air-settings-form", {"defaultMeasure": "MEASURE_PM10"}, submit=False)
    senato = next(label for label in traveller.driver.find_elements(By.CSS_SELECTOR, "#station-choices label") if "Senato" in label.text)
    senato.find_element(By.TAG_NAME, "input").click()
    traveller.shot("air-settings")
    traveller.find("#air-settings-form button[type=submit]").click()
    traveller.until(lambda: traveller.words("airSettings.summary", measure="PM10", count=1) in traveller.text("#air-settings-summary"),
                    "the settings are not saved")
    # Their own link to the portal: another address (one the service could reach) is refused
    # beside the field; the portal's is kept, listed and deleted.
    traveller.provoked.append(("/v1/telemetry/settings/portal-links", 400))
    traveller.fill("#portal-link-form", {"name": "mine", "url": "https://127.0.0.1:7001/resource/x.json"})
    traveller.until(lambda: traveller.server("portal_only") in traveller.text('#portal-link-form [data-error-for="url"]'),
                    "a link off the portal is not refused beside its field")
    traveller.fill("#portal-link-form", {"name": "senato-pm10", "url": "https://www.dati.lombardia.it/resource/nicp-bhqi.json?$where=idsensore%20%3D%20'5504'"})
    traveller.until(lambda: "senato-pm10" in traveller.text('#portal-links [data-link="senato-pm10"]'), "the saved link is not listed")
    traveller.shot("air-settings-portal-link")
    traveller.find('#portal-links [data-link="senato-pm10"] button').click()
    traveller.until(lambda: not traveller.driver.find_elements(By.CSS_SELECTOR, '#portal-links [data-link="senato-pm10"]'), "the link is not deleted")
    print("ok: air settings: a person's own portal link, refused off the portal, saved, listed and deleted")
    air_alerts(traveller, gateway, balcony_token)
    traveller.open("#/air")
    traveller.until(lambda: Select(traveller.find("#air-form [name=measure]")).first_selected_option.get_attribute("value") == "MEASURE_PM10",
                    "the air page does not open on the person's measure")
    traveller.until(lambda: any(option.text.startswith("★") and "Senato" in option.text
                                for option in traveller.find("#air-form [name=station]").find_elements(By.TAG_NAME, "option")),
                    "the picked station is not offered first")
    print("ok: air settings: the measure shown first and a picked station, kept and used by the filter")
    print("ok: uploaded a board's readings; the chart (with the reference line), the map and the quartiles are drawn, coloured by index band; every filter; the board went public")


def nearby(traveller, gateway, email):
    traveller.open("#/nearby?lat=45.4858&lon=9.2044")
    # With the person's yes, the device's position (Milano Centrale's, set by the emergency step)
    # reaches geo-offers while the page is open, under a mark that lets them stop.
    assert not traveller.find("#location-mark").is_displayed(), "the location mark shows before the person said yes"
    traveller.find("#share-location").click()
    traveller.until(lambda: traveller.words("location.sharing") in traveller.text("#location-mark"), "no mark says the location is shared")
    token = gateway.sign_in(email, PASSWORD)
    traveller.until(lambda: gateway.call("GET", "/v1/me/location", token=token).get("location", {}).get("latitude") == 45.4858,
                    "the shared position did not reach geo-offers")
    traveller.shot("nearby-sharing")
    traveller.find("#stop-sharing").click()
    traveller.until(lambda: not traveller.find("#location-mark").is_displayed(), "the mark stays after stopping")
    assert not traveller.find("#share-location").is_selected(), "the page still says the location is shared"
    assert traveller.driver.execute_script("return localStorage.getItem('binario.share-location')") is None, "the yes is still remembered"
    traveller.until(lambda: "Milano Centrale" in traveller.text("#nearest-stations"), "the nearest station is not Milano Centrale")
    link = traveller.find("#nearest-stations a[target=_blank]").get_attribute("href")
    assert link.startswith("https://www.google.com/maps/dir/"), f"the directions link is {link}"
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#nearby-deals li"), "no deals near Milano Centrale")
    # No tile server set (--map-tiles): the schematic base map alone, saying so, and no tile asked for.
    assert traveller.words("map.attribution") in traveller.text("#nearby-map .leaflet-control-attribution"), "the base map is not attributed"
    assert not traveller.driver.find_elements(By.CSS_SELECTOR, "#nearby-map img.leaflet-tile"), "tiles are drawn though no tile server is set"
    traveller.shot("nearby")
    print("ok: nearby deals and the nearest stations with directions; the position shared with consent under a mark, then stopped")


def control_room(admin, driver, gateway, admin_token):
    # Two drivers with taxis in the centre's queue, and a passenger ready to call one.
    drivers = []
    for code, place in [("MI-W1", DUOMO), ("MI-W2", BRERA)]:
        email = f"{code.lower()}@drivers.test"
        profile = gateway.call("POST", "/v1/admin/drivers", {"email": email, "password": PASSWORD, "firstName": "Driver", "lastName": code},
                               token=admin_token)["profile"]
        gateway.call("POST", "/v1/admin/taxis", {"taxi": {"code": code, "plate": f"P{code}", "driverUserId": profile["userId"]}}, token=admin_token)
        token = gateway.sign_in(email, PASSWORD)
        gateway.call("POST", "/v1/driver/position", {"position": {"latitude": place[0], "longitude": place[1]}}, token=token)
        gateway.call("POST", "/v1/driver/availability", {"available": True}, token=token)
        drivers.append(email)
    passenger = f"rider-{uuid.uuid4().hex[:6]}@example.com"
    phone = "+393339876543"
    gateway.call("POST", "/v1/accounts", {"email": passenger, "password": PASSWORD, "firstName": "Rider", "phone": phone})
    gateway.call("POST", "/v1/accounts:confirmEmail", {"email": passenger, "code": gateway.code(admin_token, passenger)})
    rider = gateway.sign_in(passenger, PASSWORD)
    gateway.call("POST", "/v1/me/phone:verify", {"code": gateway.code(admin_token, phone)}, token=rider)
    gateway.call("POST", "/v1/payment-methods", {"cardNumber": "4242424242424242", "expiryMonth": 12, "expiryYear": 2030, "securityCode": "123"}, token=rider)

    admin.open("#/admin/control-room")
    queue = '#zones [data-zone="C"] ol.queue li'

    def queue_codes():
        # Read in one script: the control room redraws on every snapshot.
        return admin.driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((item) => item.dataset.taxi)", queue)

    admin.until(lambda: queue_codes() == ["MI-W1", "MI-W2"], f"the centre's queue is not MI-W1, MI-W2: {queue_codes()}")
    admin.mark_loaded()

    driver.sign_in(drivers[0], PASSWORD)
    # The driver's device knows where it is (the page reports it while on shift).
    emulate_position(driver, DUOMO)
    driver.open("#/driver")
    driver.until(lambda: "MI-W1" in driver.text("#my-taxi h2"), "the driver's page does not show their taxi")
    gateway.call("POST", "/v1/taxi/rides", {"pickup": {"position": {"latitude": DUOMO[0], "longitude": DUOMO[1]}},
                                            "idempotencyKey": str(uuid.uuid4())}, token=rider)
    driver.until(lambda: driver.driver.find_elements(By.CSS_SELECTOR, "#offer-list .offer"), "the offer does not reach the driver's page")
    driver.shot("driver-offer")
    admin.until(lambda: admin.driver.find_elements(By.CSS_SELECTOR, f'{queue}.offered[data-taxi="MI-W1"]'),
                "the control room does not show MI-W1 holding the offer")
    driver.find("#offer-list .offer button.reject").click()
    admin.until(lambda: queue_codes()[-1:] == ["MI-W1"] and queue_codes()[0] == "MI-W2",
                f"MI-W1 did not move to the tail of the queue: {queue_codes()}")
    assert admin.still_loaded(), "the control room was reloaded"
    driver.until(lambda: "2 in the queue" in driver.text("#taxi-state") or not driver.driver.find_elements(By.CSS_SELECTOR, "#offer-list .offer"),
                 "the offer stays on the driver's page")
    driver.shot("driver")
    admin.shot("control-room")
    print("ok: the driver rejected the offer; the control room showed their taxi move to the tail of the queue")

    # The second driver takes the job, then gives it up: the control room shows the alert until
    # the admin acknowledges it.
    second = gateway.sign_in(drivers[1], PASSWORD)
    offer = gateway.call("GET", "/v1/driver/taxi", token=second)["offer"]
    ride = gateway.call("POST", f"/v1/driver/offers/{offer['offerId']}:accept", {}, token=second)["ride"]
    gateway.call("POST", f"/v1/driver/rides/{ride['rideId']}:give-up", {"reason": "flat tyre"}, token=second)
    alert = '#alert-list .alert[data-kind="given_up"]'
    admin.until(lambda: "flat tyre" in admin.text(alert), "the control room does not show the given-up job's alert")
    admin.shot("control-room-alert")
    admin.find(f"{alert} button.acknowledge").click()
    admin.until(lambda: not admin.driver.find_elements(By.CSS_SELECTOR, alert), "the acknowledged alert stays")
    assert admin.still_loaded(), "the control room was reloaded"
    print("ok: a driver gave up a job; the control room showed the alert until the admin acknowledged it")
    return {"rider": passenger, "rider_token": rider, "drivers": drivers}


def fleet(admin, gateway, admin_token):
    """The admin adds a driver and a taxi for them on the fleet page, changes the taxi's seats,
    then deletes both."""
    admin.open("#/admin/fleet")
    email = f"fleet-{uuid.uuid4().hex[:6]}@drivers.test"
    admin.fill("#add-driver-form", {"firstName": "Franca", "lastName": "Ruota", "email": email, "password": PASSWORD})
    admin.until(lambda: email in admin.text("#driver-list"), "the new driver is not listed")
    user_id = gateway.call("GET", f"/v1/admin/accounts?query={urllib.parse.quote(email)}", token=admin_token)["accounts"][0]["userId"]
    admin.fill("#add-taxi-form", {"code": "MI-F1", "plate": "FF111FF", "capacity": "6", "driverUserId": user_id})
    row = '#taxi-table tr[data-taxi="MI-F1"]'
    admin.until(lambda: "Franca Ruota" in admin.text(row), "the new taxi is not listed with its driver")
    admin.until(lambda: "MI-F1" in admin.text(f'#driver-list [data-driver="{user_id}"]'), "the driver does not show their taxi")
    admin.find(f"{row} details summary").click()
    admin.fill(f"{row} form.edit-taxi", {"capacity": "7"})
    admin.until(lambda: admin.text(f"{row} td:nth-of-type(2)") == "7", "the taxi's seats did not change")
    admin.until(lambda: admin.driver.find_elements(By.CSS_SELECTOR, "#zone-list li[data-zone]"), "the zones are not listed")
    admin.shot("fleet")
    admin.find(f"{row} button.delete-taxi").click()
    admin.driver.switch_to.alert.accept()
    admin.until(lambda: not admin.driver.find_elements(By.CSS_SELECTOR, row), "the deleted taxi stays")
    admin.find(f'#driver-list [data-driver="{user_id}"] button.delete-driver').click()
    admin.driver.switch_to.alert.accept()
    admin.until(lambda: email not in admin.text("#driver-list"), "the deleted driver stays")
    print("ok: the admin added a driver and their taxi, changed its seats, and deleted both on the fleet page")


def north_of(place, metres):
    """A point `metres` north of `place` (a degree of latitude is 111.2 km)."""
    return (place[0] + metres / 111_195, place[1])


def emulate_position(browser, place):
    browser.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": browser.base, "permissions": ["geolocation"]})
    browser.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": place[0], "longitude": place[1], "accuracy": 10})


def taxi_ride(rider, driver, gateway, taxi):
    """A passenger calls a taxi from their position on the taxi page, sees the price and the wait
    first, watches the car come on the map as the driver's page reports it (geolocation emulated)
    and the time to wait fall; the driver accepts on their page, arrives, takes them on with
    their code and completes; the passenger has the receipt. Then a booking for tomorrow,
    listed with its code and deleted free."""
    # The control room's ride: cancelled (free: nobody accepted it). The second taxi goes on a
    # break, so the first (this driver's) is asked.
    waiting = gateway.call("GET", "/v1/taxi/rides", token=taxi["rider_token"])["rides"][0]
    gateway.call("POST", f"/v1/taxi/rides/{waiting['rideId']}:cancel", {}, token=taxi["rider_token"])
    second = gateway.sign_in(taxi["drivers"][1], PASSWORD)
    gateway.call("POST", "/v1/driver/availability", {"available": False, "reason": "break"}, token=second)

    # The driver's page reports where the device is: 900 m north of the Duomo.
    steps = [north_of(DUOMO, metres) for metres in (900, 700, 500, 300, 80)]
    emulate_position(driver, steps[0])
    driver.open("#/board")
    driver.open("#/driver")
    driver.until(lambda: driver.find("#position-status").get_attribute("data-zone") == "C", "the driver's page does not report its position")

    rider.sign_in(taxi["rider"], PASSWORD)
    emulate_position(rider, DUOMO)
    rider.open("#/board")
    if rider.driver.find_elements(By.ID, "menu-button") and rider.driver.find_element(By.ID, "menu-button").is_displayed():
        rider.find("#menu-button").click()
    rider.find('#site-nav a[href="#/taxi"]').click()
    rider.find("#pickup-here").click()
    rider.until(lambda: rider.find("#call-form input[name=pickup]").get_attribute("value").startswith(rider.words("taxi.positionValue", point="")[:5]),
                "the pickup is not the device's position")
    rider.fill("#call-form", {"destination": "Piazza Duca d'Aosta 1", "passengers": "1"})
    rider.until(lambda: rider.driver.find_elements(By.CSS_SELECTOR, "#estimate #confirm-taxi"), "no estimate before calling")
    estimate = rider.text("#estimate")
    assert "€" in estimate or "EUR" in estimate, f"the estimate has no price: {estimate}"
    assert rider.text("#estimate-eta") and "min" in rider.text("#estimate-eta"), f"the estimate has no wait: {estimate}"
    rider.shot("taxi-estimate")
    rider.find("#confirm-taxi").click()
    rider.until(lambda: "#/taxi/" in rider.driver.current_url, "calling did not open the ride")

    driver.until(lambda: driver.driver.find_elements(By.CSS_SELECTOR, "#offer-list .offer button.accept"), "the offer does not reach the driver's page")
    driver.find("#offer-list .offer button.accept").click()
    driver.until(lambda: driver.driver.find_elements(By.ID, "arrived"), "the accepted ride shows no step to take")

    def eta():
        found = rider.driver.find_elements(By.CSS_SELECTOR, "#taxi-eta")
        return int(found[0].get_attribute("data-minutes")) if found else None

    def taxi_at():
        return rider.driver.find_element(By.ID, "ride-map").get_attribute("data-taxi") or ""

    rider.until(lambda: eta() is not None and taxi_at(), "the ride does not show the taxi coming")
    first_eta, seen = eta(), [taxi_at()]
    for step in steps[1:]:
        emulate_position(driver, step)
        rider.until(lambda: taxi_at() not in seen, f"the taxi does not move on the passenger's map (at {seen[-1]})")
        seen.append(taxi_at())
    rider.until(lambda: eta() is not None and eta() < first_eta, f"the wait does not fall: {first_eta} then {eta()}")
    assert rider.driver.find_elements(By.CSS_SELECTOR, "#ride-map path.taxi"), "no taxi marker on the map"
    assert rider.text("#cancel-rule"), "the cancellation rule is not stated"
    rider.shot("taxi-coming")

    driver.find("#arrived").click()
    rider.until(lambda: rider.driver.find_elements(By.CSS_SELECTOR, "#passenger-code"), "no code to give the driver")
    code = rider.text("#passenger-code")
    driver.fill("#start-form", {"code": code})
    driver.until(lambda: driver.driver.find_elements(By.ID, "complete"), "the ride does not start with the passenger's code")
    driver.shot("driver-ride")
    driver.find("#complete").click()
    rider.until(lambda: "4242" in rider.text("#receipt"), "no receipt after the ride")
    rider.shot("taxi-receipt")

    # A booking for tomorrow: listed with its code, then deleted free.
    rider.open("#/taxi")
    tomorrow = (datetime.datetime.now() + datetime.timedelta(days=1)).strftime("%Y-%m-%dT09:30")
    rider.driver.execute_script("arguments[0].value = arguments[1]", rider.find("#book-form input[name=meetingAt]"), tomorrow)
    rider.fill("#book-form", {"book-pickup": "Piazza del Duomo 1", "book-destination": "Piazza Duca d'Aosta 1", "passengers": "2"})
    rider.until(lambda: rider.driver.find_elements(By.CSS_SELECTOR, "#reservations-to-come .reservation .code"), "the booking is not listed with its code")
    history = rider.text("#rides")
    assert "Piazza Duca d'Aosta 1" in history, f"the ride is not in the history: {history}"
    assert rider.driver.find_elements(By.CSS_SELECTOR, "#rides a.again"), "no way to ride again from the history"
    rider.shot("taxi-page")
    rider.find("#reservations-to-come .reservation button.delete-reservation").click()
    rider.until(lambda: rider.driver.find_elements(By.CSS_SELECTOR, "#reservations-past .reservation"), "the deleted booking is not among the past ones")
    print("ok: a passenger called a taxi from their position, saw it come and the wait fall, rode and had the receipt; a driver took it from their page")


def profile(traveller, gateway, admin_token, email):
    """The profile from the menu: the optional birth date and gender, a phone verified with the
    code texted to it, a second card made the default and removed, the notification channels,
    a new email confirmed with its code and a new password. Returns the new email."""
    traveller.open("#/board")
    traveller.find('#site-nav a[href="#/profile"]').click()
    phone = "+39333" + str(uuid.uuid4().int % 10**7).zfill(7)
    traveller.fill("#profile-form", {"birthDate": "1990-05-01", "gender": "GENDER_FEMALE", "phone": phone})
    traveller.fill("#phone-form", {"code": gateway.code(admin_token, phone)})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#phone-state.verified"), "the phone is not shown verified")
    details = traveller.find("#profile-form")
    assert details.find_element(By.NAME, "birthDate").get_attribute("value") == "1990-05-01"
    assert Select(details.find_element(By.NAME, "gender")).first_selected_option.get_attribute("value") == "GENDER_FEMALE"

    card_with = lambda last4: f"//ul[@id='cards']/li[contains(., '{last4}')]"
    traveller.fill("#add-card-form", {"cardNumber": "5555 5555 5555 4444", "expiryMonth": "11", "expiryYear": "2031", "securityCode": "321"})
    traveller.until(lambda: traveller.driver.find_elements(By.XPATH, card_with("4444")), "the second card is not listed")
    traveller.driver.find_element(By.XPATH, card_with("4444") + "/button[not(contains(@class, 'remove'))]").click()
    traveller.until(lambda: traveller.driver.find_elements(By.XPATH, card_with("4444") + "//span[contains(@class, 'default')]"),
                    "the second card did not become the default")
    traveller.driver.find_element(By.XPATH, card_with("4444") + "/button[contains(@class, 'remove')]").click()
    traveller.until(lambda: not traveller.driver.find_elements(By.XPATH, card_with("4444")), "the removed card is still listed")
    traveller.until(lambda: traveller.driver.find_elements(By.XPATH, card_with("4242") + "//span[contains(@class, 'default')]"),
                    "the remaining card is not the default")

    token = gateway.sign_in(email, PASSWORD)
    # Deals start by push only (never emailed unless asked); the person turns them off, keeps
    # train changes, and asks for station welcomes by SMS too.
    defaults = {topic["topic"]: topic for topic in gateway.call("GET", "/v1/me/notification-preferences", token=token)["preferences"]["topics"]}
    deals = defaults["NOTIFICATION_TOPIC_DEALS"]
    assert deals.get("receive") and deals.get("push") and not deals.get("email"), f"deals by default: {deals}"
    assert traveller.find("#topic-preferences [name='NOTIFICATION_TOPIC_DEALS.receive']").is_selected()
    assert not traveller.driver.find_elements(By.CSS_SELECTOR, "#topic-preferences [name='NOTIFICATION_TOPIC_TRAIN_CHANGES.receive']"), \
        "train changes offer to be turned off"
    traveller.fill("#preferences-form", {"email": False, "sms": True, "NOTIFICATION_TOPIC_DEALS.receive": False,
                                         "NOTIFICATION_TOPIC_WELCOMES.sms": True})
    traveller.until(lambda: gateway.call("GET", "/v1/me/notification-preferences", token=token)["preferences"].get("sms") is True,
                    "the notification channels were not saved")
    saved = gateway.call("GET", "/v1/me/notification-preferences", token=token)["preferences"]
    assert not saved.get("email"), f"email is still a channel: {saved}"
    topics = {topic["topic"]: topic for topic in saved["topics"]}
    assert not topics["NOTIFICATION_TOPIC_DEALS"].get("receive"), f"deals are still on: {topics}"
    assert topics["NOTIFICATION_TOPIC_TRAIN_CHANGES"].get("receive") and topics["NOTIFICATION_TOPIC_TRAIN_CHANGES"].get("push"), topics
    assert topics["NOTIFICATION_TOPIC_WELCOMES"].get("sms") and topics["NOTIFICATION_TOPIC_WELCOMES"].get("receive"), topics
    traveller.shot("profile")

    new_email = f"moved-{email}"
    traveller.fill("#email-form", {"newEmail": new_email, "password": PASSWORD})
    traveller.until(lambda: new_email in traveller.text("#pending-email"), "the new email is not shown waiting for its code")
    traveller.find("#pending-email a").click()
    traveller.fill("#confirm-form", {"code": gateway.code(admin_token, new_email)})
    traveller.until(lambda: new_email in traveller.text("#current-email"), "the confirmed email is not the one the person signs in with")
    traveller.until(lambda: traveller.text("#who") == new_email, "the header does not show the confirmed email")
    traveller.fill("#password-form", {"currentPassword": PASSWORD, "newPassword": "a-changed-password-3", "newPasswordAgain": "a-changed-password-4"})
    traveller.until(lambda: traveller.words("account.passwordsDiffer") in traveller.text('#password-form [data-error-for="newPasswordAgain"]'),
                    "a new password typed differently twice is not refused")
    traveller.fill("#password-form", {"newPasswordAgain": "a-changed-password-3"})
    traveller.until(lambda: traveller.words("profile.passwordChanged") in traveller.text("#announcer"), "the password change was not confirmed")
    gateway.sign_in(new_email, "a-changed-password-3")
    print("ok: the profile: birth date and gender, a verified phone, cards, notification channels, a new email and password")
    return new_email


def leaving(traveller, gateway, email, password):
    """Deleting the account from the profile: signed out, told so, and the account is gone."""
    traveller.fill("#sign-in-form", {"email": email, "password": password, "keep": False})
    traveller.until(lambda: traveller.driver.find_elements(By.ID, "sign-out"), "signing in again did not work")
    traveller.open("#/profile")
    traveller.fill("#delete-form", {"password": password, "sure": True})
    traveller.until(lambda: traveller.driver.find_elements(By.CSS_SELECTOR, "#account-deleted"), "deleting the account did not say so")
    assert traveller.driver.find_elements(By.CSS_SELECTOR, "#sign-in-form"), "after deleting the account the sign-in page is not shown"
    try:
        gateway.sign_in(email, password)
    except AssertionError:
        pass
    else:
        raise AssertionError("the deleted account still signs in")
    print("ok: the account deleted from the profile; it no longer signs in")


def password_reset(traveller, gateway, admin_token, email):
    traveller.find("#sign-out").click()
    traveller.find("#sign-in-form")
    traveller.open("#/password-reset")
    traveller.fill("#reset-request-form", {"email": email})
    traveller.until(lambda: traveller.words("reset.requested") in traveller.text("main [role=status]"), "no word that the link is on its way")
    link = next((re.search(r"\?token=(\S+)", body) for body in gateway.outbox(admin_token, email) if "?token=" in body), None)
    assert link, "no reset link in the outbox"
    traveller.driver.get(f"{traveller.base}/reset-password?token={link.group(1)}")
    traveller.fill("#reset-complete-form", {"newPassword": "a-new-password-2", "newPasswordAgain": "a-new-password-2"})
    traveller.find("#sign-in-form")
    traveller.shot("password-reset-done")
    keyboard_only(traveller, email, "a-new-password-2")
    print("ok: reset the password through the emailed link and signed in with the new one")


def keyboard_only(person, email, password):
    """Signing in, following a train and opening the wallet from the menu with the keyboard alone."""
    person.driver.refresh()
    person.find("#sign-in-form")
    # The page takes the focus as it opens; back from it, the first stop is the skip link.
    person.tab_to("element.classList.contains('skip')", "the skip link", backwards=True)
    assert person.focused("element.getBoundingClientRect().height > 0"), "the skip link is focused but not shown"
    person.press(Keys.ENTER)
    assert person.focused("element.id === 'page'"), "the skip link does not move the focus to the page"
    person.tab_to("element.name === 'email'", "the email field")
    person.press((Keys.CONTROL, "a"), email, Keys.TAB)
    assert person.focused("element.name === 'password'"), "Tab from the email does not reach the password"
    person.press(password, Keys.ENTER)
    person.until(lambda: person.driver.find_elements(By.CSS_SELECTOR, "#board tbody tr[data-trip]"), "signing in with the keyboard does not open the board")
    person.until(lambda: person.focused("element.id === 'page'"), "the new page does not take the focus")
    person.tab_to("element.matches('#board button.follow[aria-pressed=false]')", "a train's follow button")
    person.press(Keys.SPACE)
    person.until(lambda: person.focused("element.getAttribute('aria-pressed') === 'true'"), "Space on a follow button does not follow")
    person.tab_to("element.getAttribute('href') === '#/wallet'", "the menu's wallet link", backwards=True)
    person.press(Keys.ENTER)
    person.until(lambda: person.driver.find_elements(By.CSS_SELECTOR, "#tickets canvas.qr"), "Enter on the wallet link does not open the wallet")
    print("ok: with the keyboard alone: the skip link, signing in, following a train, the menu to the wallet")


def kept_session(traveller, email, password):
    """"Keep me signed in": the app opened again in a new tab (as an installed app is launched)
    is still signed in, with network and without; the refresh token is in an HttpOnly cookie no
    script reads; signing out ends it."""
    driver = traveller.driver
    traveller.find("#sign-out").click()
    traveller.find("#sign-in-form")
    traveller.fill("#sign-in-form", {"email": email, "password": password, "keep": True})
    traveller.until(lambda: driver.find_elements(By.ID, "sign-out"), "signing in with 'keep me signed in' does not sign in")
    refresh_url = f"{traveller.base}/v1/sessions:refresh"

    def kept_cookie():
        cookies = driver.execute_cdp_cmd("Network.getCookies", {"urls": [refresh_url]})["cookies"]
        return next((cookie for cookie in cookies if cookie["name"] == "binario_refresh"), None)

    cookie = kept_cookie()
    assert cookie, "no refresh cookie after signing in with 'keep me signed in'"
    assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Strict", f"the refresh cookie is not HttpOnly, Secure, Strict: {cookie}"
    assert cookie["path"] == "/v1/sessions:refresh", f"the refresh cookie is sent beyond the refresh route: {cookie['path']}"
    stored = driver.execute_script("return document.cookie + JSON.stringify(localStorage) + JSON.stringify(sessionStorage)")
    assert cookie["value"] not in stored, "a page script can read the kept refresh token"

    # Closing the tab and opening the app again: still signed in, on the wallet's tickets.
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.switch_to.window(first)
    driver.close()
    driver.switch_to.window(driver.window_handles[0])
    traveller.open("#/wallet")
    traveller.until(lambda: driver.find_elements(By.ID, "sign-out"), "a new tab is signed out despite 'keep me signed in'")
    traveller.find("#tickets canvas.qr")
    assert kept_cookie()["value"] != cookie["value"], "opening the app did not trade (and rotate) the kept refresh token"

    # Launched again without network: signed in on the copies kept on the device.
    driver.switch_to.new_window("tab")
    traveller.open("#/board")
    traveller.find("#board")
    traveller.until(lambda: driver.execute_script("return !!navigator.serviceWorker.controller"), "no service worker controls the new tab")
    traveller.set_offline(True)
    traveller.open("#/wallet")
    driver.refresh()
    traveller.until(lambda: traveller.words("offline.asOf", time="") in traveller.text("#offline-mark") + " ",
                    "a launch without network does not show the wallet's copy")
    traveller.find("#tickets canvas.qr")
    traveller.set_offline(False)
    driver.refresh()
    traveller.until(lambda: not traveller.find("#offline-mark").is_displayed(), "the offline mark stays once back online")

    traveller.find("#sign-out").click()
    traveller.find("#sign-in-form")
    traveller.until(lambda: kept_cookie() is None, "signing out leaves the refresh cookie")
    driver.refresh()
    traveller.find("#sign-in-form")
    assert not driver.find_elements(By.ID, "sign-out"), "a reload after signing out is signed in again"
    print("ok: kept signed in across tabs and an offline launch, the refresh token in an HttpOnly cookie; signing out ends it")


def public_pages(person):
    """What anyone can open without signing in, from the menu: the nearest stations with walking
    directions, the fares, and the public air map with the readings their owners made public."""
    assert not person.driver.find_elements(By.ID, "sign-out"), "the public pages' visitor is signed in"
    menu = person.driver.execute_script("return [...document.querySelectorAll('#site-nav a')].map((a) => a.getAttribute('href'))")
    for page in ["#/nearby", "#/fares", "#/air-map", "#/open-data"]:
        assert page in menu, f"the menu of someone not signed in has no {page}: {menu}"
    person.open("#/nearby?lat=45.4858&lon=9.2044")
    person.until(lambda: "Milano Centrale" in person.text("#nearest-stations"), "signed out, the nearest station is not shown")
    assert person.find("#nearest-stations a[target=_blank]").get_attribute("href").startswith("https://www.google.com/maps/dir/"), \
        "signed out, the nearest station has no walking directions"
    person.open("#/fares")
    person.until(lambda: person.driver.find_elements(By.CSS_SELECTOR, "#zone-fares tbody tr"), "the fares page has no zone fares")
    assert "Mi1-Mi3" in person.text("#zone-fares"), "the zone fares do not list Mi1-Mi3"
    assert "€" in person.text("#distance-fares"), "the train fares have no prices in euros"
    viewport, width = person.driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    assert width <= viewport, f"the fares are {width}px wide on a {viewport}px screen: the page scrolls sideways"
    person.shot("fares")
    person.open("#/air-map")
    person.until(lambda: len(person.driver.find_elements(By.CSS_SELECTOR, "#public-air-map path.public-reading")) > 20,
                 "the public air map shows no public readings")
    assert "Passeggiate a Milano" in person.text("#public-air-campaigns"), "the public map does not name the public campaign"
    # Each circle is sized by its value, as on MOQA's map (Leaflet draws a circle as two arcs of its radius).
    radii = {re.search(r"a([\d.]+),", path.get_attribute("d")).group(1)
             for path in person.driver.find_elements(By.CSS_SELECTOR, "#public-air-map path.public-reading")}
    assert len(radii) > 3, f"the public readings' circles are not sized by value: radii {radii}"
    person.until(lambda: person.driver.find_elements(By.CSS_SELECTOR, "#public-air-legend .swatch"), "the public map has no legend")
    person.shot("public-air-map")
    open_data(person)
    print("ok: signed out, from the menu: the nearest stations with directions, the fares, the public air map and its open data")


def open_data(person):
    """The public boards' readings as daily CSV files by area, from the menu: the day of the
    public walk in Milan listed with its count, and its file holding exactly those rows."""
    menu = person.find("#menu-button")
    if menu.is_displayed() and menu.get_attribute("aria-expanded") != "true":
        menu.click()
    person.find("#site-nav a[href='#/open-data']").click()
    person.until(lambda: person.text("#open-data-summary"), "the open data page says nothing")
    person.fill("#open-data-form", {"from_day": "2024-01-01", "to_day": "2024-01-31"})
    row = "#open-data-table tbody tr[data-day='2024-01-15'][data-area='MI']"
    person.until(lambda: person.driver.find_elements(By.CSS_SELECTOR, row), "the public walk's day in Milan is not listed")
    # Read in one script: the table may be drawn again meanwhile (the first listing's answer).
    count, download, href = person.until(lambda: person.driver.execute_script(
        "const r = document.querySelector(arguments[0]); const a = r && r.querySelector('a.open-data-download');"
        "return a ? [r.querySelectorAll('td')[2].textContent, a.getAttribute('download'), a.href] : null;", row),
        "the walk's day has no download link")
    readings = int(re.sub(r"\D", "", count))
    assert readings > 20, f"the walk's day lists {readings} readings"
    assert download == "binario-air-2024-01-15-MI.csv", download
    kind, text = person.driver.execute_async_script(
        "const done = arguments[1]; fetch(arguments[0]).then(async (r) => done([r.headers.get('content-type'), await r.text()]));",
        href)
    lines = text.strip().splitlines()
    assert kind.startswith("text/csv"), f"the file is {kind}"
    assert lines[0].startswith("board,campaign,time,latitude,longitude,position_altitude,"), lines[0]
    assert len(lines) - 1 == readings, f"the file holds {len(lines) - 1} readings, the list says {readings}"
    assert all("Passeggiate a Milano" in line for line in lines[1:]), "a row is not the public campaign's"
    # Only areas with readings are listed; one area chosen lists only it.
    person.fill("#open-data-form", {"area": "other"})
    person.until(lambda: not person.driver.find_elements(By.CSS_SELECTOR, row), "another area still lists Milan's file")
    person.fill("#open-data-form", {"area": "MI"})
    person.until(lambda: person.driver.find_elements(By.CSS_SELECTOR, row), "Milan's file is not listed for its area")
    # A range backwards is refused beside its field.
    person.provoked.append(("/v1/telemetry/open-data?area=MI&from_day=2024-02-01&to_day=2024-01-31", 400))
    person.fill("#open-data-form", {"from_day": "2024-02-01", "to_day": "2024-01-31"})
    person.until(lambda: person.text("#open-data-form [data-error-for=from_day]"), "a backwards range is not refused beside its field")
    person.fill("#open-data-form", {"from_day": "2024-01-01", "to_day": "2024-01-31"})
    person.until(lambda: person.driver.find_elements(By.CSS_SELECTOR, row), "Milan's file is not listed again")
    viewport, width = person.driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
    assert width <= viewport, f"the open data page is {width}px wide on a {viewport}px screen: it scrolls sideways"
    person.shot("open-data")


def phone(arguments, trip):
    small = Browser(arguments, "phone", size=(390, 844))
    try:
        # A first visit on Chromium's "Fast 3G" (562.5 ms round trips, 1.44 Mbit/s down): the time
        # from navigation to a board with trains, and what was transferred, printed.
        small.driver.execute_cdp_cmd("Network.enable", {})
        small.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 562.5, "downloadThroughput": 1_440_000 / 8, "uploadThroughput": 675_000 / 8})
        small.open("#/board/MI_CENTRALE")
        small.driver.set_script_timeout(60)
        usable = small.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "const ready = () => document.querySelector('#board tbody tr[data-trip]');"
            "if (ready()) { done(performance.now()); return; }"
            "new MutationObserver((_, observer) => { if (ready()) { observer.disconnect(); done(performance.now()); } })"
            ".observe(document, {childList: true, subtree: true});")
        transferred = small.driver.execute_script(
            "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
            ".reduce((sum, entry) => sum + (entry.transferSize || 0), 0)")
        print(f"measured: first visit on Fast 3G: a usable board after {usable / 1000:.2f} s, {transferred / 1024:.0f} KiB transferred (target: under 2 s)")
        small.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        small.until(lambda: small.driver.find_elements(By.CSS_SELECTOR, "#board tbody tr[data-trip]"), "the board on a phone shows no trains")
        viewport, width = small.driver.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]")
        assert viewport == 390, f"the emulated phone's screen is {viewport}px wide"
        assert width <= viewport, f"the board is {width}px wide on a {viewport}px screen: it scrolls sideways"
        menu = small.find("#menu-button")
        assert menu.is_displayed(), "no menu button on a phone"
        menu.click()
        small.until(lambda: small.driver.find_element(By.ID, "site-nav").is_displayed(), "the menu does not open")
        small.shot("phone-board")
        # The person switches the app to Italian from the header; it stays so after a reload.
        english = small.words("board.from", station="Milano Centrale")
        small.until(lambda: english in small.text("h1"), "the phone's board is not in English")
        Select(small.find("#language")).select_by_value("it")
        italian = words("it", "board.from", station="Milano Centrale")
        small.until(lambda: italian in small.text("h1"), "switching to Italian does not redraw the board in Italian")
        menu_words = small.driver.execute_script("return document.getElementById('site-nav').textContent")
        assert words("it", "journeys.title") in menu_words, f"the menu is not in Italian after switching: {menu_words}"
        small.driver.refresh()
        small.until(lambda: italian in small.text("h1"), "the language chosen is not remembered across a reload")
        assert small.driver.execute_script("return document.documentElement.lang") == "it"
        small.shot("phone-board-italian")
        print(f"ok: the board and the menu on a phone-sized screen (following {trip} elsewhere); switched to Italian, remembered")
        public_pages(small)
        # Signed out, with the device's position refused: the alert goes to 112 and says so.
        small.driver.execute_cdp_cmd("Browser.setPermission", {
            "origin": small.base, "permission": {"name": "geolocation"}, "setting": "denied"})
        small.find("#emergency-button").click()
        small.fill("#emergency-form", {"note": "Caduta sul binario"})
        small.until(lambda: "112" in small.text("#emergency-sent"), "a signed-out alert did not go to 112")
        assert words("it", "emergency.withoutPosition") in small.text("#emergency-sent"), small.text("#emergency-sent")
        assert "Posizione sconosciuta" in small.text("#emergency-sent .card"), small.text("#emergency-sent")
        small.shot("phone-emergency")
        print("ok: signed out, without a position, the emergency button alerted 112 in words")
    finally:
        small.quit()
        if small.errors:
            raise AssertionError("console errors on the phone:\n  " + "\n  ".join(small.errors))
        if small.violations:
            raise AssertionError("accessibility on the phone (axe-core):\n  " + "\n  ".join(small.violations))


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    except Exception as failure:  # noqa: BLE001 - a Selenium error is a failure too: where it happened
        where = "; ".join(f"{frame.name}:{frame.lineno}" for frame in traceback.extract_tb(failure.__traceback__)
                          if frame.filename == __file__)
        print(f"FAILED: {type(failure).__name__} at {where}: {str(failure).splitlines()[0] if str(failure) else ''}", file=sys.stderr)
        sys.exit(1)
