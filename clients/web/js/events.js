// Server-streaming methods over the front door's Server-Sent Events, read with fetch (an
// EventSource cannot send the Authorization header). A dropped stream is reopened after a
// backoff, with Last-Event-ID when the method resumes at a cursor, until `close()`.

import { session } from "./session.js";
import { personMessage } from "./api.js";
import { t, language } from "./i18n.js";

/** Opens `path` and calls `onMessage(json)` for each message; `onError(error JSON)` for an
 * error event or a refused request, `onState("open" | "reconnecting")` as the stream goes.
 * Returns `{close()}`. */
export function openStream(path, { onMessage, onError = () => {}, onState = () => {}, signedIn = true }) {
  const control = new AbortController();
  let lastEventId = null;
  let backoff = 500;
  let closed = false;

  async function readOnce() {
    const headers = { accept: "text/event-stream", "accept-language": language() };
    if (signedIn) {
      const token = await session.accessToken();
      // Without network a person stays signed in without a token: try again later.
      if (!token) throw Object.assign(new Error(t("error.signedOut")), { final: !(session.user && session.user.offline) });
      headers.authorization = `Bearer ${token}`;
    }
    if (lastEventId) headers["last-event-id"] = lastEventId;
    const response = await fetch(path, { headers, signal: control.signal });
    if (!response.ok) {
      const body = await response.json().catch(() => ({ message: t("error.status", { status: response.status }) }));
      // A refusal other than an expired token is not worth retrying.
      throw Object.assign(new Error(personMessage(body)), { body, final: response.status !== 401 && response.status < 500 });
    }
    onState("open");
    backoff = 500;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
        dispatch(block);
      }
    }
  }

  function dispatch(block) {
    let event = "message";
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id") lastEventId = value;
    }
    if (!data.length) return;
    const json = JSON.parse(data.join("\n"));
    if (event === "error") onError(json); else onMessage(json);
  }

  (async () => {
    while (!closed) {
      try {
        await readOnce();
      } catch (failure) {
        if (closed || failure.name === "AbortError") return;
        if (failure.final) { onError(failure.body || { message: failure.message }); return; }
        if (failure.body) await session.refreshed();
      }
      if (closed) return;
      onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, backoff));
      backoff = Math.min(backoff * 2, 15_000);
    }
  })();

  return { close() { closed = true; control.abort(); } };
}
