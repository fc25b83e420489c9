// The web app's shell: the menu for who is signed in, the pages by the address's #fragment,
// the unread count and the live notifications stream while someone is signed in.

import { api } from "./api.js";
import { session } from "./session.js";
import { openStream } from "./events.js";
import { h, replace, announce } from "./dom.js";
import { registerWorker, onChange as onOfflineChange, newPage, forgetData, asOfText } from "./offline.js";
import { disablePush } from "./push.js";
import * as account from "./pages/account.js";
import * as board from "./pages/board.js";
import * as trips from "./pages/trips.js";
import * as notifications from "./pages/notifications.js";
import * as wallet from "./pages/wallet.js";
import * as adminTrips from "./pages/admin-trips.js";
import * as subscriptions from "./pages/subscriptions.js";
import * as air from "./pages/air.js";
import * as nearby from "./pages/nearby.js";
import * as itineraries from "./pages/itineraries.js";
import * as driver from "./pages/driver.js";
import * as controlRoom from "./pages/control-room.js";

/** Each page: its address pattern, its title, who may open it, and its module's `show`. */
const pages = [
  { path: "sign-in", title: "Sign in", show: account.showSignIn },
  { path: "sign-up", title: "Create an account", show: account.showSignUp },
  { path: "confirm", title: "Confirm your email", show: account.showConfirm },
  { path: "password-reset", title: "Reset your password", show: account.showPasswordReset },
  { path: "board/:station", title: "Departures", show: board.show },
  { path: "board", title: "Departures", show: board.show },
  { path: "journeys", title: "Find a train", show: trips.showSearch },
  { path: "trips/:trip/:date", title: "Trip", show: trips.showTrip },
  { path: "notifications", title: "Notifications", show: notifications.show, signedIn: true },
  { path: "wallet", title: "Wallet", show: wallet.show, signedIn: true },
  { path: "subscriptions", title: "Subscriptions", show: subscriptions.show, signedIn: true },
  { path: "itineraries", title: "Itineraries", show: itineraries.show, signedIn: true },
  { path: "itineraries/:id", title: "Itinerary", show: itineraries.showOne, signedIn: true },
  { path: "air", title: "Air quality", show: air.show, signedIn: true },
  { path: "nearby", title: "Nearby", show: nearby.show, signedIn: true },
  { path: "driver", title: "Driver", show: driver.show, role: "ROLE_DRIVER" },
  { path: "admin/trips", title: "Timetable changes", show: adminTrips.show, role: "ROLE_ADMIN" },
  { path: "admin/control-room", title: "Taxi control room", show: controlRoom.show, role: "ROLE_ADMIN" },
];

/** The menu: [label, address, who sees it]. */
const menu = [
  ["Departures", "#/board", "anyone"],
  ["Find a train", "#/journeys", "anyone"],
  ["Wallet", "#/wallet", "signedIn"],
  ["Subscriptions", "#/subscriptions", "signedIn"],
  ["Itineraries", "#/itineraries", "signedIn"],
  ["Air quality", "#/air", "signedIn"],
  ["Nearby", "#/nearby", "signedIn"],
  ["Notifications", "#/notifications", "signedIn"],
  ["Driver", "#/driver", "ROLE_DRIVER"],
  ["Timetable", "#/admin/trips", "ROLE_ADMIN"],
  ["Control room", "#/admin/control-room", "ROLE_ADMIN"],
];

const state = { cleanup: null, unread: 0, stream: null };

function match(hash) {
  const [path, queryText] = hash.replace(/^#\/?/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const query = Object.fromEntries(new URLSearchParams(queryText || ""));
  for (const page of pages) {
    const pattern = page.path.split("/");
    if (pattern.length !== parts.length) continue;
    const params = {};
    if (pattern.every((piece, i) => (piece.startsWith(":") ? (params[piece.slice(1)] = parts[i], true) : piece === parts[i]))) {
      return { page, params, query };
    }
  }
  return null;
}

async function route() {
  if (state.cleanup) { try { state.cleanup(); } catch (error) { console.warn(error); } }
  state.cleanup = null;
  closeMenu();
  newPage();
  const main = document.getElementById("page");
  // The password-reset link identity emails opens /reset-password?token=...
  if (location.pathname === "/reset-password" && !location.hash) {
    const token = new URLSearchParams(location.search).get("token") || "";
    history.replaceState(null, "", `/#/password-reset?token=${encodeURIComponent(token)}`);
  }
  const found = location.hash && location.hash !== "#/" ? match(location.hash) : null;
  if (!found) {
    location.replace(session.user ? "#/board" : "#/sign-in");
    return;
  }
  const { page, params, query } = found;
  if ((page.signedIn || page.role) && !session.user) {
    location.replace(`#/sign-in?next=${encodeURIComponent(location.hash.slice(1))}`);
    return;
  }
  if (page.role && !session.has(page.role)) {
    replace(main, h("h1", {}, page.title), h("p", { role: "alert" }, "This page is for another role than yours."));
    return;
  }
  document.title = `${page.title} · Binario`;
  replace(main, h("h1", {}, page.title));
  markCurrent();
  try {
    state.cleanup = (await page.show(main, { params, query, app })) || null;
  } catch (error) {
    console.warn(error);
    main.append(h("p", { class: "failure", role: "alert" }, error.message || String(error)));
  }
  main.focus({ preventScroll: true });
}

function visible(who) {
  return who === "anyone" || (who === "signedIn" && session.user) || session.has(who);
}

function renderMenu() {
  const nav = document.getElementById("site-nav");
  replace(nav, h("ul", {}, menu.filter(([, , who]) => visible(who)).map(([label, href]) =>
    h("li", {}, h("a", { href }, label,
      href === "#/notifications" ? h("span", { id: "unread", class: "badge", "aria-label": "unread" }, "") : null)))));
  renderUnread();
  markCurrent();
  const accountBox = document.getElementById("account");
  if (session.user) {
    replace(accountBox, h("span", { id: "who" }, session.user.email || "Signed in"),
      h("button", { type: "button", id: "sign-out", onclick: signOut }, "Sign out"));
  } else {
    replace(accountBox, h("a", { href: "#/sign-in" }, "Sign in"), h("a", { href: "#/sign-up" }, "Create an account"));
  }
}

function markCurrent() {
  for (const link of document.querySelectorAll("#site-nav a")) {
    const current = location.hash.startsWith(link.getAttribute("href"));
    if (current) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
}

function renderUnread() {
  const badge = document.getElementById("unread");
  if (!badge) return;
  badge.textContent = state.unread > 0 ? String(state.unread) : "";
  badge.setAttribute("aria-label", `${state.unread} unread`);
  badge.hidden = state.unread === 0;
}

function closeMenu() {
  document.getElementById("menu-button").setAttribute("aria-expanded", "false");
  document.getElementById("site-nav").classList.remove("open");
}

async function signOut() {
  await disablePush();
  try {
    await api("DELETE", "/v1/sessions/current");
  } catch (error) {
    console.warn("signing out at the gateway failed; forgetting the tokens anyway", error);
  }
  session.signedOut();
  forgetData();
  location.hash = "#/sign-in";
}

/** While someone is signed in: the unread count, then each new notification as it comes. */
async function followNotifications() {
  if (state.stream) state.stream.close();
  state.stream = null;
  state.unread = 0;
  if (!session.user) return renderUnread();
  try {
    const inbox = await api("GET", "/v1/me/notifications?page_size=1");
    state.unread = inbox.unreadCount || 0;
    renderUnread();
  } catch (error) {
    console.warn("could not read the unread count", error);
  }
  state.stream = openStream("/v1/me/notifications:watch", {
    onMessage(message) {
      state.unread += 1;
      renderUnread();
      announce(`New notification: ${message.notification.title}`);
      window.dispatchEvent(new CustomEvent("binario:notification", { detail: message.notification }));
    },
    onError(error) { console.warn("the notifications stream ended:", error.message); },
  });
}

/** What pages may ask of the shell. */
export const app = {
  /** The unread count changed (a page marked some read). */
  setUnread(count) { state.unread = count; renderUnread(); },
  /** Someone signed in with these tokens and this profile. */
  async signedIn(tokens, next) {
    session.signedIn(tokens);
    location.hash = next ? `#${next}` : "#/board";
  },
};

/** The mark over every page while it shows copies kept on this device. */
function drawOfflineMark(asOf) {
  const mark = document.getElementById("offline-mark");
  if (!asOf) { mark.hidden = true; mark.textContent = ""; return; }
  const at = asOfText(asOf);
  mark.textContent = at ? `Offline, as of ${at}` : "Offline";
  mark.hidden = false;
}

async function start() {
  registerWorker();
  onOfflineChange(drawOfflineMark);
  document.getElementById("menu-button").addEventListener("click", (event) => {
    const open = event.currentTarget.getAttribute("aria-expanded") !== "true";
    event.currentTarget.setAttribute("aria-expanded", String(open));
    document.getElementById("site-nav").classList.toggle("open", open);
  });
  // A reload in the same tab keeps the session: its refresh token is in sessionStorage.
  if (session.refreshToken) await session.refreshed();
  await enrichUser();
  session.onChange(async () => { await enrichUser(); renderMenu(); followNotifications(); });
  renderMenu();
  followNotifications();
  window.addEventListener("hashchange", route);
  route();
}

/** The signed-in user's email for the header (tokens carry only ids and roles). */
async function enrichUser() {
  if (!session.user || session.user.email || session.user.offline) return;
  try {
    const me = await api("GET", "/v1/me");
    session.setEmail(me.profile.email);
  } catch (error) {
    console.warn("could not read the profile", error);
  }
}

start();
