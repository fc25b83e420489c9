// The signed-in user's tokens, kept as a browser app should keep them:
// - the access token (short-lived) only in memory: no other page or script reading storage sees it;
// - the refresh token in this tab's sessionStorage, so a reload keeps you signed in while closing
//   the tab signs you out; it is exchanged (and rotated) through POST /v1/sessions:refresh.
// The gateway's Content-Security-Policy runs no script but this app's files, which is what keeps
// sessionStorage out of reach of injected code. Nothing goes in localStorage or a cookie.
// Who is signed in (id, roles, email; no token) is kept beside it, so that a reload without
// network still knows whose copies of the pages to show (the service worker keeps them).

const refreshKey = "binario.refresh";
const profileKey = "binario.profile";
const listeners = new Set();

let current = null; // {accessToken, expiresAt (ms), userId, roles: ["ROLE_ADMIN", ...]}
let refreshing = null;

function adopt(tokens) {
  const previous = current;
  current = {
    accessToken: tokens.accessToken,
    expiresAt: Date.parse(tokens.accessTokenExpiresAt || "") || Date.now() + 60_000,
    userId: tokens.userId,
    roles: tokens.roles || [],
    email: previous && previous.userId === tokens.userId ? previous.email : undefined,
  };
  sessionStorage.setItem(refreshKey, tokens.refreshToken);
  remember();
  // A refresh is the same person: only a new person (or none) is news.
  if (!previous || previous.userId !== current.userId) for (const listener of listeners) listener(current);
}

function remember() {
  if (current) sessionStorage.setItem(profileKey, JSON.stringify({ userId: current.userId, roles: current.roles, email: current.email }));
}

/** Without network after a reload: whoever was signed in, without a token until the network is back. */
function resumeOffline() {
  if (current) return;
  try {
    const profile = JSON.parse(sessionStorage.getItem(profileKey) || "null");
    if (!profile || !profile.userId) return;
    current = { accessToken: null, expiresAt: 0, userId: profile.userId, roles: profile.roles || [], email: profile.email, offline: true };
    for (const listener of listeners) listener(current);
  } catch {
    sessionStorage.removeItem(profileKey);
  }
}

function forget() {
  current = null;
  sessionStorage.removeItem(refreshKey);
  sessionStorage.removeItem(profileKey);
  for (const listener of listeners) listener(null);
}

async function exchange(refreshToken) {
  const response = await fetch("/v1/sessions:refresh", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ refreshToken }),
  });
  if (!response.ok) return null;
  return (await response.json()).tokens || null;
}

export const session = {
  /** Whoever is signed in now, or null. */
  get user() { return current; },

  /** The profile's email, once read (the header shows it; tokens carry only ids and roles). */
  setEmail(email) { if (current) { current.email = email; remember(); } },
  has(role) { return !!current && current.roles.includes(role); },

  /** Calls `listener(user or null)` when someone else (or nobody) is signed in. */
  onChange(listener) { listeners.add(listener); return () => listeners.delete(listener); },

  /** Signed in with the tokens a sign-in answered. */
  signedIn(tokens) { adopt(tokens); },

  /** Forgets the tokens (after the gateway revoked the session, or when it would not). */
  signedOut() { forget(); },

  /** The refresh token to revoke with, if any. */
  get refreshToken() { return sessionStorage.getItem(refreshKey); },

  /** A valid access token: the one in memory, refreshed when it is about to expire or after a
   * reload; null when nobody is signed in. */
  async accessToken() {
    if (current && current.expiresAt - Date.now() > 30_000) return current.accessToken;
    if (!sessionStorage.getItem(refreshKey)) return current ? current.accessToken : null;
    return this.refreshed();
  },

  /** Exchanges the refresh token for new tokens (one exchange at a time); null when it is no
   * longer accepted, which signs the tab out. */
  async refreshed() {
    const refreshToken = sessionStorage.getItem(refreshKey);
    if (!refreshToken) return null;
    refreshing = refreshing || exchange(refreshToken).then((tokens) => {
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
