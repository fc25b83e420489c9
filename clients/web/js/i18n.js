// The app's language: Italian or English, the browser's by default, switchable and remembered
// on this device. Every text a page shows comes from the language's catalogue
// (/app/locales/LANGUAGE.json) by its key, and every time, date, number and sum of money is
// formatted with Intl in the language's locale, on Milan's clock.

/** The languages the app speaks, and the locale each formats in. */
export const languages = { it: "it-IT", en: "en-GB" };
/** Each language's own name, for the switcher (a person finds their language in its words). */
export const languageNames = { it: "Italiano", en: "English" };

const storageKey = "binario.language";
const listeners = new Set();
let current = "en";
let catalogue = {};

/** The language saved on this device, else the first of the browser's the app speaks, else English. */
export function preferredLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(storageKey); } catch { /* storage refused: the browser's */ }
  if (saved && saved in languages) return saved;
  for (const tag of navigator.languages || [navigator.language]) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (base in languages) return base;
  }
  return "en";
}

/** The language the app speaks now ("it" or "en"). */
export const language = () => current;
/** Its locale, for Intl ("it-IT"). */
export const locale = () => languages[current];

/** Loads `language`'s catalogue and makes it the page's language. */
export async function loadLanguage(wanted = preferredLanguage()) {
  const response = await fetch(`/app/locales/${wanted}.json`);
  if (!response.ok) throw new Error(`the ${wanted} catalogue answered ${response.status}`);
  catalogue = await response.json();
  current = wanted;
  document.documentElement.lang = wanted;
  formats.clear();
}

/** Switches to `wanted`, remembers it on this device, and tells the listeners. */
export async function setLanguage(wanted) {
  if (!(wanted in languages)) throw new Error(`the app does not speak ${wanted}`);
  try { localStorage.setItem(storageKey, wanted); } catch { /* kept for this visit only */ }
  await loadLanguage(wanted);
  for (const listener of listeners) listener(wanted);
}

/** Calls `listener(language)` after each switch. */
export function onLanguageChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let plurals = null;

/** The text for `key`, with `{name}` replaced by `params.name` (numbers formatted for the
 * locale). An entry may be `{one, other}`: `params.count` picks the form. A missing key shows
 * itself (and the catalogue test fails on it). */
export function t(key, params = {}) {
  let entry = catalogue[key];
  if (entry === undefined) {
    console.warn(`no ${current} text for ${key}`);
    return key;
  }
  if (typeof entry === "object") {
    if (!plurals || plurals.resolvedOptions().locale !== locale()) plurals = new Intl.PluralRules(locale());
    entry = entry[plurals.select(Number(params.count ?? 0))] ?? entry.other;
  }
  return entry.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? number(value) : String(value ?? "");
  });
}

// ---- Formats, in the language's locale and Milan's time zone. ----

export const zone = "Europe/Rome";
const formats = new Map();

function format(kind, make) {
  const key = `${current}:${kind}`;
  if (!formats.has(key)) formats.set(key, make(locale()));
  return formats.get(key);
}

/** "17:42" */
export const time = (iso) => (iso ? format("time", (l) => new Intl.DateTimeFormat(l, { hour: "2-digit", minute: "2-digit", timeZone: zone })).format(new Date(iso)) : "");
/** "27 nov 2026, 17:42" / "27 Nov 2026, 17:42" */
export const dateTime = (iso) => (iso ? format("dateTime", (l) => new Intl.DateTimeFormat(l, { dateStyle: "medium", timeStyle: "short", timeZone: zone })).format(new Date(iso)) : "");
/** "27 nov 2026" */
export const date = (iso) => (iso ? format("date", (l) => new Intl.DateTimeFormat(l, { dateStyle: "medium", timeZone: zone })).format(new Date(iso)) : "");
/** A calendar date ("2026-11-27", no zone) as a date for people. */
export const calendarDate = (day) => (day ? format("calendarDate", (l) => new Intl.DateTimeFormat(l, { dateStyle: "medium", timeZone: "UTC" })).format(new Date(`${day}T00:00:00Z`)) : "");
/** A number with the locale's separators, at most `digits` decimals. */
export const number = (value, digits = 2) => format(`number${digits}`, (l) => new Intl.NumberFormat(l, { maximumFractionDigits: digits })).format(value);

const moneyFormat = (currency) => format(`money:${currency}`, (l) => new Intl.NumberFormat(l, { style: "currency", currency }));

/** How many digits a currency's minor unit has (the yen none), as Intl knows it. */
export const minorUnitDigits = (currency) => moneyFormat(currency).resolvedOptions().maximumFractionDigits;

/** Money as the proto's JSON has it: `{amountMinor: "1250", currency: "EUR"}` (int64 is a string). */
export function money(value) {
  if (!value) return "";
  const currency = value.currency || "EUR";
  return moneyFormat(currency).format(Number(value.amountMinor || 0) / 10 ** minorUnitDigits(currency));
}

/** An amount typed in major units ("12,5" or "12.5") as the proto's Money. */
export const moneyOf = (text, currency) =>
  ({ amountMinor: String(Math.round(Number(String(text || 0).replace(",", ".")) * 10 ** minorUnitDigits(currency))), currency });

/** The proto's Money in major units, for an input or a chart. */
export const majorUnits = (value) => Number(value.amountMinor || 0) / 10 ** minorUnitDigits(value.currency || "EUR");
