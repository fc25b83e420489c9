// Notifications on this device while the app is closed (Web Push): asked for when a person
// first wants news of something (following a train, asking for a taxi), never on opening the
// app. The browser's push subscription is registered as a WEB_PUSH device of the signed-in
// person, and removed when they sign out, so that the next person on this browser gets none of
// theirs.

import { api } from "./api.js";
import { session } from "./session.js";

const deviceKey = "binario.push-device";

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** base64url → bytes, for `applicationServerKey`. */
function bytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Whether this device gets pushes for the signed-in person now. */
export const isOn = () => supported() && Notification.permission === "granted" && !!session.storage?.getItem(deviceKey);

/** Asks the person (once) and subscribes this device. Returns "on", "denied", "unsupported" or
 * "unavailable" (the server sends no Web Push, or the browser's push service failed). */
export async function enablePush() {
  if (!supported()) return "unsupported";
  if (isOn()) return "on";
  const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  if (permission !== "granted") return "denied";
  try {
    const settings = await api("GET", "/v1/push-settings");
    if (!settings.webPushPublicKey) return "unavailable";
    const registration = await navigator.serviceWorker.ready;
    const subscription = (await registration.pushManager.getSubscription())
      || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(settings.webPushPublicKey) });
    const answer = await api("POST", "/v1/me/push-devices", {
      platform: "PUSH_PLATFORM_WEB_PUSH", token: JSON.stringify(subscription.toJSON()), name: deviceName(),
    });
    session.storage?.setItem(deviceKey, answer.device.deviceId);
    return "on";
  } catch (error) {
    console.warn("push notifications could not be turned on", error);
    return "unavailable";
  }
}

/** Signing out: this device stops getting the person's pushes. */
export async function disablePush() {
  const deviceId = session.storage?.getItem(deviceKey);
  session.storage?.removeItem(deviceKey);
  if (!supported()) return;
  try {
    if (deviceId) await api("DELETE", `/v1/me/push-devices/${encodeURIComponent(deviceId)}`);
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = registration && await registration.pushManager.getSubscription();
    if (subscription) await subscription.unsubscribe();
  } catch (error) {
    console.warn("could not stop push notifications on this device", error);
  }
}

function deviceName() {
  const agent = navigator.userAgent;
  const browser = /Firefox\//.test(agent) ? "Firefox" : /Edg\//.test(agent) ? "Edge" : /Chrome\//.test(agent) ? "Chrome" : /Safari\//.test(agent) ? "Safari" : "Browser";
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS" : /Windows/.test(agent) ? "Windows" : /Mac OS/.test(agent) ? "macOS" : /Linux/.test(agent) ? "Linux" : "";
  return system ? `${browser} on ${system}` : browser;
}
