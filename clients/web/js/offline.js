// Working without network: the service worker (/sw.js) keeps the app shell and the last answer
// of each page's calls; this module registers it and keeps the mark that tells a person they are
// looking at copies ("Offline, as of 17:42"), from the oldest copy the page is showing.

import { time } from "./dom.js";

let oldestCopy = null;
const listeners = new Set();

/** Registers the service worker (where the browser has them: a secure origin). */
export async function registerWorker() {
  if (!("serviceWorker" in navigator)) return null;
  try {
    return await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch (error) {
    console.warn("the service worker could not be registered; the app works online only", error);
    return null;
  }
}

/** An answer came from the device's copy, stored at `storedAt` (ISO). */
export function sawCopy(storedAt) {
  const at = storedAt ? new Date(storedAt) : null;
  if (!oldestCopy || (at && at < oldestCopy)) oldestCopy = at || new Date(0);
  draw();
}

/** An answer came from the network: whatever is shown from now on is current. */
export function sawNetwork() {
  if (oldestCopy === null) return;
  oldestCopy = null;
  draw();
}

/** A new page: it starts with no copies shown. */
export function newPage() {
  if (navigator.onLine) sawNetwork();
}

export const isShowingCopies = () => oldestCopy !== null;

/** Calls `listener(asOf Date | null)` when the mark changes. */
export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function draw() {
  for (const listener of listeners) listener(oldestCopy);
}

/** Signing out: the copies of this person's pages leave the device. */
export function forgetData() {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ type: "forget-data" });
}

export const asOfText = (asOf) => (asOf && asOf.getTime() > 0 ? time(asOf.toISOString()) : "");
