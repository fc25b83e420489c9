// The profile: a person's details (birth date and gender optional), their email and password,
// their phone and its verification, their cards, how notifications reach them, their language,
// and leaving (deleting the account, which ends every session).

import { api, segment } from "../api.js";
import { session } from "../session.js";
import { forgetData } from "../offline.js";
import { h, replace, field, form, announce, failure, checkTypedTwice } from "../dom.js";
import { t, setLanguage, languages, languageNames } from "../i18n.js";
import { cardFields, addCard } from "../cards.js";
import { genders } from "./account.js";

/** The channels a notification may take, each with its label's key. */
const channels = [["push", "profile.byPush"], ["email", "profile.byEmail"], ["sms", "profile.bySms"]];
/** What notifications are about, with their labels' keys; only deals and welcomes may be turned off. */
const topics = [
  ["NOTIFICATION_TOPIC_TRAIN_CHANGES", "profile.topicTrainChanges", false],
  ["NOTIFICATION_TOPIC_DEALS", "profile.topicDeals", true],
  ["NOTIFICATION_TOPIC_WELCOMES", "profile.topicWelcomes", true],
  ["NOTIFICATION_TOPIC_TICKETS", "profile.topicTickets", false],
  ["NOTIFICATION_TOPIC_TRIPS", "profile.topicTrips", false],
  ["NOTIFICATION_TOPIC_TAXI", "profile.topicTaxi", false],
  ["NOTIFICATION_TOPIC_AIR_QUALITY", "profile.topicAirQuality", false],
];
const channelShort = { push: "profile.channelPush", email: "profile.channelEmail", sms: "profile.channelSms" };

export async function show(main) {
  const sections = {
    details: h("section", { id: "profile-details", "aria-labelledby": "details-heading" }),
    email: h("section", { id: "profile-email", "aria-labelledby": "email-heading" }),
    password: h("section", { id: "profile-password", "aria-labelledby": "password-heading" }),
    friends: h("section", { id: "profile-friends", "aria-labelledby": "friends-heading" }),
    cards: h("section", { id: "profile-cards", "aria-labelledby": "cards-heading" }),
    notifications: h("section", { id: "profile-notifications", "aria-labelledby": "notifications-heading" }),
    leaving: h("section", { id: "profile-delete", "aria-labelledby": "delete-heading" }),
  };
  main.append(...Object.values(sections));
  for (const [draw, where] of [[drawProfile, sections.details], [drawFriends, sections.friends], [drawCards, sections.cards], [drawNotifications, sections.notifications]]) {
    try { await draw(); } catch (error) { where.append(failure(error)); }
  }
  drawPassword();
  drawLeaving();

  /** The friends in short, as SubscribeME's and Trip Itinerary's profile shows them: how many,
   * the requests waiting, and the way to manage them. */
  async function drawFriends() {
    const [friends, requests] = await Promise.all([api("GET", "/v1/friends"), api("GET", "/v1/friend-requests")]);
    const count = (friends.friends || []).length;
    const incoming = (requests.incoming || []).length;
    const outgoing = (requests.outgoing || []).length;
    replace(sections.friends, h("h2", { id: "friends-heading" }, t("page.friends")),
      h("p", { id: "friends-summary" }, t("profile.friendsCount", { count }),
        incoming ? ` · ${t("profile.requestsIn", { count: incoming })}` : "",
        outgoing ? ` · ${t("profile.requestsOut", { count: outgoing })}` : ""),
      h("p", {}, h("a", { href: "#/friends" }, t("profile.manageFriends"))));
  }

  /** The details, the language, the phone and the email: all from the profile. */
  async function drawProfile() {
    const profile = (await api("GET", "/v1/me")).profile;
    // A confirmed new email shows in the header at once, not at the next sign-in.
    if (session.user && profile.email && session.user.email !== profile.email) {
      session.setEmail(profile.email);
      const who = document.getElementById("who");
      if (who) who.textContent = profile.email;
    }
    const phoneState = profile.phone
      ? h("p", { class: profile.phoneVerified ? "verified" : "unverified", id: "phone-state" },
        t(profile.phoneVerified ? "profile.phoneVerified" : "profile.phoneUnverified", { phone: profile.phone }))
      : null;
    replace(sections.details, h("h2", { id: "details-heading" }, t("profile.details")),
      form(t("profile.details"), [
        field(t("account.firstName"), { name: "firstName", autocomplete: "given-name", required: true, value: profile.firstName }),
        field(t("account.lastName"), { name: "lastName", autocomplete: "family-name", value: profile.lastName }),
        field(t("profile.birthDate"), { name: "birthDate", type: "date", autocomplete: "bday", value: profile.birthDate }, t("profile.optional")),
        field(t("profile.gender"), { name: "gender", options: genders.map((gender) => [gender, t(`enum.${gender}`)]), value: profile.gender || "GENDER_UNSPECIFIED" }, t("profile.optional")),
        field(t("account.phone"), { name: "phone", type: "tel", autocomplete: "tel", placeholder: "+393331234567", value: profile.phone }, t("account.phoneHint")),
        field(t("menu.language"), { name: "language", options: Object.keys(languages).map((code) => [code, languageNames[code]]), value: profile.language || "it" }),
      ], t("profile.save"), async (values) => {
        await api("PATCH", "/v1/me", {
          firstName: values.firstName, lastName: values.lastName, phone: values.phone,
          birthDate: values.birthDate, gender: values.gender, language: values.language,
        });
        announce(t("profile.saved"));
        // The page's words follow the account's language.
        if (values.language !== profile.language) await setLanguage(values.language);
        else await drawProfile();
      }, { id: "profile-form" }),
      phoneState,
      profile.phone && !profile.phoneVerified ? phoneForm() : null);
    drawEmail(profile);
  }

  function phoneForm() {
    const resend = h("button", { type: "button", class: "secondary", id: "resend-phone-code" }, t("profile.resendCode"));
    resend.addEventListener("click", async () => {
      try {
        await api("POST", "/v1/me/phone:resendCode", {});
        announce(t("profile.codeSent"));
      } catch (error) {
        announce(error.message);
      }
    });
    return h("div", {}, form(t("profile.verifyPhone"), [
      field(t("confirm.code"), { name: "code", inputmode: "numeric", autocomplete: "one-time-code", required: true }),
    ], t("profile.verifyPhone"), async (values) => {
      await api("POST", "/v1/me/phone:verify", { code: values.code });
      announce(t("profile.phoneDone"));
      await drawProfile();
    }, { id: "phone-form", class: "inline" }), resend);
  }

  function drawEmail(profile) {
    replace(sections.email, h("h2", { id: "email-heading" }, t("profile.email")),
      h("p", { id: "current-email" }, t("profile.emailNow", { email: profile.email })),
      profile.pendingEmail ? h("p", { class: "hint", id: "pending-email" }, t("profile.emailPending", { email: profile.pendingEmail }), " ",
        h("a", { href: `#/confirm?email=${encodeURIComponent(profile.pendingEmail)}` }, t("confirm.title"))) : null,
      form(t("profile.changeEmail"), [
        field(t("profile.newEmail"), { name: "newEmail", type: "email", autocomplete: "email", required: true }),
        field(t("account.password"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
      ], t("profile.changeEmail"), async (values) => {
        await api("POST", "/v1/me:changeEmail", { newEmail: values.newEmail, password: values.password });
        announce(t("profile.emailSent", { email: values.newEmail }));
        drawEmail((await api("GET", "/v1/me")).profile);
      }, { id: "email-form" }));
  }

  function drawPassword() {
    replace(sections.password, h("h2", { id: "password-heading" }, t("profile.password")),
      form(t("profile.password"), [
        field(t("profile.currentPassword"), { name: "currentPassword", type: "password", autocomplete: "current-password", required: true }),
        field(t("reset.newPassword"), { name: "newPassword", type: "password", autocomplete: "new-password", required: true, minlength: 10 }, t("account.passwordHint")),
        field(t("account.passwordAgain"), { name: "newPasswordAgain", type: "password", autocomplete: "new-password", required: true }),
      ], t("profile.changePassword"), async (values, element) => {
        checkTypedTwice(values, "newPassword", "newPasswordAgain");
        await api("POST", "/v1/me:changePassword", { currentPassword: values.currentPassword, newPassword: values.newPassword });
        element.reset();
        announce(t("profile.passwordChanged"));
      }, { id: "password-form" }));
  }

  async function drawCards() {
    const cards = (await api("GET", "/v1/payment-methods")).paymentMethods || [];
    const cardItem = (card) => {
      const makeDefault = h("button", { type: "button", class: "secondary", "aria-label": t("profile.makeDefaultLabel", { last4: card.last4 }) }, t("profile.makeDefault"));
      const remove = h("button", { type: "button", class: "secondary remove", "aria-label": t("profile.removeCardLabel", { last4: card.last4 }) }, t("profile.removeCard"));
      makeDefault.addEventListener("click", () => change(`/v1/payment-methods/${segment(card.paymentMethodId)}:makeDefault`, "POST"));
      remove.addEventListener("click", () => change(`/v1/payment-methods/${segment(card.paymentMethodId)}`, "DELETE"));
      return h("li", { class: "card", dataset: { card: card.paymentMethodId } },
        h("p", {}, h("strong", {}, `${card.brand || ""} •••• ${card.last4}`), ` · ${t("profile.expires", { month: String(card.expiryMonth).padStart(2, "0"), year: card.expiryYear })}`,
          card.isDefault ? h("span", { class: "badge default" }, t("profile.defaultCard")) : null),
        card.isDefault ? null : makeDefault, remove);
    };
    async function change(path, method) {
      try {
        await api(method, path, method === "POST" ? {} : undefined);
        await drawCards();
      } catch (error) {
        announce(error.message);
      }
    }
    replace(sections.cards, h("h2", { id: "cards-heading" }, t("profile.cards")),
      h("ul", { class: "cards", id: "cards" }, cards.length ? cards.map(cardItem) : h("li", { class: "empty" }, t("profile.noCards"))),
      form(t("card.title"), cardFields(), t("card.title"), async (values) => {
        await addCard(values);
        announce(t("profile.cardAdded"));
        await drawCards();
      }, { id: "add-card-form", class: "inline" }));
  }

  async function drawNotifications() {
    const preferences = (await api("GET", "/v1/me/notification-preferences")).preferences || {};
    const chosen = Object.fromEntries((preferences.topics || []).map((topic) => [topic.topic, topic]));
    const box = ([name, key]) => h("label", { class: "check" },
      h("input", { type: "checkbox", name, value: "on", checked: Boolean(preferences[name]) }), ` ${t(key)}`);
    const cell = (name, checked, label) => h("td", {},
      h("input", { type: "checkbox", name, value: "on", checked: Boolean(checked), "aria-label": label }));
    const rows = topics.map(([topic, key, optional]) => {
      const current = chosen[topic] || {};
      const what = t(key);
      return h("tr", { "data-topic": topic },
        h("th", { scope: "row" }, what),
        optional ? cell(`${topic}.receive`, current.receive, t("profile.topicReceive", { what }))
          : h("td", { class: "always" }, t("profile.topicAlways")),
        channels.map(([channel]) => cell(`${topic}.${channel}`, current[channel], t("profile.topicBy", { what, channel: t(channelShort[channel]) }))));
    });
    replace(sections.notifications, h("h2", { id: "notifications-heading" }, t("profile.notifications")),
      form(t("profile.notifications"), [
        h("fieldset", {}, h("legend", {}, t("profile.channels")), channels.map(box)),
        h("table", { class: "topics", id: "topic-preferences" },
          h("caption", {}, t("profile.topicsCaption")),
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, t("profile.topic")),
            h("th", { scope: "col" }, t("profile.topicReceiveHeader")),
            channels.map(([channel]) => h("th", { scope: "col" }, t(channelShort[channel]))))),
          h("tbody", {}, rows)),
        h("p", { class: "hint" }, t("profile.topicsHint")),
      ], t("profile.save"), async (values) => {
        const on = (name) => values[name] === "on";
        await api("PUT", "/v1/me/notification-preferences", {
          preferences: {
            push: on("push"), email: on("email"), sms: on("sms"),
            topics: topics.map(([topic, , optional]) => ({
              topic,
              receive: optional ? on(`${topic}.receive`) : true,
              push: on(`${topic}.push`), email: on(`${topic}.email`), sms: on(`${topic}.sms`),
            })),
          },
        });
        announce(t("profile.saved"));
      }, { id: "preferences-form" }));
  }

  function drawLeaving() {
    replace(sections.leaving, h("h2", { id: "delete-heading" }, t("profile.delete")),
      h("p", {}, t("profile.deleteWhat")),
      form(t("profile.delete"), [
        field(t("account.password"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "sure", value: "on", required: true }), ` ${t("profile.deleteSure")}`),
      ], t("profile.deleteButton"), async (values) => {
        if (values.sure !== "on") throw new Error(t("profile.deleteSure"));
        await api("POST", "/v1/me:delete", { password: values.password });
        session.signedOut();
        forgetData();
        location.hash = "#/sign-in?deleted=1";
      }, { id: "delete-form", class: "danger" }));
  }
}
