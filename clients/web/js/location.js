// Sharing the device's position while a page that uses it is open (the nearby page, a station's
// board), so that deals, the station welcome and the places to visit reach a web traveller as
// they reach the phone app. Only for a signed-in person who said yes on this device, with the
// browser's own permission, and with a mark over the page for as long as it lasts, from which
// they can stop. A report goes to geo-offers (ReportLocation) at most once a minute, or sooner
// after moving 200 m; its answer is handed to the page.

import { api } from "./api.js";
import { session } from "./session.js";
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";

const consentKey = "binario.share-location";
const minimumInterval = 60_000;
const minimumMove = 200;

let sharing = null; // { watchId, last: {latitude, longitude, at}, onReport }

/** Whether the person said yes to sharing their position from this device. */
export function consented() {
  try { return localStorage.getItem(consentKey) === "yes"; } catch { return false; }
}

/** Records the person's answer; a no stops any sharing at once. */
export function setConsent(yes) {
  try {
    if (yes) localStorage.setItem(consentKey, "yes"); else localStorage.removeItem(consentKey);
  } catch { /* storage unavailable: nothing is remembered */ }
  if (!yes) stopSharing();
  window.dispatchEvent(new CustomEvent("binario:location-consent", { detail: yes }));
}

/** Shares the position while the calling page is open, if the person said yes; returns what
 * stops it (the page's cleanup). `onReport(answer, coords)` gets each ReportLocation answer. */
export function shareWhileOpen(onReport) {
  if (!session.user || session.user.offline || !consented() || !navigator.geolocation) return () => {};
  stopSharing();
  const state = { last: null, onReport };
  state.watchId = navigator.geolocation.watchPosition(
    (position) => report(state, position.coords),
    (error) => drawMark(t("location.failed", { reason: error.message })),
    { maximumAge: 30_000 });
  sharing = state;
  drawMark(t("location.sharing"));
  return () => { if (sharing === state) stopSharing(); };
}

async function report(state, coords) {
  const { latitude, longitude } = coords;
  const now = Date.now();
  if (state.last && now - state.last.at < minimumInterval && metresBetween(state.last, coords) < minimumMove) return;
  state.last = { latitude, longitude, at: now };
  try {
    const answer = await api("POST", "/v1/me/location", {
      latitude, longitude, accuracyMetres: Math.min(Math.max(coords.accuracy || 0, 0), 100_000),
    });
    if (sharing === state) state.onReport?.(answer, { latitude, longitude });
  } catch (error) {
    console.warn("the position was not reported", error);
  }
}

function stopSharing() {
  if (sharing) navigator.geolocation.clearWatch(sharing.watchId);
  sharing = null;
  drawMark(null);
}

/** The mark over every page while the position is shared: what is happening, and a way to stop. */
function drawMark(text) {
  const mark = document.getElementById("location-mark");
  if (!mark) return;
  if (!text) { mark.hidden = true; replace(mark); return; }
  const stop = h("button", { type: "button", class: "secondary", id: "stop-sharing" }, t("location.stop"));
  stop.addEventListener("click", () => setConsent(false));
  replace(mark, h("span", {}, text), " ", stop);
  mark.hidden = false;
}

/** The distance between two points in metres (haversine). */
function metresBetween(a, b) {
  const radians = (degrees) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(s));
}
