// The signed-in user's tokens, kept as a browser app should keep them:
// - the access token (short-lived) only in memory: no other page or script reading storage sees it;
// - by default the refresh token in this tab's sessionStorage, so a reload keeps you signed in
//   while closing the tab signs you out; it is exchanged (and rotated) through
//   POST /v1/sessions:refresh;
// - with "keep me signed in", the refresh token never reaches this code: the gateway keeps it in an
//   HttpOnly, Secure, SameSite=Strict cookie sent only to the refresh route, and every launch of the
//   app trades it there. localStorage then says only that a kept session exists, and whose.
// Who is signed in (id, roles, email; no token) is kept beside it, so that a launch without
// network still knows whose copies of the pages to show (the service worker keeps them).
// The README's "Tokens" section has the threat model.

const refreshKey = "binario.refresh";
const profileKey = "binario.profile";
const keptKey = "binario.kept-session";
const keepHeader = { "x-keep-signed-in": "true" };
const listeners = new Set();

let current = null; // {accessToken, expiresAt (ms), userId, roles: ["ROLE_ADMIN", ...]}
let refreshing = null;

function storage(area) {
  try { return window[area]; } catch { return null; }
}

/** Whether this browser keeps the session across launches (the person chose it at sign-in). */
const kept = () => storage("localStorage")?.getItem(keptKey) === "true";

/** Where what this session keeps beside its tokens lives: for the tab, or for the device. */
const place = () => storage(kept() ? "localStorage" : "sessionStorage");

function adopt(tokens) {
  const previous = current;
  current = {
    accessToken: tokens.accessToken,
    expiresAt: Date.parse(tokens.accessTokenExpiresAt || "") || Date.now() + 60_000,
    userId: tokens.userId,
    roles: tokens.roles || [],
    email: previous && previous.userId === tokens.userId ? previous.email : undefined,
  };
  if (!kept()) sessionStorage.setItem(refreshKey, tokens.refreshToken);
  remember();
  // A refresh is the same person: only a new person (or none) is news.
  if (!previous || previous.userId !== current.userId) for (const listener of listeners) listener(current);
}

function remember() {
  if (current) place()?.setItem(profileKey, JSON.stringify({ userId: current.userId, roles: current.roles, email: current.email }));
}

/** Without network after a reload: whoever was signed in, without a token until the network is back. */
function resumeOffline() {
  if (current) return;
  try {
    const profile = JSON.parse(place()?.getItem(profileKey) || "null");
    if (!profile || !profile.userId) return;
    current = { accessToken: null, expiresAt: 0, userId: profile.userId, roles: profile.roles || [], email: profile.email, offline: true };
    for (const listener of listeners) listener(current);
  } catch {
    place()?.removeItem(profileKey);
  }
}

function clearStorage() {
  for (const area of ["sessionStorage", "localStorage"]) {
    storage(area)?.removeItem(refreshKey);
    storage(area)?.removeItem(profileKey);
  }
  storage("localStorage")?.removeItem(keptKey);
}

function forget() {
  current = null;
  clearStorage();
  for (const listener of listeners) listener(null);
}

async function exchange(refreshToken) {
  const response = await fetch("/v1/sessions:refresh", {
    method: "POST",
    // A kept session sends no token: the browser adds the cookie, the gateway reads it.
    headers: { "content-type": "application/json", accept: "application/json", ...(refreshToken ? {} : keepHeader) },
    body: JSON.stringify(refreshToken ? { refreshToken } : {}),
    credentials: "same-origin",
  });
  if (!response.ok) return null;
  return (await response.json()).tokens || null;
}

/** One refresh at a time across this browser's tabs: the kept token is rotated by each trade,
 * and identity ends a session whose refresh token is traded twice. */
function oneAtATime(work) {
  return navigator.locks ? navigator.locks.request("binario.refresh", work) : work();
}

export const session = {
  /** Whoever is signed in now, or null. */
  get user() { return current; },

  /** The profile's email, once read (the header shows it; tokens carry only ids and roles). */
  setEmail(email) { if (current) { current.email = email; remember(); } },
  has(role) { return !!current && current.roles.includes(role); },

  /** Calls `listener(user or null)` when someone else (or nobody) is signed in. */
  onChange(listener) { listeners.add(listener); return () => listeners.delete(listener); },

  /** The headers a sign-in sends to keep the session in the gateway's cookie. */
  keepHeaders: keepHeader,

  /** Signed in with the tokens a sign-in answered; `keep`: the sign-in asked for the cookie. */
  signedIn(tokens, { keep = false } = {}) {
    clearStorage();
    if (keep) storage("localStorage")?.setItem(keptKey, "true");
    adopt(tokens);
  },

  /** Forgets the tokens (after the gateway revoked the session, or when it would not). */
  signedOut() { forget(); },

  /** Where to keep what belongs to this session on this device (push registration, say):
   * localStorage for a kept session, else the tab's sessionStorage. */
  get storage() { return place(); },

  /** Whether a session may be resumed on opening the app (this tab's, or one kept). */
  get resumable() { return kept() || !!sessionStorage.getItem(refreshKey); },

  /** A valid access token: the one in memory, refreshed when it is about to expire or after a
   * reload; null when nobody is signed in. */
  async accessToken() {
    if (current && current.expiresAt - Date.now() > 30_000) return current.accessToken;
    if (!this.resumable) return current ? current.accessToken : null;
    return this.refreshed();
  },

  /** Exchanges the refresh token for new tokens (one exchange at a time); null when it is no
   * longer accepted, which signs the tab out. */
  async refreshed() {
    if (!this.resumable) return null;
    refreshing = refreshing || oneAtATime(() => exchange(kept() ? null : sessionStorage.getItem(refreshKey))).then((tokens) => {
      if (tokens) adopt(tokens); else forget();
      return tokens ? tokens.accessToken : null;
    }).catch(() => {
      // No network (not a refusal): still signed in, on the copies kept on this device.
      resumeOffline();
      return current ? current.accessToken : null;
    }).finally(() => { refreshing = null; });
    return refreshing;
  },
};
