// Signing up, confirming the email, signing in, and resetting a forgotten password.

import { publicApi } from "../api.js";
import { h, field, form, announce } from "../dom.js";

export function showSignIn(main, { query, app }) {
  main.append(
    form("Sign in", [
      field("Email", { name: "email", type: "email", autocomplete: "username", required: true, value: query.email }),
      field("Password", { name: "password", type: "password", autocomplete: "current-password", required: true }),
    ], "Sign in", async (values) => {
      const answer = await publicApi("POST", "/v1/sessions", { email: values.email, password: values.password });
      announce("Signed in");
      await app.signedIn(answer.tokens, query.next);
    }, { id: "sign-in-form" }),
    h("p", {}, h("a", { href: "#/sign-up" }, "Create an account"), " · ",
      h("a", { href: "#/password-reset" }, "Forgot your password?")));
}

export function showSignUp(main) {
  main.append(
    form("Create an account", [
      field("Email", { name: "email", type: "email", autocomplete: "email", required: true }),
      field("Password", { name: "password", type: "password", autocomplete: "new-password", required: true, minlength: 10 },
        "At least 10 characters."),
      field("First name", { name: "firstName", autocomplete: "given-name", required: true }),
      field("Last name", { name: "lastName", autocomplete: "family-name" }),
      field("Phone", { name: "phone", type: "tel", autocomplete: "tel", placeholder: "+393331234567" },
        "Optional; international form, for taxis and alerts."),
    ], "Create the account", async (values) => {
      await publicApi("POST", "/v1/accounts", values);
      announce("Account created; check your email for the code");
      location.hash = `#/confirm?email=${encodeURIComponent(values.email)}`;
    }, { id: "sign-up-form" }));
}

export function showConfirm(main, { query }) {
  let resend;
  main.append(
    h("p", {}, "We emailed you a code. Type it here to confirm the address."),
    form("Confirm your email", [
      field("Email", { name: "email", type: "email", autocomplete: "email", required: true, value: query.email }),
      field("Code", { name: "code", inputmode: "numeric", autocomplete: "one-time-code", required: true }),
    ], "Confirm", async (values) => {
      await publicApi("POST", "/v1/accounts:confirmEmail", { email: values.email, code: values.code.trim() });
      announce("Email confirmed; you can sign in");
      location.hash = `#/sign-in?email=${encodeURIComponent(values.email)}`;
    }, { id: "confirm-form" }),
    resend = h("button", { type: "button", class: "secondary", onclick: async () => {
      const email = main.querySelector('[name="email"]').value;
      resend.disabled = true;
      try {
        await publicApi("POST", "/v1/accounts:resendConfirmation", { email });
        announce("A new code is on its way");
      } catch (error) {
        announce(error.message);
      } finally {
        resend.disabled = false;
      }
    } }, "Send a new code"));
}

export function showPasswordReset(main, { query }) {
  if (query.token) {
    main.append(form("Choose a new password", [
      field("New password", { name: "newPassword", type: "password", autocomplete: "new-password", required: true, minlength: 10 }),
    ], "Set the password", async (values) => {
      await publicApi("POST", "/v1/password-resets:complete", { token: query.token, newPassword: values.newPassword });
      announce("Password changed; sign in with it");
      location.hash = "#/sign-in";
    }, { id: "reset-complete-form" }));
    return;
  }
  const done = h("p", { role: "status" });
  main.append(form("Reset your password", [
    field("Email", { name: "email", type: "email", autocomplete: "email", required: true }),
  ], "Email me a link", async (values) => {
    await publicApi("POST", "/v1/password-resets", { email: values.email });
    done.textContent = "If that address has an account, a link to choose a new password is on its way.";
  }, { id: "reset-request-form" }), done);
}
