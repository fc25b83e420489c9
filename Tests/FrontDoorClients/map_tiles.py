"""Opens the web app's public nearest-stations page in headless Chromium while the gateway names a
tile server (--map-tiles, a stand-in the Swift test runs), and checks what a person would see:
the map's tiles drawn from that server under the app's Content-Security-Policy, the tile
server's attribution on the map, and no console error (a blocked image would log one).

Run by the end-to-end FrontDoorTests, which start the tile server and the suite:

    .tools/venv/bin/python Tests/FrontDoorClients/map_tiles.py --url https://localhost:7443 \
        --tiles-origin https://localhost:PORT --attribution "© Stand-in tiles"
"""

import argparse
import sys

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="the front door, https://localhost:PORT")
    parser.add_argument("--tiles-origin", required=True)
    parser.add_argument("--attribution", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    arguments = parser.parse_args()

    options = webdriver.ChromeOptions()
    options.binary_location = arguments.chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--ignore-certificate-errors",
                 "--disable-gpu", "--window-size=1100,900", "--lang=en-GB"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(arguments.chromedriver), options=options)
    try:
        driver.get(f"{arguments.url}/#/nearby?lat=45.4858&lon=9.2044")
        wait = WebDriverWait(driver, 30)

        def loaded_tiles(_):
            return [tile for tile in driver.find_elements(By.CSS_SELECTOR, "#nearby-map img.leaflet-tile-loaded")
                    if tile.get_attribute("src").startswith(arguments.tiles_origin + "/tiles/")]

        try:
            tiles = wait.until(loaded_tiles)
        except TimeoutException:
            sources = [tile.get_attribute("src") for tile in driver.find_elements(By.CSS_SELECTOR, "#nearby-map img")]
            raise AssertionError(f"no tile from {arguments.tiles_origin} was drawn; images: {sources[:5]}") from None
        attribution = driver.find_element(By.CSS_SELECTOR, "#nearby-map .leaflet-control-attribution").text
        assert arguments.attribution in attribution, f"the map's attribution is {attribution!r}"
        policy = driver.execute_script(
            "return fetch('/', {cache: 'no-store'}).then((answer) => answer.headers.get('content-security-policy'))")
        assert f"img-src 'self' data: blob: {arguments.tiles_origin};" in policy, f"the page's policy: {policy}"
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert not errors, "console errors: " + "; ".join(errors)
        print(f"ok: {len(tiles)} tiles from {arguments.tiles_origin} drawn under the page's policy, with the attribution")
    finally:
        driver.quit()


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
