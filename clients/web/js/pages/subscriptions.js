// SubscriptionME: what the signed-in user spends on subscriptions per month and per year, the
// next renewals, the spending per category as a chart, and the subscriptions they own or share.

import { api, segment } from "../api.js";
import { h, replace, field, form, failure, announce, money, enumText, today } from "../dom.js";
import { chart, colours } from "../charts.js";
import { t, calendarDate, number } from "../i18n.js";
import { chartJs } from "../libraries.js";

const categoryText = (category) => enumText(category);
const periodText = (period) => enumText(period);

export async function show(main) {
  await chartJs();
  const home = h("section", { id: "subscription-home", "aria-labelledby": "home-heading" });
  const statistics = h("section", { id: "subscription-statistics", "aria-labelledby": "statistics-heading" });
  const lists = h("section", { id: "subscription-list" });
  const adding = h("section", { id: "subscription-add" });
  main.append(home, statistics, lists, adding);

  async function loadHome() {
    const answer = await api("GET", "/v1/me/subscriptions-home?renewals=5");
    const totals = answer.totals || [];
    replace(home, h("h2", { id: "home-heading" }, t("subs.spending")),
      // One small list per figure (a term and its value), shown as cards.
      h("div", { class: "figures" }, totals.length ? totals.flatMap((total) => [
        h("dl", {}, h("dt", {}, t("subs.perMonth")), h("dd", { class: "monthly" }, money(total.monthly))),
        h("dl", {}, h("dt", {}, t("subs.perYear")), h("dd", { class: "yearly" }, money(total.yearly))),
      ]) : h("dl", {}, h("dt", {}, t("subs.perMonth")), h("dd", {}, money({ amountMinor: "0", currency: "EUR" })))),
      h("p", {}, t("subs.count", { count: answer.subscriptions || 0 })),
      h("h3", {}, t("subs.nextRenewals")),
      h("ol", { id: "renewals" }, (answer.nextRenewals || []).map((renewal) =>
        h("li", {}, t("subs.renewal", { name: renewal.serviceName, date: calendarDate(renewal.date), count: renewal.daysLeft, share: money(renewal.yourShare) })))));
  }

  async function loadStatistics() {
    const answer = await api("GET", "/v1/me/subscription-statistics");
    const categories = answer.categories || [];
    const canvas = h("canvas", { id: "category-chart", role: "img", "aria-label": t("subs.chart") });
    replace(statistics, h("h2", { id: "statistics-heading" }, t("subs.perCategory")),
      categories.length ? h("div", { class: "chart-box" }, canvas) : h("p", { class: "empty" }, t("subs.none")),
      categories.length ? h("table", { class: "compact" },
        h("caption", {}, t("subs.chart")),
        h("thead", {}, h("tr", {}, ["subs.category", "page.subscriptions", "subs.perMonth", "subs.share"].map((key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, categories.map((entry) => h("tr", {},
          h("th", { scope: "row" }, categoryText(entry.category)), h("td", {}, entry.subscriptions), h("td", {}, money(entry.monthly)),
          h("td", {}, t("subs.percent", { share: number((entry.shareBasisPoints || 0) / 100, 1) })))))) : null);
    if (categories.length) {
      chart(canvas, {
        type: "doughnut",
        data: {
          labels: categories.map((entry) => categoryText(entry.category)),
          datasets: [{ data: categories.map((entry) => Number(entry.monthly.amountMinor) / 100), backgroundColor: colours.palette }],
        },
        options: { plugins: { legend: { position: "right" } } },
      });
    }
  }

  function subscriptionItem(subscription) {
    const details = subscription.details;
    const members = subscription.members || [];
    const remove = subscription.owned
      ? h("button", { type: "button", class: "secondary", onclick: () => act("DELETE", `/v1/me/subscriptions/${segment(subscription.subscriptionId)}`, t("subs.removed", { name: details.serviceName })) }, t("subs.remove"))
      : h("button", { type: "button", class: "secondary", onclick: () => act("POST", `/v1/me/subscriptions/${segment(subscription.subscriptionId)}:withdraw`, t("subs.left", { name: details.serviceName }), {}) }, t("subs.leave"));
    return h("li", { class: "card", dataset: { subscription: subscription.subscriptionId } },
      h("h3", {}, `${details.serviceName}${details.planType ? ` · ${details.planType}` : ""}`),
      h("p", {}, `${money(details.price)} ${periodText(details.period)}, ${categoryText(details.category)}`),
      h("p", {}, t("subs.yourShare", { share: money(subscription.yourShare), date: calendarDate(subscription.nextRenewal), count: subscription.daysUntilRenewal })),
      members.length ? h("p", {}, t("subs.sharedWith", { members: members.map((member) => `${member.name} (${money(member.share)})`).join(", ") })) : null,
      subscription.owned ? null : h("p", {}, t("subs.ownedBy", { name: subscription.owner.name })),
      remove);
  }

  async function act(method, path, done, body) {
    try {
      await api(method, path, body);
      announce(done);
      await reload();
    } catch (error) {
      lists.append(failure(error));
    }
  }

  async function loadLists() {
    const answer = await api("GET", "/v1/me/subscriptions");
    replace(lists,
      h("h2", {}, t("subs.yours")), h("ol", { class: "cards", id: "my-subscriptions" }, (answer.mine || []).map(subscriptionItem)),
      (answer.sharedWithMe || []).length ? [h("h2", {}, t("subs.sharedWithYou")),
        h("ol", { class: "cards", id: "shared-subscriptions" }, answer.sharedWithMe.map(subscriptionItem))] : null);
  }

  async function drawAdding() {
    const [options, friends] = await Promise.all([api("GET", "/v1/subscription-options"), api("GET", "/v1/friends")]);
    const names = h("datalist", { id: "service-names" }, (options.serviceNames || []).map((name) => h("option", { value: name })));
    const plans = h("datalist", { id: "plan-types" }, (options.planTypes || []).map((name) => h("option", { value: name })));
    const friendBoxes = (friends.friends || []).map((friend) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: "share", value: friend.userId }), ` ${friend.firstName || ""} ${friend.lastName || ""}`.trimEnd()));
    // One key per subscription meant: a second submit of the same form (a retry after a lost
    // answer) returns the one added; a new key once it is added.
    let addKey = crypto.randomUUID();
    replace(adding, h("h2", {}, t("subs.add")), names, plans, form(t("subs.add"), [
      field(t("subs.service"), { name: "serviceName", list: "service-names", required: true, placeholder: "Netflix" }),
      field(t("subs.plan"), { name: "planType", list: "plan-types", placeholder: t("subs.planExample") }),
      field(t("subs.started"), { name: "startDate", type: "date", required: true, value: today() }),
      field(t("subs.every"), { name: "period", options: (options.periods || []).map((period) => [period, periodText(period)]), value: "SUBSCRIPTION_PERIOD_MONTHLY" }),
      field(t("subs.price"), { name: "price", type: "number", step: "0.01", min: "0", required: true }),
      field(t("subs.category"), { name: "category", options: (options.categories || []).map((category) => [category, categoryText(category)]) }),
      friendBoxes.length ? h("fieldset", {}, h("legend", {}, t("subs.shareWith")), friendBoxes) : null,
    ], t("subs.addButton"), async (values, element) => {
      const shared = [...element.querySelectorAll('input[name="share"]:checked')].map((box) => box.value);
      await api("POST", "/v1/me/subscriptions", {
        details: {
          serviceName: values.serviceName, customServiceName: !(options.serviceNames || []).includes(values.serviceName),
          planType: values.planType, customPlanType: !!values.planType && !(options.planTypes || []).includes(values.planType),
          startDate: values.startDate, period: values.period, category: values.category, automaticRenewal: true,
          price: { amountMinor: String(Math.round(Number(values.price) * 100)), currency: "EUR" },
        },
        sharedWithUserIds: shared,
        idempotencyKey: addKey,
      });
      addKey = crypto.randomUUID();
      announce(t("subs.added", { name: values.serviceName }));
      element.reset();
      await reload();
    }, { id: "subscription-form", class: "inline" }));
  }

  async function reload() {
    for (const [load, where] of [[loadHome, home], [loadStatistics, statistics], [loadLists, lists]]) {
      try { await load(); } catch (error) { replace(where, failure(error)); }
    }
  }
  await reload();
  try { await drawAdding(); } catch (error) { adding.append(failure(error)); }
}
