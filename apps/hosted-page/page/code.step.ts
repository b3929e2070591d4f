import { api, ApiError } from "./api.ts";
import { bankStep, doneStep } from "./bank.step.ts";
import { validationStep } from "./micro-deposits.step.ts";
import { errorLine, h, setFieldError, show } from "./dom.ts";
import { phoneErrorText, sendCode } from "./send-code.ts";
import { cancelButton, sandboxBanner, type Session } from "./session.ts";

/** Wrong tries one code allows (docs/api-notes.md, Credentials); the fifth kills it. */
const ATTEMPTS = 5;

/**
 * Step 3: the six-digit code. Counts the attempts left, offers a new code once the resend wait
 * (`resendIn` seconds) is over, and after the fifth wrong try says the code is dead.
 * `changePhone` goes back to the phone step.
 */
export function codeStep(session: Session, resendIn: number, changePhone: () => void): void {
  let attemptsLeft = ATTEMPTS;
  const input = h("input", {
    id: "code",
    name: "code",
    type: "text",
    inputmode: "numeric",
    autocomplete: "one-time-code",
    pattern: "[0-9]{6}",
    maxlength: "6",
    required: true,
    "aria-describedby": "code-hint code-error",
  });
  const error = errorLine("code-error");
  const status = h("p", { class: "hint", role: "status" });
  const submit = h("button", { type: "submit", class: "primary" }, "Confirm");
  const resend = h("button", { type: "button", class: "link" }, "Send a new code");
  const otherPhone = h("button", { type: "button", class: "link" }, "Use another number");
  otherPhone.addEventListener("click", () => {
    window.clearInterval(timer);
    changePhone();
  });

  let timer: number | undefined;
  const countdown = (seconds: number) => {
    window.clearInterval(timer);
    let left = Math.ceil(seconds);
    const tick = () => {
      resend.disabled = left > 0;
      resend.textContent = left > 0 ? `Send a new code (in ${left} s)` : "Send a new code";
      if (left-- <= 0) window.clearInterval(timer);
    };
    tick();
    timer = window.setInterval(tick, 1000);
  };
  countdown(resendIn);

  resend.addEventListener("click", async () => {
    resend.disabled = true;
    try {
      await sendCode(session.phone!);
      attemptsLeft = ATTEMPTS;
      submit.disabled = false;
      input.disabled = false;
      setFieldError(input, error, "");
      status.textContent = "A new code is on its way. The old one no longer works.";
      countdown(30);
      input.value = "";
      input.focus();
    } catch (err) {
      error.textContent = phoneErrorText(err);
      countdown(err instanceof ApiError && err.retryAfter ? err.retryAfter : 30);
    }
  });

  const form = h(
    "form",
    { novalidate: true },
    h("label", { for: "code" }, "Six-digit code"),
    input,
    h("p", { id: "code-hint", class: "hint" }, `Sent to ${session.phone}. It works for 10 minutes.`),
    error,
    status,
    h("div", {}, resend, " ", otherPhone),
    h("div", { class: "actions" }, submit, cancelButton(session)),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = input.value.replace(/\s+/g, "");
    if (!/^\d{6}$/.test(code)) return setFieldError(input, error, "Enter the six digits of the code we texted you.");
    submit.disabled = true;
    try {
      const verified = await api<{ data: { auth_token: string } }>("POST", "/api/verify_user/verify_code", {}, { phone: session.phone, verification_code: code });
      window.clearInterval(timer);
      session.authToken = verified.data.auth_token;
      // A linked checkout opened again: the consumer came back to enter micro-deposit amounts.
      if (session.checkout.status === "payment_method_saved") await validationStep(session, () => doneStep(session), () => void bankStep(session));
      else await bankStep(session);
    } catch (err) {
      submit.disabled = false;
      if (err instanceof ApiError && err.code === "invalid_verification_code") {
        attemptsLeft -= 1;
        const left = attemptsLeft === 1 ? "1 attempt left" : `${attemptsLeft} attempts left`;
        setFieldError(input, error, `That code is not right. ${left}.`);
      } else if (err instanceof ApiError && err.code === "too_many_attempts") {
        submit.disabled = true;
        input.disabled = true;
        error.textContent = "Too many wrong codes: this code no longer works. Send yourself a new code to try again.";
        countdown(err.retryAfter ?? 1);
        resend.focus();
      } else if (err instanceof ApiError && err.code === "verification_code_expired") {
        setFieldError(input, error, "This code has expired. Send yourself a new code.");
      } else {
        setFieldError(input, error, err instanceof ApiError ? err.message : "Something went wrong. Try again.");
      }
    }
  });
  show("Enter your code", sandboxBanner(session), form);
  input.focus();
}
