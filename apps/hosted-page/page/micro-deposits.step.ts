import { api, ApiError } from "./api.ts";
import { errorLine, h, setFieldError, show } from "./dom.ts";
import { failStep, messageStep } from "./messages.ts";
import { cancelButton, consumerHeaders, sandboxBanner, type Session } from "./session.ts";

/** Where the linked account stands, as both micro-deposit routes answer. */
export interface ValidationState {
  status: "validated" | "validation_required" | "micro_deposits_sent" | "locked";
  micro_deposits: { sent_at: string; expires_at: string; tries_left: number } | null;
}

const START = "/api/consumers/bank_account/micro_deposits";

/**
 * After the account is saved (or when the consumer comes back to a linked checkout): asks for
 * micro-deposits, which the bank-data provider's own validation makes unnecessary (409
 * `bank_account_already_validated`: `done`). Otherwise the deposits go out once (or the pair
 * already sent is answered) and the consumer is asked for the amounts.
 */
export async function validationStep(session: Session, done: () => void, linkAnother: () => void): Promise<void> {
  try {
    const state = await api<ValidationState>("POST", START, consumerHeaders(session), {});
    amountsStep(session, state, done, linkAnother);
  } catch (err) {
    if (err instanceof ApiError && err.code === "bank_account_already_validated") return done();
    if (err instanceof ApiError && err.code === "micro_deposits_locked") return lockedStep(session, linkAnother);
    failStep(err, session);
  }
}

function day(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}

function triesText(left: number): string {
  return left === 1 ? "You have 1 try left." : `You have ${left} tries left.`;
}

/** The two-amount form: each amount as the statement shows it (e.g. 0.07); wrong pairs say how many tries are left. */
function amountsStep(session: Session, state: ValidationState, done: () => void, linkAnother: () => void): void {
  const md = state.micro_deposits;
  const error = errorLine("amounts-error");
  const tries = h("p", { id: "amounts-tries", class: "hint" }, md ? triesText(md.tries_left) : "");
  const field = (id: string, label: string) => {
    const input = h("input", { id, name: id, type: "text", inputmode: "decimal", autocomplete: "off", placeholder: "0.00", "aria-describedby": "amounts-hint amounts-tries amounts-error" });
    return { input, label: h("label", { for: id }, label) };
  };
  const first = field("amount-1", "First deposit ($)");
  const second = field("amount-2", "Second deposit ($)");
  const submit = h("button", { type: "submit", class: "primary" }, "Confirm my account");
  const form = h(
    "form",
    { novalidate: true },
    first.label,
    first.input,
    second.label,
    second.input,
    h("p", { id: "amounts-hint", class: "hint" }, "Enter each amount in dollars, for example 0.07, in any order."),
    tries,
    error,
    h("div", { class: "actions" }, submit, cancelButton(session)),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const amounts = [first.input.value.trim(), second.input.value.trim()];
    const bad = [first.input, second.input].find((input, i) => !/^0?\.\d{1,2}$/.test(amounts[i]!) || Number(amounts[i]) <= 0);
    if (bad) return setFieldError(bad, error, "Enter each deposit as an amount under $1.00, for example 0.07.");
    submit.disabled = true;
    try {
      await api("POST", `${START}/verify`, consumerHeaders(session), { amounts: amounts.map((a) => (a.startsWith(".") ? `0${a}` : a)) });
      done();
    } catch (err) {
      submit.disabled = false;
      if (!(err instanceof ApiError)) return failStep(err, session);
      if (err.code === "micro_deposit_amounts_mismatch") {
        const left = /(\d+) tr(?:y|ies) left/.exec(err.message)?.[1];
        if (left) tries.textContent = triesText(Number(left));
        return setFieldError(first.input, error, "Those are not the two amounts we sent. Check your statement and try again.");
      }
      if (err.code === "micro_deposits_locked") return lockedStep(session, linkAnother);
      if (err.code === "micro_deposits_expired") return expiredStep(session, done, linkAnother);
      if (err.status === 400) return setFieldError(first.input, error, "Enter each deposit as an amount under $1.00, for example 0.07.");
      failStep(err, session);
    }
  });
  const where = session.sandbox
    ? "In the sandbox no statement shows them: the sandbox notices of this checkout (GET /api/sandbox/notices, type micro_deposits) do."
    : "They appear on your bank statement within 1–2 business days, described ACCTVERIFY, with a withdrawal of the same total.";
  show(
    "Confirm your bank account",
    sandboxBanner(session),
    h("p", {}, "Your bank could not confirm this account at once, so we sent it two small deposits of less than $1 each. They are on their way."),
    h("p", { class: "muted" }, where),
    md ? h("p", {}, `Enter the two amounts by ${day(md.expires_at)}. You can close this page and come back with the same payment link.`) : null,
    form,
  );
}

function lockedStep(session: Session, linkAnother: () => void): void {
  const another = h("button", { type: "button", class: "primary" }, "Link another account");
  another.addEventListener("click", linkAnother);
  show(
    "This account cannot be used",
    h("p", {}, "Three wrong pairs of amounts were entered, so this bank account is locked for this payment."),
    h("p", {}, "Link another account to pay, or go back to the shop."),
    h("div", { class: "actions" }, another, cancelButton(session)),
  );
}

function expiredStep(session: Session, done: () => void, linkAnother: () => void): void {
  const again = h("button", { type: "button", class: "primary" }, "Send two new deposits");
  again.addEventListener("click", () => void validationStep(session, done, linkAnother));
  show(
    "These deposits have expired",
    h("p", {}, "The amounts can be entered for 10 days after they were sent. We can send two new deposits to the same account."),
    h("div", { class: "actions" }, again, cancelButton(session)),
  );
}

/** A linked checkout's page, opened again: the amounts can still be entered there. */
export function alreadyLinkedStep(session: Session, signIn: () => void): void {
  messageStep("Your bank account is already linked", "This order is waiting for the shop to take the payment.", session, "confirm");
  const resume = h("button", { type: "button", class: "secondary" }, "Enter the amounts of the two deposits we sent");
  resume.addEventListener("click", signIn);
  document.getElementById("main")?.append(h("div", { class: "actions" }, resume));
}
