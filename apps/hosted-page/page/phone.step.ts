import { codeStep } from "./code.step.ts";
import { errorLine, h, setFieldError, show } from "./dom.ts";
import { phoneErrorText, sendCode } from "./send-code.ts";
import { cancelButton, sandboxBanner, type Session } from "./session.ts";

/** Step 2: the consumer's mobile number, to which Send Code texts a six-digit code. */
export function phoneStep(session: Session): void {
  const input = h("input", {
    id: "phone",
    name: "phone",
    type: "tel",
    autocomplete: "tel",
    inputmode: "tel",
    required: true,
    "aria-describedby": "phone-hint phone-error",
    value: session.phone ?? "",
  });
  const error = errorLine("phone-error");
  const submit = h("button", { type: "submit", class: "primary" }, "Text me a code");
  const form = h(
    "form",
    { novalidate: true },
    h("label", { for: "phone" }, "Mobile phone number"),
    input,
    h("p", { id: "phone-hint", class: "hint" }, phoneHint(session.phoneCountry)),
    error,
    h("div", { class: "actions" }, submit, cancelButton(session)),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const phone = input.value.trim();
    if (!phone) return setFieldError(input, error, "Enter your mobile phone number.");
    submit.disabled = true;
    try {
      await sendCode(phone);
      session.phone = phone;
      codeStep(session, 30, () => phoneStep(session));
    } catch (err) {
      submit.disabled = false;
      setFieldError(input, error, phoneErrorText(err));
    }
  });
  show("Confirm your phone", sandboxBanner(session), h("p", {}, "We text you a six-digit code to confirm it is you."), form);
  input.focus();
}

/** Numbers of the deployment's country as usually written; others with `+` and their country code. */
export function phoneHint(country: string): string {
  const name = country === "US" ? "the US" : (new Intl.DisplayNames(["en"], { type: "region" }).of(country) ?? country);
  const foreign = country === "GB" ? "+1 415 555 2671" : "+44 7700 900123";
  const home = country === "US" ? ", e.g. (415) 555-2671" : "";
  return `A number in ${name} as you usually write it${home}; other countries with + and the country code, e.g. ${foreign}.`;
}
