// The web app's service worker (served at /sw.js, so that it controls the whole origin).
//
// - Installing, it keeps a copy of the app shell: every file the gateway serves under /app/ and
//   /lib/ and the page itself, as /app/shell.json lists them.
// - Online, every request goes to the network first (the gateway's files are revalidated on each
//   load, so a new version never mixes with an old one); each answer refreshes the copy.
// - Offline, the shell comes from the copy, and each GET of the API from the last answer this
//   browser had for it (the wallet's tickets with their signed codes among them), marked with
//   the time it was fetched (`x-binario-offline-as-of`) so the page can say how old it is.
//   A person's answers are kept under their user id (the page names it in `x-binario-user`) and
//   forgotten when they sign out.
// - A push (Web Push, RFC 8030) shows a notification even while the app is closed; clicking it
//   opens the page it is about.

const SHELL = "binario-shell-v1";
const DATA = "binario-data-v1";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const listing = await fetch("/app/shell.json", { cache: "no-cache" });
    const shell = await listing.json();
    const cache = await caches.open(SHELL);
    await cache.addAll(shell.files);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== SHELL && name !== DATA) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  // The page signed someone out: nothing of theirs stays on the device.
  if (event.data && event.data.type === "forget-data") event.waitUntil(caches.delete(DATA));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if ((request.headers.get("accept") || "").includes("text/event-stream")) return;
  if (url.pathname.startsWith("/v1/")) {
    event.respondWith(apiAnswer(request));
  } else if (request.mode === "navigate") {
    event.respondWith(shellAnswer(request, "/"));
  } else {
    event.respondWith(shellAnswer(request, url.pathname));
  }
});

async function shellAnswer(request, key) {
  const cache = await caches.open(SHELL);
  try {
    const response = await fetch(request);
    if (response.ok && response.status === 200) await cache.put(key, response.clone());
    return response;
  } catch (failure) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw failure;
  }
}

/** The key of an API answer: its URL, and whose it is. */
function dataKey(request) {
  const user = request.headers.get("x-binario-user") || "anyone";
  const url = new URL(request.url);
  url.searchParams.set("binario-user", user);
  return url.toString();
}

async function apiAnswer(request) {
  const cache = await caches.open(DATA);
  const key = dataKey(request);
  try {
    const response = await fetch(request);
    if (response.status === 200) {
      const headers = new Headers(response.headers);
      headers.set("x-binario-stored-at", new Date().toISOString());
      const body = await response.clone().arrayBuffer();
      await cache.put(key, new Response(body, { status: 200, headers }));
    }
    return response;
  } catch (failure) {
    const kept = await cache.match(key);
    if (!kept) {
      return new Response(JSON.stringify({ code: "UNAVAILABLE", message: "", offline: true }), {
        status: 503, headers: { "content-type": "application/json", "x-binario-offline-as-of": "" },
      });
    }
    const headers = new Headers(kept.headers);
    headers.set("x-binario-offline-as-of", kept.headers.get("x-binario-stored-at") || "");
    return new Response(await kept.arrayBuffer(), { status: 200, headers });
  }
}

self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch { message = { title: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(message.title || "Binario", {
    body: message.body || "",
    tag: message.id || undefined,
    icon: "/app/icons/icon-192.png",
    data: { kind: message.kind, data: message.data || {} },
  }));
});

/** The page a notification is about. */
function pageOf(notification) {
  const { kind, data = {} } = notification.data || {};
  if (data.trip_id && data.service_date) return `/#/trips/${encodeURIComponent(data.trip_id)}/${encodeURIComponent(data.service_date)}`;
  if (data.friend_request_from) return "/#/friends";
  // An invite is answered on the trips page; the trip itself opens once joined.
  if (kind === "itinerary_invite") return "/#/itineraries";
  if (data.itinerary_id) return `/#/itineraries/${encodeURIComponent(data.itinerary_id)}`;
  if (kind === "ticket") return "/#/wallet";
  if (kind === "renewal_reminder") return "/#/subscriptions";
  return "/#/notifications";
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(pageOf(event.notification), self.location.origin).toString();
  event.waitUntil((async () => {
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if ("focus" in client) {
        await client.navigate(target).catch(() => {});
        return client.focus();
      }
    }
    return self.clients.openWindow(target);
  })());
});
