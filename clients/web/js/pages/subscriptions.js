// SubscribeME: the signed-in user's subscriptions through their life. Home (a greeting, what
// they spend per currency and in one grand total, the budgets passed, the dates due and the next
// renewals, their subscriptions and those shared with them), a subscription's page (its dates,
// members, payments; mark paid, pause, cancel, resume, edit, remove or leave), the form to add or
// edit one, the statistics per category, and the settings (reminders, home, currency, budgets).

import { api, segment } from "../api.js";
import { h, replace, field, form, failure, announce, money, enumText, initialCapital, today } from "../dom.js";
import { chart, colours } from "../charts.js";
import { t, calendarDate, number, moneyOf, majorUnits, minorUnitDigits } from "../i18n.js";
import { chartJs } from "../libraries.js";

const categoryText = (category) => enumText(category);
const periodText = (period) => enumText(period);
const statusText = (status) => enumText(status);
const percent = (basisPoints) => t("subs.percent", { share: number((basisPoints || 0) / 100, 1) });
const path = (subscription) => `/v1/me/subscriptions/${segment(subscription.subscriptionId)}`;
/** The currencies the form offers; any other comes from an edited subscription. */
const currencies = ["EUR", "USD", "GBP", "CHF", "JPY", "SEK", "DKK", "NOK", "PLN", "CZK"];

const toMinor = (text, currency) => moneyOf(text, currency).amountMinor;
const fromMinor = (value) => (value ? majorUnits(value) : "");

/** The pages of SubscribeME, each a link in a row under the heading. */
function tabs(current) {
  const links = [["subs.home", "#/subscriptions"], ["subs.addNew", "#/subscriptions/new"],
    ["subs.statistics", "#/subscription-statistics"], ["subs.settings", "#/subscription-settings"]];
  return h("nav", { class: "tabs", "aria-label": t("page.subscriptions") },
    links.map(([key, href]) => h("a", { href, "aria-current": key === current ? "page" : null }, t(key))));
}

/** A subscription's card in a list: its category's colour, name, status, price and next date. */
function card(subscription) {
  const details = subscription.details;
  const status = subscription.status || "SUBSCRIPTION_STATUS_ACTIVE";
  return h("li", { class: "card subscription", dataset: { subscription: subscription.subscriptionId, category: details.category } },
    h("h3", {}, h("a", { href: `#/subscriptions/${segment(subscription.subscriptionId)}` }, details.serviceName),
      details.planType ? ` · ${details.planType}` : ""),
    h("p", {}, `${money(details.price)} ${periodText(details.period)} · ${categoryText(details.category)}`),
    status !== "SUBSCRIPTION_STATUS_ACTIVE" ? h("p", { class: "status" }, initialCapital(statusText(status)),
      subscription.endsOn ? ` · ${t("subs.endsOn", { date: calendarDate(subscription.endsOn) })}` : "") : null,
    subscription.due
      ? h("p", { class: "due" }, subscription.daysOverdue > 0
        ? t("subs.overdue", { date: calendarDate(subscription.nextRenewal), count: subscription.daysOverdue })
        : t("subs.dueToday"))
      : (status === "SUBSCRIPTION_STATUS_ENDED" || status === "SUBSCRIPTION_STATUS_PAUSED" ? null
        : h("p", {}, t("subs.yourShare", { share: money(subscription.yourShare), date: calendarDate(subscription.nextRenewal), count: subscription.daysUntilRenewal }))));
}

export async function show(main) {
  main.append(tabs("subs.home"));
  const home = h("section", { id: "subscription-home", "aria-labelledby": "home-heading" });
  const lists = h("section", { id: "subscription-list" });
  main.append(home, lists, h("p", {}, h("a", { class: "button", href: "#/subscriptions/new" }, t("subs.addNew"))));

  async function loadHome() {
    const [answer, me] = await Promise.all([api("GET", "/v1/me/subscriptions-home"), api("GET", "/v1/me").catch(() => null)]);
    const totals = answer.totals || [];
    const figure = (term, value, className) => h("dl", {}, h("dt", {}, term), h("dd", { class: className }, value));
    const grand = answer.grandTotal && answer.grandTotal.monthly;
    replace(home,
      h("p", { class: "greeting" }, t("subs.greeting", { name: (me && me.profile.firstName) || "" })),
      h("h2", { id: "home-heading" }, t("subs.spending")),
      h("div", { class: "figures" }, totals.length ? totals.flatMap((total) => [
        figure(t("subs.perMonth"), money(total.monthly), "monthly"),
        figure(t("subs.perYear"), money(total.yearly), "yearly"),
      ]) : figure(t("subs.perMonth"), money({ amountMinor: "0", currency: "EUR" }), "monthly"),
      grand && totals.length > 1 ? [
        figure(t("subs.grandMonthly"), money(answer.grandTotal.monthly), "grand-monthly"),
        figure(t("subs.grandYearly"), money(answer.grandTotal.yearly), "grand-yearly"),
      ] : null),
      grand && totals.length > 1 ? h("p", { class: "hint" }, t("subs.ratesOf", { date: calendarDate(answer.ratesDate) })) : null,
      (answer.unconverted || []).length && totals.length > 1 ? h("p", { class: "hint" }, t("subs.noRate", { currencies: answer.unconverted.join(", ") })) : null,
      h("p", {}, t("subs.count", { count: answer.subscriptions || 0 })),
      (answer.budgetNotices || []).map((notice) => h("p", { class: "notice budget", role: "status" },
        notice.category && notice.category !== "SUBSCRIPTION_CATEGORY_UNSPECIFIED"
          ? t("subs.categoryBudgetPassed", { category: categoryText(notice.category), spent: money(notice.spent), budget: money(notice.budget) })
          : t("subs.budgetPassed", { spent: money(notice.spent), budget: money(notice.budget) }))),
      (answer.due || []).length ? [h("h3", {}, t("subs.due")), h("ol", { id: "due" }, answer.due.map((due) =>
        h("li", {}, h("a", { href: `#/subscriptions/${segment(due.subscriptionId)}` }, due.serviceName), " ",
          t("subs.dueItem", { date: calendarDate(due.date), share: money(due.yourShare) }), " ",
          h("button", { type: "button", class: "secondary", onclick: (event) => markPaid(event.target, due.subscriptionId, due.date, due.serviceName) }, t("subs.markPaid")))))] : null,
      h("h3", {}, t("subs.nextRenewals")),
      (answer.nextRenewals || []).length
        ? h("ol", { id: "renewals" }, answer.nextRenewals.map((renewal) =>
          h("li", {}, t("subs.renewal", { name: renewal.serviceName, date: calendarDate(renewal.date), count: renewal.daysLeft, share: money(renewal.yourShare) }))))
        : h("p", { class: "empty" }, t("subs.noRenewals")));
  }

  async function markPaid(button, id, date, name) {
    button.disabled = true;
    try {
      await api("POST", `/v1/me/subscriptions/${segment(id)}:markPaid`, { dueDate: date });
      announce(t("subs.paid", { name }));
      await reload();
    } catch (error) {
      button.disabled = false;
      home.append(failure(error));
    }
  }

  async function loadLists() {
    const answer = await api("GET", "/v1/me/subscriptions");
    replace(lists,
      h("h2", {}, t("subs.yours")),
      (answer.mine || []).length ? h("ol", { class: "cards", id: "my-subscriptions" }, answer.mine.map(card)) : h("p", { class: "empty" }, t("subs.none")),
      (answer.sharedWithMe || []).length ? [h("h2", {}, t("subs.sharedWithYou")),
        h("ol", { class: "cards", id: "shared-subscriptions" }, answer.sharedWithMe.map(card))] : null);
  }

  async function reload() {
    for (const [load, where] of [[loadHome, home], [loadLists, lists]]) {
      try { await load(); } catch (error) { replace(where, failure(error)); }
    }
  }
  await reload();
}

/** One subscription: everything about it, its payments, and what its owner or a member may do. */
export async function showOne(main, { params }) {
  main.append(tabs(null));
  const section = h("section", { id: "subscription-detail" });
  main.append(section);
  const id = params.id;

  async function load() {
    const { subscription } = await api("GET", `/v1/me/subscriptions/${segment(id)}`);
    const { payments = [], totalPaid } = await api("GET", `/v1/me/subscriptions/${segment(id)}/payments`);
    const details = subscription.details;
    const status = subscription.status || "SUBSCRIPTION_STATUS_ACTIVE";
    const person = (member) => `${member.name || t("subs.someone")}${member.email ? ` (${member.email})` : ""}`;
    const row = (term, value) => (value === "" || value === null || value === undefined ? null : [h("dt", {}, term), h("dd", {}, value)]);
    const act = (key, method, suffix, body, done) => h("button", {
      type: "button", class: "secondary", onclick: async (event) => {
        event.target.disabled = true;
        try {
          await api(method, `${path(subscription)}${suffix}`, body);
          announce(done);
          if (method === "DELETE" || suffix === ":withdraw") location.hash = "#/subscriptions";
          else await load();
        } catch (error) {
          event.target.disabled = false;
          section.append(failure(error));
        }
      },
    }, t(key));
    const owner = subscription.owned;
    const running = status === "SUBSCRIPTION_STATUS_ACTIVE" || status === "SUBSCRIPTION_STATUS_TRIAL";
    const manual = !details.automaticRenewal && !subscription.ticketId;
    const cancelForm = owner && !subscription.ticketId && running ? form(t("subs.cancel"), [
      field(t("subs.lastDay"), { name: "endsOn", type: "date", value: today(), required: true }),
    ], t("subs.cancel"), async (values) => {
      await api("POST", `${path(subscription)}:cancel`, { endsOn: values.endsOn });
      announce(t("subs.cancelled", { name: details.serviceName }));
      await load();
    }, { id: "cancel-form", class: "inline" }) : null;
    replace(section,
      h("h2", { class: "subscription-name", dataset: { category: details.category } }, details.serviceName),
      h("p", { class: "status" }, initialCapital(statusText(status))),
      subscription.due ? h("p", { class: "due", role: "status" }, subscription.daysOverdue > 0
        ? t("subs.overdue", { date: calendarDate(subscription.nextRenewal), count: subscription.daysOverdue }) : t("subs.dueToday")) : null,
      h("dl", { class: "details" },
        row(t("subs.plan"), details.planType),
        row(t("subs.category"), categoryText(details.category)),
        row(t("subs.price"), `${money(details.price)} ${periodText(details.period)}`),
        row(t("subs.yourShareOnly"), money(subscription.yourShare)),
        row(t("subs.started"), calendarDate(details.startDate)),
        row(t("subs.trialEnds"), details.trialEndsOn ? calendarDate(details.trialEndsOn) : ""),
        row(t("subs.next"), status === "SUBSCRIPTION_STATUS_ENDED" || status === "SUBSCRIPTION_STATUS_PAUSED" ? "" : calendarDate(subscription.nextRenewal)),
        row(t("subs.pausedOn"), subscription.pausedOn ? calendarDate(subscription.pausedOn) : ""),
        row(t("subs.lastDay"), subscription.endsOn ? calendarDate(subscription.endsOn) : ""),
        row(t("subs.payment"), details.automaticRenewal ? t("subs.automatic") : t("subs.byHand")),
        row(t("subs.card"), details.cardLast4 ? t("subs.cardEnding", { last4: details.cardLast4 }) : ""),
        row(t("subs.reminder"), t("subs.daysBefore", { count: subscription.reminderDays || 0 })),
        row(t("subs.owner"), person(subscription.owner)),
        row(t("subs.members"), (subscription.members || []).map((member) => `${person(member)}: ${money(member.share)}`).join(", "))),
      h("div", { class: "actions" },
        manual && subscription.status !== "SUBSCRIPTION_STATUS_PAUSED" && (subscription.due || running)
          ? act("subs.markPaid", "POST", ":markPaid", { dueDate: subscription.nextRenewal }, t("subs.paid", { name: details.serviceName })) : null,
        owner && !subscription.ticketId && running ? act("subs.pause", "POST", ":pause", {}, t("subs.paused", { name: details.serviceName })) : null,
        owner && !subscription.ticketId && !running ? act("subs.resume", "POST", ":resume", {}, t("subs.resumed", { name: details.serviceName })) : null,
        owner && !subscription.ticketId ? h("a", { class: "button secondary", href: `#/subscriptions/${segment(id)}/edit` }, t("subs.edit")) : null,
        owner && !subscription.ticketId ? act("subs.remove", "DELETE", "", undefined, t("subs.removed", { name: details.serviceName })) : null,
        owner ? null : act("subs.leave", "POST", ":withdraw", {}, t("subs.left", { name: details.serviceName }))),
      cancelForm,
      h("h3", {}, t("subs.payments")),
      payments.length ? h("table", { id: "payments", class: "compact" },
        h("thead", {}, h("tr", {}, ["subs.dueDate", "subs.paidOn", "subs.amount", "subs.paidBy"].map((key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, payments.map((payment) => h("tr", {},
          h("td", {}, calendarDate(payment.dueDate)), h("td", {}, calendarDate(payment.paidOn)), h("td", {}, money(payment.amount)),
          h("td", {}, payment.automatic ? t("subs.automatic") : payment.paidByName || t("subs.someone"))))),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: 2 }, t("subs.totalPaid")), h("td", { class: "total-paid" }, money(totalPaid)), h("td", {}))))
        : h("p", { class: "empty" }, t("subs.noPayments")));
  }
  try { await load(); } catch (error) { section.append(failure(error)); }
}

/** The form to add a subscription (no `params.id`) or edit one: every field of SubscribeME's. */
export async function showForm(main, { params }) {
  main.append(tabs(params.id ? null : "subs.addNew"));
  const section = h("section", { id: "subscription-add" });
  main.append(section);
  try {
    const [options, friends, existing] = await Promise.all([
      api("GET", "/v1/subscription-options"),
      api("GET", "/v1/friends"),
      params.id ? api("GET", `/v1/me/subscriptions/${segment(params.id)}`).then((answer) => answer.subscription) : null,
    ]);
    const details = existing ? existing.details : {};
    const members = new Set(((existing && existing.members) || []).map((member) => member.userId));
    const names = h("datalist", { id: "service-names" }, (options.serviceNames || []).map((name) => h("option", { value: name })));
    const plans = h("datalist", { id: "plan-types" }, (options.planTypes || []).map((name) => h("option", { value: name })));
    const friendBoxes = (friends.friends || []).map((friend) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: "share", value: friend.userId, checked: members.has(friend.userId) }),
      ` ${`${friend.firstName || ""} ${friend.lastName || ""}`.trim()} (${friend.email})`));
    const currency = (details.price && details.price.currency) || "EUR";
    const currencyOptions = [...new Set([currency, ...currencies])].map((code) => [code, code]);
    // One key per subscription meant: a second submit of the same form (a retry after a lost
    // answer) returns the one added.
    const addKey = crypto.randomUUID();
    replace(section, h("h2", {}, existing ? t("subs.editing", { name: details.serviceName }) : t("subs.add")), names, plans, form(t("subs.add"), [
      field(t("subs.service"), { name: "serviceName", list: "service-names", required: true, placeholder: "Netflix", value: details.serviceName || "" }),
      field(t("subs.plan"), { name: "planType", list: "plan-types", placeholder: t("subs.planExample"), value: details.planType || "" }, t("subs.optional")),
      field(t("subs.category"), { name: "category", options: (options.categories || []).map((category) => [category, categoryText(category)]), value: details.category }),
      field(t("subs.started"), { name: "startDate", type: "date", required: true, value: details.startDate || today() }),
      field(t("subs.every"), { name: "period", options: (options.periods || []).map((period) => [period, periodText(period)]), value: details.period || "SUBSCRIPTION_PERIOD_MONTHLY" }),
      field(t("subs.amount"), { name: "price", type: "number", step: "any", min: "0", required: true, inputmode: "decimal", value: existing ? fromMinor(details.price) : "" }),
      field(t("subs.currency"), { name: "currency", options: currencyOptions, value: currency }),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "automaticRenewal", checked: existing ? !!details.automaticRenewal : true }), ` ${t("subs.automaticRenewal")}`),
      field(t("subs.card"), { name: "cardLast4", inputmode: "numeric", maxlength: 4, pattern: "[0-9]{4}", value: details.cardLast4 || "" }, t("subs.cardHint")),
      field(t("subs.trialEnds"), { name: "trialEndsOn", type: "date", value: details.trialEndsOn || "" }, t("subs.trialHint")),
      field(t("subs.reminder"), { name: "reminderDays", type: "number", min: 0, max: 60, value: details.reminderDays ?? "" }, t("subs.reminderHint")),
      h("fieldset", {}, h("legend", {}, t("subs.shareWith")), friendBoxes.length ? friendBoxes : h("p", { class: "hint" }, t("subs.noFriends")),
        field(t("subs.shareByEmail"), { name: "sharedWithEmails", type: "email" }, t("subs.shareByEmailHint"))),
    ], existing ? t("subs.save") : t("subs.addButton"), async (values, element) => {
      const shared = [...element.querySelectorAll('input[name="share"]:checked')].map((box) => box.value);
      const body = {
        details: {
          serviceName: values.serviceName, customServiceName: !(options.serviceNames || []).includes(values.serviceName),
          planType: values.planType || "", customPlanType: !!values.planType && !(options.planTypes || []).includes(values.planType),
          startDate: values.startDate, period: values.period, category: values.category,
          automaticRenewal: element.querySelector('input[name="automaticRenewal"]').checked,
          price: { amountMinor: toMinor(values.price, values.currency), currency: values.currency },
          cardLast4: values.cardLast4 || "", trialEndsOn: values.trialEndsOn || "",
          ...(values.reminderDays === "" ? {} : { reminderDays: Number(values.reminderDays) }),
        },
        sharedWithUserIds: shared,
        sharedWithEmails: values.sharedWithEmails ? [values.sharedWithEmails] : [],
      };
      const answer = existing
        ? await api("PUT", `/v1/me/subscriptions/${segment(existing.subscriptionId)}`, body)
        : await api("POST", "/v1/me/subscriptions", { ...body, idempotencyKey: addKey });
      announce(existing ? t("subs.saved", { name: values.serviceName }) : t("subs.added", { name: values.serviceName }));
      location.hash = `#/subscriptions/${segment(answer.subscription.subscriptionId)}`;
    }, { id: "subscription-form" }));
  } catch (error) {
    section.append(failure(error));
  }
}

/** SubscribeME's statistics: each category's share of the subscriptions (its pie chart) and the
 * money a month per category, in the main currency when every currency converts, else per
 * currency; each chart's figures also as a table. */
export async function showStatistics(main) {
  main.append(tabs("subs.statistics"));
  await chartJs();
  const section = h("section", { id: "subscription-statistics" });
  main.append(section);
  try {
    const answer = await api("GET", "/v1/me/subscription-statistics");
    const money_ = (answer.converted || []).length ? answer.converted : answer.categories || [];
    const byCategory = new Map();
    for (const entry of answer.categories || []) byCategory.set(entry.category, entry.subscriptionsShareBasisPoints || 0);
    const counts = new Map();
    for (const entry of money_) counts.set(entry.category, (counts.get(entry.category) || 0) + (entry.subscriptions || 0));
    if (!money_.length) {
      replace(section, h("p", { class: "empty" }, t("subs.none")));
      return;
    }
    const shares = h("canvas", { id: "category-shares-chart", role: "img", "aria-label": t("subs.categoryShares") });
    const spend = h("canvas", { id: "category-chart", role: "img", "aria-label": t("subs.chart") });
    const categories = [...byCategory.keys()];
    replace(section,
      h("h2", {}, t("subs.categoryShares")),
      h("div", { class: "chart-box" }, shares),
      h("table", { class: "compact", id: "category-shares" }, h("caption", {}, t("subs.categoryShares")),
        h("thead", {}, h("tr", {}, ["subs.category", "page.subscriptions", "subs.share"].map((key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, categories.map((category) => h("tr", {},
          h("th", { scope: "row" }, categoryText(category)), h("td", {}, counts.get(category) || 0), h("td", {}, percent(byCategory.get(category))))))),
      h("h2", {}, t("subs.chart")),
      (answer.converted || []).length && answer.ratesDate ? h("p", { class: "hint" }, t("subs.ratesOf", { date: calendarDate(answer.ratesDate) })) : null,
      h("div", { class: "chart-box" }, spend),
      h("table", { class: "compact", id: "category-spend" }, h("caption", {}, t("subs.chart")),
        h("thead", {}, h("tr", {}, ["subs.category", "subs.perMonth", "subs.share"].map((key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, money_.map((entry) => h("tr", {},
          h("th", { scope: "row" }, categoryText(entry.category)), h("td", {}, money(entry.monthly)), h("td", {}, percent(entry.shareBasisPoints)))))));
    chart(shares, {
      type: "pie",
      data: {
        labels: categories.map((category) => `${categoryText(category)} ${percent(byCategory.get(category))}`),
        datasets: [{ data: categories.map((category) => (byCategory.get(category) || 0) / 100), backgroundColor: categories.map(colours.category) }],
      },
      options: { plugins: { legend: { position: "right" } } },
    });
    chart(spend, {
      type: "doughnut",
      data: {
        labels: money_.map((entry) => `${categoryText(entry.category)} ${money(entry.monthly)}`),
        datasets: [{ data: money_.map((entry) => fromMinor(entry.monthly)), backgroundColor: money_.map((entry) => colours.category(entry.category)) }],
      },
      options: { plugins: { legend: { position: "right" } } },
    });
  } catch (error) {
    section.append(failure(error));
  }
}

/** The person's settings: reminders, how many renewals home shows, the main currency, budgets. */
export async function showSettings(main) {
  main.append(tabs("subs.settings"));
  const section = h("section", { id: "subscription-settings" });
  main.append(section);
  try {
    const [{ settings }, options, rates] = await Promise.all([
      api("GET", "/v1/me/subscription-settings"), api("GET", "/v1/subscription-options"), api("GET", "/v1/exchange-rates"),
    ]);
    const budgets = new Map((settings.categoryBudgets || []).map((budget) => [budget.category, budget.amountMinor]));
    const main_ = settings.mainCurrency || "EUR";
    const known = [...new Set([main_, "EUR", ...(rates.rates || []).map((rate) => rate.currency)])].sort();
    const inMain = (minor) => (minor && Number(minor) > 0 ? Number(minor) / 10 ** minorUnitDigits(main_) : "");
    replace(section, form(t("subs.settings"), [
      field(t("subs.defaultReminder"), { name: "reminderDays", type: "number", min: 0, max: 60, required: true, value: settings.reminderDays ?? 3 }, t("subs.defaultReminderHint")),
      field(t("subs.homeRenewals"), { name: "homeRenewals", type: "number", min: 1, max: 10, required: true, value: settings.homeRenewals || 2 }),
      field(t("subs.mainCurrency"), { name: "mainCurrency", options: known.map((code) => [code, code]), value: main_ },
        rates.ratesDate ? t("subs.ratesOf", { date: calendarDate(rates.ratesDate) }) : t("subs.noRates")),
      field(t("subs.monthlyBudget"), { name: "monthlyBudget", type: "number", min: 0, step: "any", value: inMain(settings.monthlyBudgetMinor) }, t("subs.budgetHint")),
      h("fieldset", {}, h("legend", {}, t("subs.categoryBudgets")),
        (options.categories || []).map((category) => field(initialCapital(categoryText(category)), { name: `budget:${category}`, type: "number", min: 0, step: "any", value: inMain(budgets.get(category)) }))),
    ], t("subs.save"), async (values) => {
      const currency = values.mainCurrency;
      const minor = (text) => (text === "" || text === undefined ? "0" : toMinor(text, currency));
      await api("PUT", "/v1/me/subscription-settings", {
        settings: {
          reminderDays: Number(values.reminderDays), homeRenewals: Number(values.homeRenewals), mainCurrency: currency,
          monthlyBudgetMinor: minor(values.monthlyBudget),
          categoryBudgets: (options.categories || []).filter((category) => values[`budget:${category}`])
            .map((category) => ({ category, amountMinor: minor(values[`budget:${category}`]) })),
        },
      });
      announce(t("subs.settingsSaved"));
    }, { id: "subscription-settings-form" }));
    section.append(files());
  } catch (error) {
    section.append(failure(error));
  }
}

/** Export (Binario's CSV, Wallos's JSON or CSV) and import of the person's subscriptions. */
function files() {
  const result = h("div", { id: "import-result", "aria-live": "polite" });
  const download = (format) => async (event) => {
    event.target.disabled = true;
    try {
      const answer = await api("GET", `/v1/me/subscriptions:export?format=${format}`);
      const link = h("a", { href: URL.createObjectURL(new Blob([answer.content], { type: answer.mediaType })), download: answer.fileName });
      document.body.append(link);
      link.click();
      link.remove();
      announce(t("subs.exported", { count: answer.subscriptions || 0 }));
    } catch (error) {
      result.replaceChildren(failure(error));
    } finally {
      event.target.disabled = false;
    }
  };
  const importing = form(t("subs.import"), [
    field(t("subs.importFile"), { name: "file", type: "file", accept: ".csv,.json,text/csv,application/json", required: true }, t("subs.importHint")),
  ], t("subs.importButton"), async (values, element) => {
    const file = element.querySelector('input[name="file"]').files[0];
    if (!file) return;
    const answer = await api("POST", "/v1/me/subscriptions:import", { content: await file.text() });
    const imported = answer.imported || [];
    const problems = answer.problems || [];
    replace(result,
      h("p", { role: "status" }, t("subs.imported", { count: imported.length })),
      imported.length ? h("ul", { id: "imported" }, imported.map((subscription) =>
        h("li", {}, h("a", { href: `#/subscriptions/${segment(subscription.subscriptionId)}` }, subscription.details.serviceName)))) : null,
      problems.length ? [h("p", {}, t("subs.importProblems")), h("ul", { id: "import-problems" }, problems.map((problem) =>
        h("li", {}, t("subs.importProblem", { line: problem.line, name: problem.name, reason: problem.reason }))))] : null);
    element.reset();
  }, { id: "subscription-import-form" });
  return h("section", { id: "subscription-files", "aria-labelledby": "files-heading" },
    h("h2", { id: "files-heading" }, t("subs.files")),
    h("p", {}, t("subs.exportHint")),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", id: "export-csv", onclick: download("SUBSCRIPTION_FILE_FORMAT_BINARIO_CSV") }, t("subs.exportCsv")),
      h("button", { type: "button", class: "secondary", id: "export-wallos", onclick: download("SUBSCRIPTION_FILE_FORMAT_WALLOS_JSON") }, t("subs.exportWallos")),
      h("button", { type: "button", class: "secondary", id: "export-wallos-csv", onclick: download("SUBSCRIPTION_FILE_FORMAT_WALLOS_CSV") }, t("subs.exportWallosCsv"))),
    importing, result);
}

