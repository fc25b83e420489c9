// Signing up, confirming the email, signing in, and resetting a forgotten password.

import { publicApi } from "../api.js";
import { session } from "../session.js";
import { h, field, form, announce, checkTypedTwice } from "../dom.js";
import { t, language } from "../i18n.js";

export function showSignIn(main, { query, app }) {
  main.append(
    query.deleted ? h("p", { role: "status", class: "done", id: "account-deleted" }, t("profile.deleted")) : null,
    form(t("signIn.title"), [
      // The account's name for password managers: a text field (the "username" token is not for type=email).
      field(t("account.email"), { name: "email", type: "text", inputmode: "email", autocomplete: "username", required: true, value: query.email }),
      field(t("account.password"), { name: "password", type: "password", autocomplete: "current-password", required: true }),
      // Off unless chosen: on a shared computer, closing the tab should sign out.
      h("div", { class: "field" },
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "keep", value: "true", "aria-describedby": "keep-hint" }), ` ${t("signIn.keep")}`),
        h("small", { id: "keep-hint", class: "hint" }, t("signIn.keepHint"))),
    ], t("signIn.submit"), async (values) => {
      const keep = values.keep === "true";
      const answer = await publicApi("POST", "/v1/sessions", { email: values.email, password: values.password },
        keep ? session.keepHeaders : {});
      announce(t("signIn.done"));
      await app.signedIn(answer.tokens, query.next, { keep });
    }, { id: "sign-in-form" }),
    h("p", {}, h("a", { href: "#/sign-up" }, t("menu.signUp")), " · ",
      h("a", { href: "#/password-reset" }, t("signIn.forgot"))));
}

/** The genders a person may give (optional: unspecified by default). */
export const genders = ["GENDER_UNSPECIFIED", "GENDER_FEMALE", "GENDER_MALE", "GENDER_OTHER", "GENDER_PREFER_NOT_TO_SAY"];

export function showSignUp(main) {
  main.append(
    form(t("signUp.title"), [
      field(t("account.email"), { name: "email", type: "email", autocomplete: "email", required: true }),
      field(t("account.password"), { name: "password", type: "password", autocomplete: "new-password", required: true, minlength: 10 },
        t("account.passwordHint")),
      field(t("account.passwordAgain"), { name: "passwordAgain", type: "password", autocomplete: "new-password", required: true }),
      field(t("account.firstName"), { name: "firstName", autocomplete: "given-name", required: true }),
      field(t("account.lastName"), { name: "lastName", autocomplete: "family-name" }),
      field(t("profile.birthDate"), { name: "birthDate", type: "date", autocomplete: "bday" }, t("profile.optional")),
      field(t("profile.gender"), { name: "gender", options: genders.map((gender) => [gender, t(`enum.${gender}`)]), value: "GENDER_UNSPECIFIED" },
        t("profile.optional")),
      field(t("account.phone"), { name: "phone", type: "tel", autocomplete: "tel", placeholder: "+393331234567" },
        t("account.phoneHint")),
    ], t("signUp.submit"), async (values) => {
      checkTypedTwice(values, "password", "passwordAgain");
      const { passwordAgain, birthDate, ...account } = values;
      // The account speaks the app's language: its emails, texts and notifications use it.
      await publicApi("POST", "/v1/accounts", { ...account, ...(birthDate ? { birthDate } : {}), language: language() });
      announce(t("signUp.done"));
      location.hash = `#/confirm?email=${encodeURIComponent(values.email)}`;
    }, { id: "sign-up-form" }));
}

export function showConfirm(main, { query }) {
  let resend;
  main.append(
    h("p", {}, t("confirm.intro")),
    form(t("confirm.title"), [
      field(t("account.email"), { name: "email", type: "email", autocomplete: "email", required: true, value: query.email }),
      field(t("confirm.code"), { name: "code", inputmode: "numeric", autocomplete: "one-time-code", required: true }),
    ], t("confirm.submit"), async (values) => {
      await publicApi("POST", "/v1/accounts:confirmEmail", { email: values.email, code: values.code.trim() });
      announce(t("confirm.done"));
      // A new address confirmed while signed in (the profile's change of email): back there.
      location.hash = session.user ? "#/profile" : `#/sign-in?email=${encodeURIComponent(values.email)}`;
    }, { id: "confirm-form" }),
    resend = h("button", { type: "button", class: "secondary", onclick: async () => {
      const email = main.querySelector('[name="email"]').value;
      resend.disabled = true;
      try {
        await publicApi("POST", "/v1/accounts:resendConfirmation", { email });
        announce(t("confirm.resent"));
      } catch (error) {
        announce(error.message);
      } finally {
        resend.disabled = false;
      }
    } }, t("confirm.resend")));
}

export function showPasswordReset(main, { query }) {
  if (query.token) {
    main.append(form(t("reset.chooseTitle"), [
      field(t("reset.newPassword"), { name: "newPassword", type: "password", autocomplete: "new-password", required: true, minlength: 10 }),
      field(t("account.passwordAgain"), { name: "newPasswordAgain", type: "password", autocomplete: "new-password", required: true }),
    ], t("reset.set"), async (values) => {
      checkTypedTwice(values, "newPassword", "newPasswordAgain");
      await publicApi("POST", "/v1/password-resets:complete", { token: query.token, newPassword: values.newPassword });
      announce(t("reset.done"));
      location.hash = "#/sign-in";
    }, { id: "reset-complete-form" }));
    return;
  }
  const done = h("p", { role: "status" });
  main.append(form(t("reset.title"), [
    field(t("account.email"), { name: "email", type: "email", autocomplete: "email", required: true }),
  ], t("reset.request"), async (values) => {
    await publicApi("POST", "/v1/password-resets", { email: values.email });
    done.textContent = t("reset.requested");
  }, { id: "reset-request-form" }), done);
}
