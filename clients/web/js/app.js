// The web app's shell: the menu for who is signed in, the pages by the address's #fragment,
// the unread count and the live notifications stream while someone is signed in.

import { api } from "./api.js";
import { session } from "./session.js";
import { openStream } from "./events.js";
import { h, replace, announce } from "./dom.js";
import { t, loadLanguage, setLanguage, language, languages, languageNames, onLanguageChange } from "./i18n.js";
import { registerWorker, onChange as onOfflineChange, newPage, forgetData, asOfText } from "./offline.js";
import { disablePush } from "./push.js";
import * as account from "./pages/account.js";
import * as board from "./pages/board.js";

/** A page's `show` from a module loaded when the page is first opened: the board and the
 * sign-in come with the app, every other page's code only when someone goes there. */
const lazy = (file, name) => async (main, context) => (await import(`./pages/${file}.js`))[name](main, context);

/** Each page: its address pattern, its title's key, who may open it, and its module's `show`. */
const pages = [
  { path: "sign-in", title: "signIn.title", show: account.showSignIn },
  { path: "sign-up", title: "signUp.title", show: account.showSignUp },
  { path: "confirm", title: "confirm.title", show: account.showConfirm },
  { path: "password-reset", title: "reset.title", show: account.showPasswordReset },
  { path: "board/:station", title: "page.board", show: board.show },
  { path: "board", title: "page.board", show: board.show },
  { path: "journeys", title: "journeys.title", show: lazy("trips", "showSearch") },
  { path: "trips/:trip/:date", title: "page.trip", show: lazy("trips", "showTrip") },
  { path: "notifications", title: "page.notifications", show: lazy("notifications", "show"), signedIn: true },
  { path: "profile", title: "page.profile", show: lazy("profile", "show"), signedIn: true },
  { path: "friends", title: "page.friends", show: lazy("friends", "show"), signedIn: true },
  { path: "buy", title: "buy.title", show: lazy("buy", "show"), signedIn: true },
  { path: "wallet", title: "page.wallet", show: lazy("wallet", "show"), signedIn: true },
  { path: "subscriptions", title: "page.subscriptions", show: lazy("subscriptions", "show"), signedIn: true },
  { path: "subscriptions/new", title: "subs.add", show: lazy("subscriptions", "showForm"), signedIn: true },
  { path: "subscriptions/:id", title: "page.subscription", show: lazy("subscriptions", "showOne"), signedIn: true },
  { path: "subscriptions/:id/edit", title: "subs.edit", show: lazy("subscriptions", "showForm"), signedIn: true },
  { path: "subscription-statistics", title: "subs.statistics", show: lazy("subscriptions", "showStatistics"), signedIn: true },
  { path: "subscription-settings", title: "subs.settingsTitle", show: lazy("subscriptions", "showSettings"), signedIn: true },
  { path: "itineraries", title: "page.itineraries", show: lazy("itineraries", "show"), signedIn: true },
  { path: "itineraries/:id", title: "page.itinerary", show: lazy("itineraries", "showOne"), signedIn: true },
  { path: "air", title: "page.air", show: lazy("air", "show"), signedIn: true },
  { path: "air-settings", title: "page.airSettings", show: lazy("air-settings", "show"), signedIn: true },
  { path: "emergency", title: "page.emergency", show: lazy("emergency", "show") },
  { path: "nearby", title: "page.nearby", show: lazy("nearby", "show") },
  { path: "fares", title: "page.fares", show: lazy("fares", "show") },
  { path: "air-map", title: "page.publicAir", show: lazy("public-air", "show") },
  { path: "open-data", title: "page.openData", show: lazy("open-data", "show") },
  { path: "taxi", title: "page.taxi", show: lazy("taxi", "show"), signedIn: true },
  { path: "taxi/:ride", title: "page.taxiRide", show: lazy("taxi", "showRide"), signedIn: true },
  { path: "driver", title: "page.driver", show: lazy("driver", "show"), role: "ROLE_DRIVER" },
  { path: "admin/trips", title: "page.timetable", show: lazy("admin-trips", "show"), role: "ROLE_ADMIN" },
  { path: "admin/notices", title: "page.notices", show: lazy("admin-notices", "show"), role: "ROLE_ADMIN" },
  { path: "admin/control-room", title: "page.controlRoom", show: lazy("control-room", "show"), role: "ROLE_ADMIN" },
  { path: "admin/fleet", title: "page.fleet", show: lazy("fleet", "show"), role: "ROLE_ADMIN" },
];

/** The menu: [label's key, address, who sees it]. */
const menu = [
  ["page.board", "#/board", "anyone"],
  ["journeys.title", "#/journeys", "anyone"],
  ["page.nearby", "#/nearby", "anyone"],
  ["page.fares", "#/fares", "anyone"],
  ["page.publicAir", "#/air-map", "anyone"],
  ["page.openData", "#/open-data", "anyone"],
  ["buy.title", "#/buy", "signedIn"],
  ["page.wallet", "#/wallet", "signedIn"],
  ["page.subscriptions", "#/subscriptions", "signedIn"],
  ["page.itineraries", "#/itineraries", "signedIn"],
  ["page.air", "#/air", "signedIn"],
  ["page.taxi", "#/taxi", "signedIn"],
  ["page.friends", "#/friends", "signedIn"],
  ["page.notifications", "#/notifications", "signedIn"],
  ["page.profile", "#/profile", "signedIn"],
  ["page.driver", "#/driver", "ROLE_DRIVER"],
  ["menu.timetable", "#/admin/trips", "ROLE_ADMIN"],
  ["page.notices", "#/admin/notices", "ROLE_ADMIN"],
  ["menu.controlRoom", "#/admin/control-room", "ROLE_ADMIN"],
  ["page.fleet", "#/admin/fleet", "ROLE_ADMIN"],
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
    replace(main, h("h1", {}, t(page.title)), h("p", { role: "alert" }, t("app.otherRole")));
    return;
  }
  document.title = `${t(page.title)} · Binario`;
  replace(main, h("h1", {}, t(page.title)));
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
    h("li", {}, h("a", { href }, t(label),
      href === "#/notifications" ? h("span", { id: "unread", class: "badge" }, "") : null)))));
  renderUnread();
  markCurrent();
  const accountBox = document.getElementById("account");
  if (session.user) {
    replace(accountBox, languagePicker(), h("a", { id: "who", href: "#/profile" }, session.user.email || t("signIn.done")),
      h("button", { type: "button", id: "sign-out", onclick: signOut }, t("menu.signOut")));
  } else {
    replace(accountBox, languagePicker(), h("a", { href: "#/sign-in" }, t("signIn.title")), h("a", { href: "#/sign-up" }, t("menu.signUp")));
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
  badge.setAttribute("aria-label", t("menu.unread", { count: state.unread }));
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
      announce(t("notifications.new", { title: message.notification.title }));
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
  async signedIn(tokens, next, { keep = false } = {}) {
    session.signedIn(tokens, { keep });
    location.hash = next ? `#${next}` : "#/board";
  },
};

/** The language switcher: each language in its own words; the choice is remembered on this
 * device, and a signed-in person's account takes it too (their emails and notifications). */
function languagePicker() {
  const picker = h("select", { id: "language", "aria-label": t("menu.language") },
    Object.keys(languages).map((code) => h("option", { value: code, lang: code, selected: code === language() }, languageNames[code])));
  picker.addEventListener("change", async () => {
    await setLanguage(picker.value);
    if (session.user && !session.user.offline) {
      api("PATCH", "/v1/me", { language: picker.value }).catch((error) => console.warn("the account keeps its language", error));
    }
  });
  return picker;
}

/** The page's own words (index.html's are the English ones, for the first paint). */
function translateShell() {
  document.querySelector("a.skip").textContent = t("app.skip");
  document.getElementById("emergency-button").textContent = t("emergency.button");
  document.getElementById("menu-button").textContent = t("app.menu");
  document.getElementById("site-nav").setAttribute("aria-label", t("app.mainMenu"));
}

/** The mark over every page while it shows copies kept on this device. */
let lastAsOf = null;
function drawOfflineMark(asOf) {
  lastAsOf = asOf;
  const mark = document.getElementById("offline-mark");
  if (!asOf) { mark.hidden = true; mark.textContent = ""; return; }
  const at = asOfText(asOf);
  mark.textContent = at ? t("offline.asOf", { time: at }) : t("offline.mark");
  mark.hidden = false;
}

async function start() {
  await loadLanguage();
  translateShell();
  onLanguageChange(() => { translateShell(); renderMenu(); drawOfflineMark(lastAsOf); route(); });
  registerWorker();
  onOfflineChange(drawOfflineMark);
  document.getElementById("menu-button").addEventListener("click", (event) => {
    const open = event.currentTarget.getAttribute("aria-expanded") !== "true";
    event.currentTarget.setAttribute("aria-expanded", String(open));
    document.getElementById("site-nav").classList.toggle("open", open);
  });
  // A reload in the same tab keeps the session (its refresh token is in sessionStorage), and a
  // launch keeps the one kept in the gateway's cookie ("keep me signed in").
  if (session.resumable) await session.refreshed();
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
