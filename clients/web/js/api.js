// Calls to the gateway's HTTP/JSON front door (same origin), with the signed-in user's access
// token. Every failure is an ApiError carrying the front door's JSON error: its code, message
// and the fields at fault.

import { session } from "./session.js";
import { sawCopy, sawNetwork } from "./offline.js";
import { t, language } from "./i18n.js";

/** The message of an error body for a person: the one in their language when the service
 * sent one (google.rpc.LocalizedMessage), else the status message. */
export const personMessage = (body) => (body.localizedMessage && body.localizedMessage.message) || body.message || "";

/** A failed call: `code` ("INVALID_ARGUMENT", "UNAUTHENTICATED", ...), a message for a person,
 * and `fieldViolations` ([{field, description}]) naming each field at fault, each in the app's
 * language when the service sent it so. */
export class ApiError extends Error {
  constructor(status, body) {
    super(personMessage(body) || t("error.status", { status }));
    this.status = status;
    this.code = body.code || "UNKNOWN";
    this.fieldViolations = (body.fieldViolations || []).map((violation) => ({
      field: violation.field, description: personMessage({ ...violation, message: violation.description }),
    }));
    this.requestId = body.requestId || "";
  }
}

/** A path with its query: `{a: 1, b: undefined}` → `?a=1`; arrays repeat the name. */
export function withQuery(path, query) {
  const parts = [];
  for (const [name, value] of Object.entries(query || {})) {
    if (value === undefined || value === null || value === "") continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(one)}`);
    }
  }
  return parts.length ? `${path}?${parts.join("&")}` : path;
}

/** One path segment, escaped. */
export const segment = (value) => encodeURIComponent(String(value));

async function send(method, path, body, token, scheme = "Bearer", extraHeaders = {}) {
  // The services answer refusals in the app's language too (LocalizedMessage details).
  const headers = { accept: "application/json", "accept-language": language(), ...extraHeaders };
  if (token) headers.authorization = `${scheme} ${token}`;
  // Whose copy the service worker keeps of this answer (and gives back without network).
  if (session.user && scheme === "Bearer") headers["x-binario-user"] = session.user.userId;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (failure) {
    throw new ApiError(0, { code: "UNAVAILABLE", message: t("error.unreachable") });
  }
  const copyOf = response.headers.get("x-binario-offline-as-of");
  if (copyOf === null) sawNetwork(); else if (response.ok) sawCopy(copyOf);
  const text = await response.text();
  let json = {};
  try { json = text ? JSON.parse(text) : {}; } catch { json = { message: text }; }
  if (!response.ok) {
    if (json.offline) throw new ApiError(0, { code: "UNAVAILABLE", message: t("error.offline") });
    throw new ApiError(response.status, json);
  }
  return json;
}

/** Calls `method path` with `body` (JSON) as the signed-in user (when there is one). An expired
 * access token is refreshed once and the call made again. */
export async function api(method, path, body) {
  const token = await session.accessToken();
  try {
    return await send(method, path, body, token);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "UNAUTHENTICATED" || !token) throw error;
    const fresh = await session.refreshed();
    if (!fresh) throw error;
    return send(method, path, body, fresh);
  }
}

/** The same, without any token: sign-up, sign-in and the like (`headers`: any more to send). */
export const publicApi = (method, path, body, headers) => send(method, path, body, null, "Bearer", headers);

/** A sensor board's call, with its device token rather than a person's session. */
export const deviceApi = (method, path, body, deviceToken) => send(method, path, body, deviceToken, "Device");
