// Building the page: elements from data (text is always text, never parsed as HTML), forms
// that show each field's error beside it, and the formats of times and money (i18n.js).

import { ApiError, personMessage } from "./api.js";
import { t, zone } from "./i18n.js";

/** `h("p", {class: "x", onclick: f}, "text", child)`: an element with attributes, listeners
 * (`on...`) and children (strings become text nodes; null and false are skipped). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces everything in `element` with `children`. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

let fieldCounter = 0;

/** A labelled input: `field(t("account.email"), {name: "email", type: "email", required: true})`. The
 * `name` is the request's field, so the server's field violations find their input. */
export function field(label, attributes, hint) {
  const id = `field-${++fieldCounter}`;
  const control = attributes.options
    ? h("select", { id, name: attributes.name, required: attributes.required },
      attributes.options.map(([value, text]) => h("option", { value, selected: value === attributes.value }, text)))
    : h("input", { id, ...attributes, "aria-describedby": `${id}-error${hint ? ` ${id}-hint` : ""}` });
  return h("div", { class: "field" },
    h("label", { for: id }, label),
    control,
    hint ? h("small", { id: `${id}-hint`, class: "hint" }, hint) : null,
    h("small", { id: `${id}-error`, class: "field-error", "data-error-for": attributes.name, "aria-live": "polite" }));
}

/** A form: `submit(values)` runs on submit with the fields' values (busy while it runs); an
 * ApiError's message shows in the form's alert and each field violation beside its input. */
export function form(label, children, submitText, submit, extraAttributes = {}) {
  const alert = h("p", { class: "form-alert", role: "alert" });
  const button = h("button", { type: "submit" }, submitText);
  const element = h("form", { "aria-label": label, novalidate: true, ...extraAttributes }, children, alert, button);
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(element);
    const values = Object.fromEntries(new FormData(element).entries());
    button.disabled = true;
    element.setAttribute("aria-busy", "true");
    try {
      await submit(values, element);
    } catch (error) {
      showError(element, error);
    } finally {
      button.disabled = false;
      element.removeAttribute("aria-busy");
    }
  });
  return element;
}

function clearErrors(formElement) {
  for (const slot of formElement.querySelectorAll("[data-error-for]")) slot.textContent = "";
  for (const input of formElement.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  formElement.querySelector(".form-alert").textContent = "";
}

/** A password typed twice: refused beside the second field when the two differ, before anything
 * is sent. */
export function checkTypedTwice(values, field, again) {
  if (values[field] === values[again]) return;
  const message = t("account.passwordsDiffer");
  throw new ApiError(400, { code: "INVALID_ARGUMENT", message, fieldViolations: [{ field: again, description: message }] });
}

/** Shows `error` in a form: its message, and each field at fault beside its input. */
export function showError(formElement, error) {
  const alert = formElement.querySelector(".form-alert");
  alert.textContent = error instanceof ApiError ? error.message : t("error.unexpected", { reason: error.message });
  if (!(error instanceof ApiError)) console.warn(error);
  for (const violation of (error.fieldViolations || [])) {
    const name = violation.field.split(".").pop().replace(/_([a-z])/g, (_, c) => c.toUpperCase());
    const slot = formElement.querySelector(`[data-error-for="${CSS.escape(name)}"]`)
      || formElement.querySelector(`[data-error-for="${CSS.escape(violation.field)}"]`);
    if (!slot) continue;
    slot.textContent = violation.description;
    const input = formElement.querySelector(`[name="${CSS.escape(slot.dataset.errorFor)}"]`);
    if (input) input.setAttribute("aria-invalid", "true");
  }
}

/** A message for a person in the page's live region (screen readers hear it). */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (region) region.textContent = text;
}

/** A failure in a section of a page (not a form). */
export function failure(error) {
  if (!(error instanceof ApiError)) console.warn(error);
  return h("p", { class: "failure", role: "alert" }, personMessage(error) || String(error));
}

// ---- Formats: the language's locale, on Milan's clock (i18n.js). ----

export { zone, time, dateTime, date, calendarDate, number, money } from "./i18n.js";

/** An enum value for people, from the catalogue: "TICKET_STATUS_VALID" → "valid" / "valido". */
export const enumText = (value) => (value ? t(`enum.${value}`) : "");
/** `text` with its first letter a capital: an enum's words (written for inside a sentence) as a heading. */
export const initialCapital = (text) => (text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text);

/** Today's date in Milan, YYYY-MM-DD. */
export function today() {
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date());
}

/** A `datetime-local` input's value ("2027-05-01T10:30"), read as Milan's time, as an instant.
 * (The input has no zone; the app shows every time in Milan's, so it reads them so too.) */
export function fromZonedInput(value) {
  const [datePart, timePart = "00:00"] = value.split("T");
  const [year, month, day] = datePart.split("-").map(Number);
  const [hour, minute] = timePart.split(":").map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // The zone's offset at that wall time (twice: the first guess may sit across a DST change).
  let instant = wall - offsetAt(wall);
  instant = wall - offsetAt(instant);
  return new Date(instant);
}

/** An instant as a `datetime-local` value in Milan's time. */
export function toZonedInput(instant) {
  const wall = new Date(instant.getTime() + offsetAt(instant.getTime()));
  return wall.toISOString().slice(0, 16);
}

/** Milan's offset from UTC at `instant` (ms). */
function offsetAt(instant) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-US", {
    timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
  }).formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const asUTC = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUTC - Math.floor(instant / 1000) * 1000;
}
